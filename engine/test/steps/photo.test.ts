import { describe, expect, it } from 'vitest';
import { estimateNoise } from '../../src/analysis/measure.js';
import { createImage } from '../../src/image.js';
import { createDefaultRegistry } from '../../src/steps/index.js';
import { crop, psnr, withNoise } from './helpers.js';

const steps = createDefaultRegistry();

describe('photo steps on real eval crops', () => {
  it('denoise-photo lowers the noise and brings the photo closer to the original', async () => {
    const clean = await crop('photo_002', 'clean.png', { left: 100, top: 100, width: 200, height: 160 });
    const noisy = withNoise(clean, 12);
    const out = await steps.get('denoise-photo').run(noisy, { sigma: estimateNoise(noisy) });
    expect(estimateNoise(out)).toBeLessThan(estimateNoise(noisy) * 0.6);
    expect(psnr(out, clean)).toBeGreaterThan(psnr(noisy, clean) + 1);
  });

  it('correct-levels undoes a fade with lifted blacks', async () => {
    const clean = await crop('photo_001', 'clean.png', { left: 100, top: 100, width: 200, height: 200 });
    const faded = createImage(clean.width, clean.height, clean.channels);
    for (let i = 0; i < clean.data.length; i++) faded.data[i] = Math.round(70 + clean.data[i]! * 0.6);
    const out = await steps.get('correct-levels').run(faded, {});
    expect(psnr(out, clean)).toBeGreaterThan(psnr(faded, clean) + 3);
  });

  it('remove-dust takes out a thin bright scratch', async () => {
    const clean = await crop('photo_002', 'clean.png', { left: 150, top: 120, width: 160, height: 120 });
    const scratched = createImage(clean.width, clean.height, clean.channels);
    scratched.data.set(clean.data);
    for (let x = 10; x < 150; x++) {
      const y = 60 + Math.round(x / 10);
      for (let c = 0; c < 3; c++) scratched.data[(y * clean.width + x) * 3 + c] = 250;
    }
    const out = await steps.get('remove-dust').run(scratched, {});
    expect(psnr(out, clean)).toBeGreaterThan(psnr(scratched, clean) + 3);
  });
});
