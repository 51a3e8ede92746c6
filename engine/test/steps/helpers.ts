import sharp, { type Sharp } from 'sharp';
import { createImage, type RawImage } from '../../src/image.js';
import { sharpOf, sharpToRaw } from '../../src/pixels/index.js';
import { publicSet } from '../helpers.js';
import path from 'node:path';

/** A crop of an eval file as a RawImage (grey files stay grey). */
export async function crop(
  sample: string,
  file: string,
  region: { left: number; top: number; width: number; height: number },
  grey = false,
): Promise<RawImage> {
  let p = sharp(path.join(publicSet, sample, file))
    .extract(region)
    .removeAlpha();
  if (grey) p = p.toColourspace('b-w');
  return rawOf(p);
}

/** The image through JPEG at `quality` and back, its channel count kept. */
export async function jpegRoundTrip(img: RawImage, quality: number): Promise<RawImage> {
  return sharpToRaw(sharp(await sharpOf(img).jpeg({ quality }).toBuffer()), img.channels);
}

/** What a sharp pipeline gives, as a RawImage. */
export async function rawOf(p: Sharp): Promise<RawImage> {
  const { data, info } = await p.raw().toBuffer({ resolveWithObject: true });
  return {
    data: new Uint8Array(data),
    width: info.width,
    height: info.height,
    channels: info.channels as RawImage['channels'],
  };
}

export function psnr(a: RawImage, b: RawImage): number {
  let se = 0;
  for (let i = 0; i < a.data.length; i++) se += (a.data[i]! - b.data[i]!) ** 2;
  const mse = se / a.data.length;
  return 10 * Math.log10((255 * 255) / Math.max(mse, 1e-9));
}

export function mean(img: RawImage): number {
  let s = 0;
  for (const v of img.data) s += v;
  return s / img.data.length;
}

/** Standard deviation of the paper level (brightest pixel of each 32×32 block): lighting and stains, not text. */
export function backgroundUnevenness(img: RawImage): number {
  const levels: number[] = [];
  for (let by = 0; by + 32 <= img.height; by += 32) {
    for (let bx = 0; bx + 32 <= img.width; bx += 32) {
      let max = 0;
      for (let y = by; y < by + 32; y++)
        for (let x = bx; x < bx + 32; x++) max = Math.max(max, img.data[(y * img.width + x) * img.channels]!);
      levels.push(max);
    }
  }
  const m = levels.reduce((a, b) => a + b, 0) / levels.length;
  return Math.sqrt(levels.reduce((a, b) => a + (b - m) ** 2, 0) / levels.length);
}

/** Deterministic pseudo-random noise so the test always sees the same damage. */
export function withNoise(img: RawImage, sigma: number): RawImage {
  let seed = 12345;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const out = createImage(img.width, img.height, img.channels);
  for (let i = 0; i < img.data.length; i++) {
    const g = Math.sqrt(-2 * Math.log(rand() + 1e-12)) * Math.cos(2 * Math.PI * rand());
    out.data[i] = Math.max(0, Math.min(255, Math.round(img.data[i]! + g * sigma)));
  }
  return out;
}
