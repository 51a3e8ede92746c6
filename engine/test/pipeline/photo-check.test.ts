// The photo plan's self-check: each step's output is compared with its input at a scale no photo damage works at,
// after the tones are matched; a step that changes the picture beyond that is skipped.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { planPage } from '../../src/analysis/plan.js';
import type { RawImage } from '../../src/image.js';
import { loadDocument } from '../../src/io/decode.js';
import { restorePageInThread, runSteps } from '../../src/pipeline/page.js';
import { MIN_STRUCTURE_PSNR, structurePsnr } from '../../src/pipeline/photo-check.js';
import { createDefaultRegistry } from '../../src/steps/index.js';
import { withNoise } from '../steps/helpers.js';
import { greyPicture } from '../pages.js';

const registry = createDefaultRegistry();

/** A colour copy of a grey picture (a warm tint), so the colour steps have something to change. */
function warm(img: RawImage): RawImage {
  const n = img.width * img.height;
  const data = new Uint8Array(n * 3);
  for (let i = 0; i < n; i++) {
    const v = img.data[i]!;
    data.set([v, Math.round(v * 0.92), Math.round(v * 0.8)], i * 3);
  }
  return { data, width: img.width, height: img.height, channels: 3 };
}

describe('the photo self-check', () => {
  it('accepts denoising, deblurring and levels, and rejects the document steps on a picture', async () => {
    const picture = warm(greyPicture(600, 400, 20, 235, 40));
    const noisy = withNoise(picture, 10);
    const honest = [
      await registry.get('denoise-dct').run(noisy, { sigma: 30, chromaSigma: 30, stride: 1 }),
      await registry.get('deblur-photo').run(picture, { sigma: 1, nsr: 0.01 }),
      await registry.get('correct-levels').run(picture, { maxGain: 1.6 }),
      await registry.get('restore-fade').run(picture, {}),
    ];
    const inputs = [noisy, picture, picture, picture];
    honest.forEach((out, i) => expect(structurePsnr(inputs[i]!, out)).toBeGreaterThan(MIN_STRUCTURE_PSNR));
    const docPlan = planPage(picture, 150, 'document');
    const bleached = await runSteps(picture, docPlan.steps, registry);
    expect(structurePsnr(picture, bleached)).toBeLessThan(MIN_STRUCTURE_PSNR - 6);
  });

  it('skips a photo step that changes the picture beyond its damage', async () => {
    const picture = greyPicture();
    const plan = planPage(picture, 150, 'auto');
    const planned = plan.steps.map((s) => s.name);
    expect(planned).toContain('correct-levels');
    // correct-levels replaced by a step that flattens the picture against its local background (a document step
    // by another name): the tones are the same globally, the structure is not.
    const broken = createDefaultRegistry().register({
      name: 'correct-levels',
      kind: 'photo',
      description: 'deliberately destroys the picture (test)',
      run: (img) => registry.get('flatten-background').run(img, { dpi: 150 }),
    });
    const png = await sharp(Buffer.from(picture.data), {
      raw: { width: picture.width, height: picture.height, channels: 1 },
    })
      .png()
      .toBuffer();
    const page = await restorePageInThread(await loadDocument(png), 0, { ocr: false }, broken, {});
    expect(page.steps).not.toContain('correct-levels');
    expect(page.fallback?.reason).toMatch(/self-check: correct-levels/);
    const { data } = await sharp(page.bytes).greyscale().raw().toBuffer({ resolveWithObject: true });
    const out: RawImage = {
      data: new Uint8Array(data),
      width: picture.width,
      height: picture.height,
      channels: 1,
    };
    expect(structurePsnr(picture, out)).toBeGreaterThan(MIN_STRUCTURE_PSNR);
  });
});
