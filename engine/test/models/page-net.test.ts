import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { RawImage } from '../../src/image.js';
import { loadDocument } from '../../src/io/decode.js';
import { pageNetAvailable, planTiles, runPageNet } from '../../src/models/page-net.js';
import { restorePageInThread } from '../../src/pipeline/page.js';
import { createDefaultRegistry } from '../../src/steps/index.js';
import { evalFile } from '../helpers.js';

/** A 640×640 grey piece of a clean public page, with text on it. */
async function cleanPiece(): Promise<RawImage> {
  const { data, info } = await sharp(evalFile('doc_004', 'clean.png'))
    .greyscale()
    .extract({ left: 150, top: 250, width: 640, height: 640 })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height, channels: 1 };
}

/** Yellowed, low-contrast paper with grain, as an aged photocopy: RGB. */
function damage(clean: RawImage, seed = 7): RawImage {
  let state = seed;
  const random = () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
  const out = new Uint8Array(clean.width * clean.height * 3);
  const tint = [0.93, 0.84, 0.62];
  for (let i = 0; i < clean.width * clean.height; i++) {
    const v = 70 + (clean.data[i]! / 255) * 130 + random() * 14;
    for (let c = 0; c < 3; c++) out[i * 3 + c] = Math.max(0, Math.min(255, Math.round(v * tint[c]!)));
  }
  return { data: out, width: clean.width, height: clean.height, channels: 3 };
}

function grey(img: RawImage): Uint8Array {
  if (img.channels === 1) return img.data;
  const out = new Uint8Array(img.width * img.height);
  for (let i = 0; i < out.length; i++) {
    out[i] = Math.round((img.data[i * 3]! + img.data[i * 3 + 1]! + img.data[i * 3 + 2]!) / 3);
  }
  return out;
}

function meanAbsDiff(a: Uint8Array, b: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

describe('planTiles', () => {
  it('runs a 150-DPI letter page in one window', () => {
    expect(planTiles(1275, 1650)).toEqual([
      { x0: 0, y0: 0, x1: 1275, y1: 1650, wx0: 0, wy0: 0, wx1: 1275, wy1: 1650 },
    ]);
  });

  it('splits a large page into windows under the budget that cover every pixel once', () => {
    const width = 5100;
    const height = 6600;
    const tiles = planTiles(width, height, 4_300_000);
    expect(tiles.length).toBeGreaterThan(1);
    const covered = new Uint8Array(width * height);
    for (const t of tiles) {
      const w = Math.ceil((t.wx1 - t.wx0) / 32) * 32;
      const h = Math.ceil((t.wy1 - t.wy0) / 32) * 32;
      expect(w * h).toBeLessThanOrEqual(4_300_000);
      expect(t.wx0 <= t.x0 && t.wy0 <= t.y0 && t.wx1 >= t.x1 && t.wy1 >= t.y1).toBe(true);
      for (let y = t.y0; y < t.y1; y += 50)
        for (let x = t.x0; x < t.x1; x += 50) covered[y * width + x]! += 1;
    }
    for (let y = 0; y < height; y += 50)
      for (let x = 0; x < width; x += 50) expect(covered[y * width + x]).toBe(1);
  });
});

describe('the trained page network (engine/weights/page-net.onnx)', () => {
  it('is committed with the engine', () => {
    expect(pageNetAvailable()).toBe(true);
  });

  it('leaves a clean page as it is', async () => {
    const clean = await cleanPiece();
    const out = await runPageNet(clean);
    expect(out).toMatchObject({ width: 640, height: 640, channels: 1 });
    expect(meanAbsDiff(out.data, clean.data)).toBeLessThan(3);
  });

  it('brings a yellowed, faded, grainy page at least halfway back to the clean page', async () => {
    const clean = await cleanPiece();
    const damaged = damage(clean);
    const before = meanAbsDiff(grey(damaged), clean.data);
    const out = await runPageNet(damaged);
    const after = meanAbsDiff(out.data, clean.data);
    expect(after).toBeLessThan(before / 2);
  });

  it('gives the same pixels whether a page runs in one window or in tiles', async () => {
    const clean = await cleanPiece();
    const damaged = damage(clean, 11);
    const whole = await runPageNet(damaged);
    const tiled = await runPageNet(damaged, 200_000);
    // Windows start on the network's 32 px grid with 128 px of context: no seam shows.
    expect(meanAbsDiff(whole.data, tiled.data)).toBeLessThan(0.05);
  });
});

describe('the default document plan', () => {
  async function damagedDoc() {
    const damaged = damage(await cleanPiece());
    const png = await sharp(damaged.data, { raw: { width: 640, height: 640, channels: 3 } })
      .png()
      .toBuffer();
    return loadDocument(png);
  }

  it('runs the network first on a damaged text page, then the classical steps planned on its output', async () => {
    const page = await restorePageInThread(await damagedDoc(), 0, {}, createDefaultRegistry(), {});
    expect(page.steps[0]).toBe('restore-page-net');
  });

  it('runs the classical plan alone when asked to', async () => {
    const page = await restorePageInThread(
      await damagedDoc(),
      0,
      { pageNet: false },
      createDefaultRegistry(),
      {},
    );
    expect(page.steps).not.toContain('restore-page-net');
    expect(page.steps.length).toBeGreaterThan(0);
  });
});
