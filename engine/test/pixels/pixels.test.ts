import { describe, expect, it } from 'vitest';
import { medianFilter, rankFilter } from '../../src/pixels/index.js';
import { centralCrop } from '../../src/pixels/geometry.js';
import { createImage } from '../../src/image.js';

/** The definition: the extreme over the (2r+1)² square around each pixel, clipped at the borders. */
function bruteForce(src: Uint8Array, width: number, height: number, r: number, max: boolean): Uint8Array {
  const out = new Uint8Array(src.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let v = max ? 0 : 255;
      for (let yy = Math.max(0, y - r); yy <= Math.min(height - 1, y + r); yy++)
        for (let xx = Math.max(0, x - r); xx <= Math.min(width - 1, x + r); xx++)
          v = max ? Math.max(v, src[yy * width + xx]!) : Math.min(v, src[yy * width + xx]!);
      out[y * width + x] = v;
    }
  }
  return out;
}

describe('rankFilter', () => {
  it('gives the max and min over the clipped square, for small, large and page-wide radii', () => {
    // A fixed pseudo-random image (same every run), with a few flat runs like paper and ink.
    let seed = 12345;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (const [width, height] of [
      [1, 1],
      [7, 3],
      [23, 17],
      [40, 31],
    ] as const) {
      const src = Uint8Array.from({ length: width * height }, () =>
        next() < 0.3 ? 255 : Math.floor(next() * 256),
      );
      for (const r of [1, 2, 3, 5, 12, 50]) {
        for (const max of [true, false]) {
          expect(Array.from(rankFilter(src, width, height, r, max))).toEqual(
            Array.from(bruteForce(src, width, height, r, max)),
          );
        }
      }
    }
  });

  it('returns a copy for radius 0', () => {
    const src = Uint8Array.from([1, 2, 3, 4]);
    const out = rankFilter(src, 2, 2, 0, true);
    expect(Array.from(out)).toEqual([1, 2, 3, 4]);
    expect(out).not.toBe(src);
  });
});

describe('medianFilter', () => {
  it('gives the median over the (2r+1)² square, borders clamped', () => {
    let seed = 777;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (const [width, height] of [
      [1, 1],
      [9, 4],
      [31, 23],
    ] as const) {
      const src = Uint8Array.from({ length: width * height }, () =>
        next() < 0.3 ? 200 : Math.floor(next() * 256),
      );
      for (const r of [1, 2, 4]) {
        const expected = new Uint8Array(src.length);
        for (let y = 0; y < height; y++)
          for (let x = 0; x < width; x++) {
            const values: number[] = [];
            for (let dy = -r; dy <= r; dy++)
              for (let dx = -r; dx <= r; dx++) {
                const yy = Math.min(height - 1, Math.max(0, y + dy));
                const xx = Math.min(width - 1, Math.max(0, x + dx));
                values.push(src[yy * width + xx]!);
              }
            values.sort((a, b) => a - b);
            expected[y * width + x] = values[values.length >> 1]!;
          }
        expect(Array.from(medianFilter(src, width, height, r))).toEqual(Array.from(expected));
      }
    }
  });
});

describe('centralCrop', () => {
  it('keeps the middle share of the width and height, every channel', () => {
    const img = createImage(10, 6, 3);
    img.data.forEach((_, i) => (img.data[i] = Math.floor(i / 3) % 256));
    const mid = centralCrop(img, 0.5);
    expect([mid.width, mid.height, mid.channels]).toEqual([5, 3, 3]);
    // The top-left pixel of the crop is pixel (2, 1) of the image: index 1 · 10 + 2.
    expect(Array.from(mid.data.subarray(0, 3))).toEqual([12, 12, 12]);
    expect(Array.from(mid.data.subarray(-3))).toEqual([36, 36, 36]);
  });
});
