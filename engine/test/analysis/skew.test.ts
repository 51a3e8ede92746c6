import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { estimateSkew } from '../../src/analysis/measure.js';
import { toGrey, type Grey } from '../../src/pixels/index.js';
import { publicSet } from '../helpers.js';

/** A public page as grey pixels, and the skew the generator gave it (0 when none). */
async function page(
  sample: string,
  file: 'clean.png' | 'degraded.png',
): Promise<{ grey: Grey; angle: number }> {
  const { data, info } = await sharp(path.join(publicSet, sample, file))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const img = { data: new Uint8Array(data), width: info.width, height: info.height, channels: info.channels };
  const meta = JSON.parse(readFileSync(path.join(publicSet, sample, 'meta.json'), 'utf8')) as {
    damages: { type: string; params?: { angle_deg?: number } }[];
  };
  const skew = meta.damages.find((d) => d.type === 'skew');
  return { grey: toGrey(img as Parameters<typeof toGrey>[0], 'max'), angle: skew?.params?.angle_deg ?? 0 };
}

/** The page shrunk by `factor` and enlarged again by repeating pixels, as a low-resolution fax or scan. */
function enlargedLowRes(g: Grey, factor: number): Grey {
  const data = new Uint8Array(g.data.length);
  for (let y = 0; y < g.height; y++) {
    for (let x = 0; x < g.width; x++) {
      const y0 = Math.min(g.height - factor, y - (y % factor));
      const x0 = Math.min(g.width - factor, x - (x % factor));
      let sum = 0;
      for (let j = 0; j < factor; j++)
        for (let i = 0; i < factor; i++) sum += g.data[(y0 + j) * g.width + x0 + i]!;
      data[y * g.width + x] = Math.round(sum / factor ** 2);
    }
  }
  return { ...g, data };
}

describe('estimateSkew', () => {
  it('reads an unskewed two-column page as straight (its columns do not line up)', async () => {
    // doc_028's columns: a pixel projection over the whole page read this clean page as -0.95°.
    const { grey } = await page('doc_028', 'clean.png');
    expect(Math.abs(estimateSkew(grey, 150))).toBeLessThan(0.3);
  });

  it('finds the skew of a page whose scanner borders and rules outweigh its text', async () => {
    // doc_001 (a form with dark scanner borders, 2.25°) and doc_024 (a form, -1.73°) read as 0° before.
    for (const sample of ['doc_001', 'doc_024']) {
      const { grey, angle } = await page(sample, 'degraded.png');
      expect(Math.abs(angle)).toBeGreaterThan(1);
      expect(Math.abs(estimateSkew(grey, 150) - angle)).toBeLessThan(0.2);
    }
  });

  it('finds the skew of an enlarged low-resolution scan (every edge on a multiple of its factor)', async () => {
    const { grey, angle } = await page('doc_016', 'degraded.png');
    expect(Math.abs(angle)).toBeGreaterThan(1);
    expect(Math.abs(estimateSkew(enlargedLowRes(grey, 3), 150) - angle)).toBeLessThan(0.2);
  });

  it('reads the same page at 200 DPI the same way', async () => {
    const { grey, angle } = await page('doc_016', 'degraded.png');
    const { data, info } = await sharp(grey.data, {
      raw: { width: grey.width, height: grey.height, channels: 1 },
    })
      .resize(Math.round((grey.width * 4) / 3), Math.round((grey.height * 4) / 3))
      .toColourspace('b-w')
      .raw()
      .toBuffer({ resolveWithObject: true });
    const big: Grey = { data: new Uint8Array(data), width: info.width, height: info.height, channels: 1 };
    expect(Math.abs(estimateSkew(big, 200) - angle)).toBeLessThan(0.2);
  });
});
