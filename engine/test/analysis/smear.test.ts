// The cepstrum's smear measure and the deconvolution it plans, on a page of text smeared by a known motion.
import { describe, expect, it } from 'vitest';
import { estimateSmear, isClearSmear } from '../../src/analysis/smear.js';
import { planPage } from '../../src/analysis/plan.js';
import { planPhoto } from '../../src/analysis/plan-photo.js';
import type { RawImage } from '../../src/image.js';
import { removeMotionBlur } from '../../src/steps/document.js';
import { greyPicture, smeared, textPage } from '../pages.js';

/** Share of pixels on the other side of mid-grey (ink against paper) than in the sharp page. */
function inkChanged(a: RawImage, sharp: RawImage): number {
  let changed = 0;
  for (let i = 0; i < a.data.length; i++) if (a.data[i]! < 128 !== sharp.data[i]! < 128) changed++;
  return changed / a.data.length;
}

/** The page reduced `factor` times by keeping every factor-th pixel, then enlarged back by repeating each. */
function repeatedPixels(img: RawImage, factor: number): RawImage {
  const data = new Uint8Array(img.data.length);
  for (let y = 0; y < img.height; y++)
    for (let x = 0; x < img.width; x++) {
      const from =
        (Math.floor(y / factor) * factor * img.width + Math.floor(x / factor) * factor) * img.channels;
      for (let c = 0; c < img.channels; c++)
        data[(y * img.width + x) * img.channels + c] = img.data[from + c]!;
    }
  return { ...img, data };
}

describe('estimateSmear', () => {
  it('finds the angle and length of a slanted motion smear on a text page', async () => {
    const page = await textPage();
    for (const [length, angle] of [
      [7, 115],
      [12, 32],
    ] as const) {
      const smear = estimateSmear(smeared(page, length, angle));
      expect(Math.abs(smear.angle - angle)).toBeLessThanOrEqual(2);
      expect(Math.abs(smear.length - length)).toBeLessThanOrEqual(1);
      expect(isClearSmear(smear)).toBe(true);
    }
  });

  it('finds no clear smear on sharp print, on a picture, or along the axes', async () => {
    const page = await textPage();
    expect(isClearSmear(estimateSmear(page))).toBe(false);
    expect(isClearSmear(estimateSmear(greyPicture(900, 700, 40, 220)))).toBe(false);
    // Along the axes a low resolution enlarged by repeating pixels shows the same dip: short smears not trusted there.
    expect(isClearSmear(estimateSmear(smeared(page, 8, 0)))).toBe(false);
    expect(isClearSmear(estimateSmear(repeatedPixels(page, 3)))).toBe(false);
    expect(isClearSmear(estimateSmear(repeatedPixels(page, 4)))).toBe(false);
  });

  it('trusts a smear along the rows or columns longer than any enlargement repeats its pixels', async () => {
    const page = await textPage();
    for (const angle of [0, 90]) {
      const smear = estimateSmear(smeared(page, 14, angle));
      expect(Math.abs(smear.length - 14)).toBeLessThanOrEqual(1);
      expect(isClearSmear(smear)).toBe(true);
    }
  });
});

describe('motion blur in the plans', () => {
  it('plans remove-motion-blur first, before the network and in the conservative steps, on a smeared page only', async () => {
    const page = await textPage();
    const plan = planPage(smeared(page, 9, 62), 150, 'auto');
    expect(plan.route).toBe('document');
    expect(plan.beforeNetwork.map((c) => c.name)).toEqual(['remove-motion-blur']);
    expect(plan.beforeNetwork[0]!.params.angle).toBeGreaterThanOrEqual(60);
    expect(plan.beforeNetwork[0]!.params.angle).toBeLessThanOrEqual(64);
    expect(plan.steps[0]).toEqual(plan.beforeNetwork[0]);
    expect(plan.conservative[0]).toEqual(plan.beforeNetwork[0]);
    const sharp = planPage(page, 150, 'auto');
    expect(sharp.beforeNetwork).toEqual([]);
    expect(sharp.steps.map((c) => c.name)).not.toContain('remove-motion-blur');
  });

  it('deconvolves a smeared page: a third as many pixels as under the smear differ in ink from the sharp page', async () => {
    const page = await textPage();
    const blurred = smeared(page, 9, 62);
    const [call] = planPage(blurred, 150, 'auto').beforeNetwork;
    const restored = await removeMotionBlur.run(blurred, call!.params);
    // 3.2 % of the pixels under the smear, 0.85 % deconvolved.
    expect(inkChanged(restored, page)).toBeLessThan(inkChanged(blurred, page) / 3);
  });

  it("measures a photo's clear smear with the cepstrum", () => {
    const picture = greyPicture(900, 700, 30, 230, 40);
    const { steps } = planPhoto(smeared(picture, 8, 140), {}, {});
    const deblur = steps.find((s) => s.name === 'deblur-motion');
    expect(deblur).toBeDefined();
    expect(Math.abs(Number(deblur!.params.angle) - 140)).toBeLessThanOrEqual(2);
    expect(Math.abs(Number(deblur!.params.length) - 8)).toBeLessThanOrEqual(1);
  });
});
