import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { estimateSkew } from '../../src/analysis/measure.js';
import { toGrey, type Grey } from '../../src/pixels/index.js';
import { publicSet } from '../helpers.js';
import { textPage, underPhoneLight } from '../pages.js';

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

/** A page of running text turned `degrees` clockwise on paper of its own grey (its lines then fall to the right). */
async function turnedPage(degrees: number, ink = 20, fontSize = 22): Promise<Grey> {
  const page = await textPage({ lines: 30, ink, fontSize });
  const { data, info } = await sharp(Buffer.from(page.data), {
    raw: { width: page.width, height: page.height, channels: 1 },
  })
    .rotate(degrees, { background: '#fafafa' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const img = { data: new Uint8Array(data), width: info.width, height: info.height, channels: info.channels };
  return toGrey(img as Parameters<typeof toGrey>[0], 'max');
}

/** A page under a phone's grain: ±`grain` levels, blurred by a defocus of σ 1 pixel, and half the grain again. */
async function grainy(page: Grey, grain: number): Promise<Grey> {
  const noisy = underPhoneLight(page, 0.2, grain);
  const blurred = await sharp(Buffer.from(noisy.data), {
    raw: { width: noisy.width, height: noisy.height, channels: 1 },
  })
    .blur(1)
    .raw()
    .toBuffer();
  return underPhoneLight({ ...noisy, data: new Uint8Array(blurred) }, 0, grain / 2) as Grey;
}

describe('estimateSkew', () => {
  // The glyphs' edges broken into specks by the grain: measured on the page as it is only, these pages read degrees
  // off (phone5 profile seed 5502 doc_010, upright, read as 4.3°); lightly smoothed, the specks merge back into glyphs.
  it("finds the skew of a page under a phone's grain", async () => {
    expect(Math.abs(estimateSkew(await grainy(await turnedPage(0), 60), 150))).toBeLessThan(0.3);
    expect(Math.abs(estimateSkew(await grainy(await turnedPage(1.5), 80), 150) + 1.5)).toBeLessThan(0.3);
  });

  // Smoothed, thin strokes of faint print pale below the ink depth and the page reads as straight (0°).
  it('finds the skew of faint thin print, which smoothing would pale away', async () => {
    expect(Math.abs(estimateSkew(await turnedPage(1.5, 170, 18), 150) + 1.5)).toBeLessThan(0.2);
  });

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
