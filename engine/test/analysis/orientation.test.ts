import sharp from 'sharp';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { measureOrientation } from '../../src/analysis/orientation.js';
import { planPage } from '../../src/analysis/plan.js';
import type { RawImage } from '../../src/image.js';
import { runSteps } from '../../src/pipeline/page.js';
import { pageSizeOf } from '../../src/pipeline/assemble.js';
import { createDefaultRegistry } from '../../src/steps/index.js';
import { turnImage } from '../../src/pixels/geometry.js';
import { toGrey, type Grey } from '../../src/pixels/index.js';
import { publicSet } from '../helpers.js';
import { textPage } from './pages.js';

const FONTS = ['Liberation Serif', 'DejaVu Sans', 'Liberation Mono'];

async function whole(sample: string, file: string): Promise<RawImage> {
  const { data, info } = await sharp(path.join(publicSet, sample, file))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    data: new Uint8Array(data),
    width: info.width,
    height: info.height,
    channels: info.channels as 1 | 3,
  };
}

const same = (a: RawImage, b: RawImage) =>
  a.width === b.width && a.height === b.height && Buffer.from(a.data).equals(Buffer.from(b.data));

describe('measureOrientation', () => {
  for (const font of FONTS) {
    it(`finds the quarter turns that bring a page in ${font} upright from each of the four ways`, () => {
      const page = textPage({ font });
      for (const t of [0, 1, 2, 3]) {
        const o = measureOrientation(toGrey(turnImage(page, t)), 150);
        expect(o.confident, `turned ${t * 90}°`).toBe(true);
        expect(o.turns, `turned ${t * 90}°`).toBe((4 - t) % 4);
      }
    });
  }

  it('is as sure turned half round as upright: the counts simply swap', () => {
    const page = textPage({ font: 'DejaVu Sans' });
    const up = measureOrientation(toGrey(page), 150);
    const down = measureOrientation(toGrey(turnImage(page, 2)), 150);
    expect(up.rising).toBeGreaterThan(1.5 * up.dropping);
    expect(down.rising).toBeCloseTo(up.dropping, -1);
    expect(down.dropping).toBeCloseTo(up.rising, -1);
  });

  it('does not turn a page whose letters blur into words: a word with a descender is no letter dropping', () => {
    // Each word a solid blob from the ascender line down; one in three with a descender below the baseline. Judged
    // as letters, the blobs with descenders "drop" below their neighbours' band (70 to 0: upside down).
    const width = 900;
    const height = 1100;
    const data = new Uint8Array(width * height).fill(245);
    let k = 0;
    for (let line = 0; line < 25; line++) {
      const top = 100 + line * 36;
      for (let x = 80; x < width - 150; k++) {
        const w = 40 + ((k * 37) % 60);
        const bottom = top + 16 + (k % 3 === 0 ? 6 : 0);
        for (let y = top; y < bottom; y++) data.fill(30, y * width + x, y * width + x + w);
        x += w + 12;
      }
    }
    const o = measureOrientation({ width, height, channels: 1, data }, 150);
    expect(o.horizontal).toBe(1);
    expect(o.confident).toBe(false);
    expect(o.turns).toBe(0);
  });

  it('works on a 300 DPI page (measured near 150 DPI)', () => {
    const page = textPage({ width: 1800, height: 2200, size: 44 });
    expect(measureOrientation(toGrey(turnImage(page, 3)), 300)).toMatchObject({ confident: true, turns: 1 });
  });

  it('is not confident on a blank page, a page with two lines, or photos', async () => {
    const blank: Grey = { width: 900, height: 1100, channels: 1, data: new Uint8Array(900 * 1100).fill(245) };
    expect(measureOrientation(blank, 150)).toMatchObject({ confident: false, turns: 0 });
    expect(measureOrientation(toGrey(turnImage(textPage({ lines: 2 }), 2)), 150)).toMatchObject({
      confident: false,
      turns: 0,
    });
    for (const photo of ['photo_001', 'photo_002', 'photo_006']) {
      const img = await whole(photo, 'clean.png');
      for (const t of [0, 1, 2, 3])
        expect(measureOrientation(toGrey(turnImage(img, t), 'max'), 150).confident, `${photo} ${t}`).toBe(
          false,
        );
    }
  });
});

describe('turn-page in the document plan', () => {
  it('turns a page scanned sideways upright first, and measures the rest on the upright page', async () => {
    const page = textPage({ font: 'Liberation Sans' });
    const plan = planPage(turnImage(page, 1), 150, 'auto');
    expect(plan.kind).toBe('document');
    expect(plan.geometry).toEqual([{ name: 'turn-page', params: { turns: 3 } }]);
    expect(plan.measures.turns).toBe(3);
    expect(Math.abs(plan.measures.skew!)).toBeLessThan(0.3);
    const upright = await runSteps(turnImage(page, 1), plan.geometry, createDefaultRegistry());
    expect(same(upright, page)).toBe(true);
  });

  it('leaves an upright page and a photo without geometry steps', async () => {
    expect(planPage(textPage(), 150, 'auto').geometry).toEqual([]);
    expect(planPage(await whole('photo_002', 'clean.png'), 150, 'auto').geometry).toEqual([]);
  });

  it('turns a PDF page with its image: width and height swap only when the image turned', () => {
    const letter = { width: 612, height: 792 };
    expect(pageSizeOf(letter, { width: 1650, height: 1275 })).toEqual({ widthPt: 792, heightPt: 612 });
    expect(pageSizeOf(letter, { width: 1275, height: 1650 })).toEqual({ widthPt: 612, heightPt: 792 });
    expect(pageSizeOf({ width: 600, height: 600 }, { width: 1250, height: 1240 })).toEqual({
      widthPt: 600,
      heightPt: 600,
    });
  });
});
