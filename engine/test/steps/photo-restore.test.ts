import { describe, expect, it } from 'vitest';
import {
  blockiness,
  edgeBlur,
  estimateDefocus,
  estimateMotion,
  gaussianBlur,
  grainNoise,
  lazyGaussianBlur,
} from '../../src/analysis/measure-photo.js';
import { diskKernel } from '../../src/pixels/kernels.js';
import { noiseSpectrum } from '../../src/steps/photo-restore.js';
import { planPhoto } from '../../src/analysis/plan-photo.js';
import { createImage, type RawImage } from '../../src/image.js';
import { createDefaultRegistry } from '../../src/steps/index.js';
import { colourBeyondCast } from '../../src/pixels/levels.js';
import { photoStepRejected } from '../../src/pipeline/photo-check.js';
import { crop, jpegRoundTrip, psnr } from './helpers.js';

const steps = createDefaultRegistry();

/** Deterministic uniform random numbers so that every run sees the same damage. */
function rng(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

/** Film-like grain: Gaussian noise blurred a little (spatially correlated), the same on every channel. */
function withGrain(img: RawImage, sigma: number): RawImage {
  const rand = rng(7);
  const n = img.width * img.height;
  const white = Float32Array.from({ length: n }, () => {
    const g = Math.sqrt(-2 * Math.log(rand() + 1e-12)) * Math.cos(2 * Math.PI * rand());
    return g;
  });
  const grain = gaussianBlur(white, img.width, img.height, 0.8);
  let sd = 0;
  for (const v of grain) sd += v * v;
  sd = Math.sqrt(sd / n);
  const out = createImage(img.width, img.height, img.channels);
  for (let i = 0; i < n; i++)
    for (let c = 0; c < img.channels; c++) {
      const p = i * img.channels + c;
      out.data[p] = Math.max(0, Math.min(255, Math.round(img.data[p]! + (grain[i]! / sd) * sigma)));
    }
  return out;
}

/** Same-size convolution with a kernel given as (dx, dy, weight) taps, clamped borders. */
function convolve(img: RawImage, taps: [number, number, number][]): RawImage {
  const out = createImage(img.width, img.height, img.channels);
  const { width, height, channels, data } = img;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      for (let c = 0; c < channels; c++) {
        let acc = 0;
        for (const [dx, dy, w] of taps) {
          const sx = Math.min(width - 1, Math.max(0, x + dx));
          const sy = Math.min(height - 1, Math.max(0, y + dy));
          acc += w * data[(sy * width + sx) * channels + c]!;
        }
        out.data[(y * width + x) * channels + c] = Math.round(acc);
      }
  return out;
}

function gaussianTaps(sigma: number): [number, number, number][] {
  const r = Math.ceil(3 * sigma);
  const taps: [number, number, number][] = [];
  let sum = 0;
  for (let dy = -r; dy <= r; dy++)
    for (let dx = -r; dx <= r; dx++) {
      const w = Math.exp(-(dx * dx + dy * dy) / (2 * sigma * sigma));
      taps.push([dx, dy, w]);
      sum += w;
    }
  return taps.map(([dx, dy, w]) => [dx, dy, w / sum]);
}

/** A pillbox (defocus) kernel of radius r as convolution taps. */
function diskTaps(radius: number): [number, number, number][] {
  const { size, weights } = diskKernel(radius);
  const R = (size - 1) / 2;
  const taps: [number, number, number][] = [];
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++)
      if (weights[y * size + x]! > 0) taps.push([x - R, y - R, weights[y * size + x]!]);
  return taps;
}

/** Float-accurate copy of `img` shrunk by `factor` (box average) and scaled back up bilinearly. */
function lowResolution(img: RawImage, factor: number): RawImage {
  const sw = Math.floor(img.width / factor);
  const sh = Math.floor(img.height / factor);
  const small = new Float32Array(sw * sh);
  for (let y = 0; y < sh; y++)
    for (let x = 0; x < sw; x++) {
      let s = 0;
      for (let dy = 0; dy < factor; dy++)
        for (let dx = 0; dx < factor; dx++) s += img.data[(y * factor + dy) * img.width + x * factor + dx]!;
      small[y * sw + x] = s / (factor * factor);
    }
  const out = createImage(img.width, img.height, 1);
  for (let y = 0; y < img.height; y++)
    for (let x = 0; x < img.width; x++) {
      const fx = Math.min(sw - 1, Math.max(0, (x + 0.5) / factor - 0.5));
      const fy = Math.min(sh - 1, Math.max(0, (y + 0.5) / factor - 0.5));
      const x0 = Math.min(sw - 2, Math.floor(fx));
      const y0 = Math.min(sh - 2, Math.floor(fy));
      const tx = fx - x0;
      const ty = fy - y0;
      const v =
        (small[y0 * sw + x0]! * (1 - tx) + small[y0 * sw + x0 + 1]! * tx) * (1 - ty) +
        (small[(y0 + 1) * sw + x0]! * (1 - tx) + small[(y0 + 1) * sw + x0 + 1]! * tx) * ty;
      out.data[y * img.width + x] = Math.round(v);
    }
  return out;
}

/** A straight smear of `length` px at `angle` degrees, sampled finely and splatted bilinearly. */
function smearTaps(length: number, angle: number): [number, number, number][] {
  const a = (angle * Math.PI) / 180;
  const weights = new Map<string, number>();
  const samples = Math.round(length * 4) + 1;
  for (let s = 0; s < samples; s++) {
    const t = -length / 2 + (length * s) / (samples - 1);
    const x = t * Math.cos(a);
    const y = t * Math.sin(a);
    const x0 = Math.floor(x);
    const y0 = Math.floor(y);
    const fx = x - x0;
    const fy = y - y0;
    for (const [dx, dy, w] of [
      [x0, y0, (1 - fx) * (1 - fy)],
      [x0 + 1, y0, fx * (1 - fy)],
      [x0, y0 + 1, (1 - fx) * fy],
      [x0 + 1, y0 + 1, fx * fy],
    ] as const) {
      const key = `${dx},${dy}`;
      weights.set(key, (weights.get(key) ?? 0) + w);
    }
  }
  let sum = 0;
  for (const w of weights.values()) sum += w;
  return [...weights].map(([k, w]) => {
    const [dx, dy] = k.split(',').map(Number) as [number, number];
    return [dx, dy, w / sum];
  });
}

/** Print fading as old colour prints show it: less saturation and contrast, lifted blacks, a yellow cast. */
function faded(img: RawImage, contrast = 0.68, lift = 0.12): RawImage {
  const out = createImage(img.width, img.height, img.channels);
  const cast = [1, 0.98, 0.9];
  for (let p = 0; p < img.data.length; p += 3) {
    const m = (img.data[p]! + img.data[p + 1]! + img.data[p + 2]!) / 3;
    for (let c = 0; c < 3; c++) {
      const v = m + (img.data[p + c]! - m) * 0.6;
      out.data[p + c] = Math.round((v * contrast + lift * 255) * cast[c]!);
    }
  }
  return out;
}

describe('photo restoration steps on real eval crops', () => {
  it('denoise-dct removes film grain and brings the photo closer to the original', async () => {
    const clean = await crop('photo_003', 'clean.png', { left: 300, top: 150, width: 200, height: 160 });
    const grainy = withGrain(clean, 8);
    expect(grainNoise(grainy)).toBeGreaterThan(grainNoise(clean) + 2);
    const sigma = grainNoise(grainy) * 2;
    const out = await steps.get('denoise-dct').run(grainy, { sigma, chromaSigma: sigma, stride: 1 });
    expect(grainNoise(out)).toBeLessThan(grainNoise(grainy) * 0.5);
    expect(psnr(out, clean)).toBeGreaterThan(psnr(grainy, clean) + 0.8);
  });

  it('noiseSpectrum measures blurred grain as noise of the low frequencies, white noise as flat', () => {
    const flat = createImage(256, 256, 1);
    flat.data.fill(128);
    const plane = (img: RawImage) => Float32Array.from(img.data);
    const grain = noiseSpectrum(plane(withGrain(flat, 8)), 256, 256);
    // Grain blurred by 0.8 px: the lowest frequencies carry several times the noise of the highest.
    expect(grain[1]!).toBeGreaterThan(3 * grain[63]!);
    expect(grain[1]!).toBeGreaterThan(8);
    // White noise: every coefficient beyond the lowest five (the blocks are chosen for their small values there)
    // reads its σ of 6. Mulberry32 here: the LCG above leaves a pattern in the highest frequencies.
    let state = 11;
    const uniform = () => {
      state = (state + 0x6d2b79f5) | 0;
      let t = Math.imul(state ^ (state >>> 15), 1 | state);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
    };
    const white = Float32Array.from(
      { length: 512 * 512 },
      () => 128 + 6 * Math.sqrt(-2 * Math.log(uniform() + 1e-12)) * Math.cos(2 * Math.PI * uniform()),
    );
    const spectrum = noiseSpectrum(white, 512, 512);
    for (let k = 1; k < 64; k++) {
      if ([1, 8, 2, 9, 16].includes(k)) expect(spectrum[k]!).toBeLessThan(6);
      else expect(Math.abs(spectrum[k]! - 6)).toBeLessThan(0.8);
    }
  });

  it('denoise-dct with the measured spectrum removes film grain better than one threshold for all', async () => {
    const clean = await crop('photo_003', 'clean.png', { left: 300, top: 150, width: 200, height: 160 });
    const grainy = withGrain(clean, 8);
    const sigma = grainNoise(grainy) * 3.2;
    const one = await steps.get('denoise-dct').run(grainy, { sigma, chromaSigma: sigma, stride: 1 });
    const measured = await steps.get('denoise-dct').run(grainy, { spectrum: true, stride: 1 });
    expect(psnr(measured, clean)).toBeGreaterThan(psnr(one, clean) + 0.5);
    expect(psnr(measured, clean)).toBeGreaterThan(psnr(grainy, clean) + 2);
  });

  it('denoise-dct removes JPEG blocking', async () => {
    const clean = await crop('photo_001', 'clean.png', { left: 128, top: 64, width: 192, height: 192 });
    const jpeg = await jpegRoundTrip(clean, 12);
    const block = blockiness(jpeg);
    expect(block).toBeGreaterThan(1.3);
    expect(blockiness(clean)).toBeLessThan(1.15);
    const sigma = 9 * (block - 1);
    const out = await steps.get('denoise-dct').run(jpeg, { sigma, chromaSigma: 2 * sigma, stride: 1 });
    expect(blockiness(out)).toBeLessThan(block - 0.3);
    expect(psnr(out, clean)).toBeGreaterThan(psnr(jpeg, clean) + 0.4);
  });

  it('denoise-dct with a small threshold leaves a clean photo nearly unchanged', async () => {
    const clean = await crop('photo_003', 'clean.png', { left: 200, top: 100, width: 160, height: 160 });
    const out = await steps.get('denoise-dct').run(clean, { sigma: 1 });
    expect(psnr(out, clean)).toBeGreaterThan(40);
  });

  it('restore-fade undoes fading and a yellow cast', async () => {
    const clean = await crop('photo_002', 'clean.png', { left: 60, top: 40, width: 320, height: 220 });
    const old = faded(clean);
    const out = await steps.get('restore-fade').run(old, { saturation: 1.4 });
    expect(psnr(out, clean)).toBeGreaterThan(psnr(old, clean) + 4);
  });

  it('colourBeyondCast tells a monochrome print under a cast from a faded colour print', async () => {
    const colour = await crop('photo_002', 'clean.png', { left: 60, top: 40, width: 320, height: 220 });
    const grey = await crop('photo_007', 'clean.png', { left: 60, top: 40, width: 320, height: 220 }, true);
    const greyRgb = createImage(grey.width, grey.height, 3);
    for (let i = 0; i < grey.width * grey.height; i++)
      for (let c = 0; c < 3; c++) greyRgb.data[i * 3 + c] = grey.data[i]!;
    expect(colourBeyondCast(faded(greyRgb))).toBeLessThan(0.5);
    expect(colourBeyondCast(faded(colour))).toBeGreaterThan(1.5);
    // A faded monochrome print comes back without colour: the restored channels stay close to each other.
    const out = await steps.get('restore-fade').run(faded(greyRgb), {});
    expect(psnr(out, greyRgb)).toBeGreaterThan(psnr(faded(greyRgb), greyRgb) + 4);
    expect(colourBeyondCast(out)).toBeLessThan(0.8);
  });

  it('remove-dust with a luma band takes out specks outside it and leaves the rest alone', async () => {
    const clean = faded(
      await crop('photo_002', 'clean.png', { left: 150, top: 120, width: 160, height: 120 }),
    );
    const dusty = createImage(clean.width, clean.height, 3);
    dusty.data.set(clean.data);
    const rand = rng(3);
    for (let k = 0; k < 40; k++) {
      const x = 2 + Math.floor(rand() * (clean.width - 4));
      const y = 2 + Math.floor(rand() * (clean.height - 4));
      for (let c = 0; c < 3; c++) dusty.data[(y * clean.width + x) * 3 + c] = 245;
    }
    const out = await steps.get('remove-dust').run(dusty, { threshold: 25, above: 200, below: 20 });
    expect(psnr(out, clean)).toBeGreaterThan(psnr(dusty, clean) + 6);
    // Inside the band nothing moves: the undamaged faded crop comes back bit for bit.
    const same = await steps.get('remove-dust').run(clean, { threshold: 25, above: 200, below: 20 });
    expect(same.data).toEqual(clean.data);
  });

  it('deblur-photo sharpens a defocused photo by the measured excess blur', async () => {
    const clean = await crop(
      'photo_007',
      'clean.png',
      { left: 150, top: 150, width: 200, height: 200 },
      true,
    );
    const blurred = convolve(clean, gaussianTaps(1.3));
    const blur = edgeBlur(blurred);
    expect(blur).toBeGreaterThan(edgeBlur(clean) + 0.3);
    const sigma = Math.sqrt(blur * blur - 0.36);
    const out = await steps.get('deblur-photo').run(blurred, { sigma, nsr: 0.01 });
    expect(psnr(out, clean)).toBeGreaterThan(psnr(blurred, clean) + 1.5);
  });

  it('estimateDefocus finds the radius of a pillbox blur and deblur-defocus undoes it', async () => {
    const clean = await crop(
      'photo_007',
      'clean.png',
      { left: 100, top: 100, width: 320, height: 320 },
      true,
    );
    const blurred = convolve(clean, diskTaps(2.2));
    const defocus = estimateDefocus(blurred);
    expect(defocus.depth).toBeGreaterThan(0.2);
    expect(Math.abs(defocus.radius - 2.2)).toBeLessThan(0.15);
    const out = await steps.get('deblur-defocus').run(blurred, { radius: defocus.radius, nsr: 0.003 });
    expect(psnr(out, clean)).toBeGreaterThan(psnr(blurred, clean) + 4);
    // The pillbox model beats the Gaussian one on the same blur.
    const blur = edgeBlur(blurred);
    const gaussian = await steps
      .get('deblur-photo')
      .run(blurred, { sigma: Math.sqrt(blur * blur - 0.36), nsr: 0.01 });
    expect(psnr(out, clean)).toBeGreaterThan(psnr(gaussian, clean) + 1.5);
  });

  it('estimateDefocus sees no ring in a sharp, a Gaussian-blurred or an upscaled photo', async () => {
    const clean = await crop(
      'photo_007',
      'clean.png',
      { left: 100, top: 100, width: 320, height: 320 },
      true,
    );
    expect(estimateDefocus(clean).depth).toBeLessThan(0.1);
    expect(estimateDefocus(convolve(clean, gaussianTaps(1.4))).depth).toBeLessThan(0.1);
    // Bilinear upscaling has zeros too, but on a square (separable kernel), not on a ring.
    expect(estimateDefocus(lowResolution(clean, 3)).depth).toBeLessThan(0.1);
  });

  it('estimateMotion finds a smear and deblur-motion undoes it', async () => {
    const clean = await crop('photo_005', 'clean.png', { left: 40, top: 40, width: 256, height: 200 }, true);
    const smeared = convolve(clean, smearTaps(7, 30));
    const motion = estimateMotion(smeared);
    expect(motion.score).toBeLessThan(0.84);
    expect(Math.abs(motion.angle - 30)).toBeLessThanOrEqual(6);
    expect(Math.abs(motion.length + 0.7 - 7)).toBeLessThan(1.5);
    expect(estimateMotion(clean).length < 4 || estimateMotion(clean).score >= 0.84).toBe(true);
    const out = await steps
      .get('deblur-motion')
      .run(smeared, { angle: motion.angle, length: motion.length + 0.7, nsr: 0.01 });
    expect(psnr(out, clean)).toBeGreaterThan(psnr(smeared, clean) + 1.5);
  });

  it("estimateMotion finds the smear's angle on a picture with strong edges of its own", async () => {
    // The astronaut photo: suit seams, flag stripes and the helmet's rim are long straight edges that the weakest
    // direction of fine gradients alone was pulled towards (up to 14° off on dev photos).
    const clean = await crop('photo_001', 'clean.png', { left: 0, top: 0, width: 512, height: 512 });
    for (const [length, angle] of [
      [7, 10],
      [10, 125],
      [9, 45],
      [7, 95],
    ] as const) {
      const motion = estimateMotion(convolve(clean, smearTaps(length, angle)));
      expect(Math.abs(motion.angle - angle), `smear of ${length} px at ${angle}°`).toBeLessThanOrEqual(4);
    }
  });
});

describe('lazyGaussianBlur', () => {
  it("gives the whole-image blur's exact value at every pixel, borders included, asked in any order", () => {
    const [width, height] = [37, 23];
    const src = new Float32Array(width * height);
    let seed = 7;
    for (let i = 0; i < src.length; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      src[i] = seed % 256;
    }
    for (const sigma of [0.8, 1, 2.5]) {
      const whole = gaussianBlur(src, width, height, sigma);
      const at = lazyGaussianBlur(src, width, height, sigma);
      const order = Array.from({ length: src.length }, (_, i) => (i * 389) % src.length);
      const lazy = new Float32Array(src.length);
      for (const i of order) lazy[i] = at(i);
      expect(lazy).toEqual(whole);
      expect(at(5)).toBe(whole[5]); // asked again: the kept value
    }
  });
});

describe('photo plan', () => {
  it('plans nothing for undamaged photos', async () => {
    for (const sample of ['photo_001', 'photo_004', 'photo_006']) {
      const clean = await crop(sample, 'clean.png', { left: 64, top: 64, width: 320, height: 256 });
      expect(planPhoto(clean, {}).steps.map((s) => s.name)).toEqual([]);
    }
  });

  it('plans deblocking for a JPEG, fade repair for a faded print and deblurring for defocus', async () => {
    const clean = await crop('photo_002', 'clean.png', { left: 40, top: 30, width: 360, height: 240 });
    expect(planPhoto(await jpegRoundTrip(clean, 12), {}).steps.map((s) => s.name)).toContain('denoise-dct');
    expect(planPhoto(faded(clean), {}).steps.map((s) => s.name)).toContain('restore-fade');
    const sharp7 = await crop(
      'photo_007',
      'clean.png',
      { left: 100, top: 100, width: 300, height: 300 },
      true,
    );
    expect(planPhoto(convolve(sharp7, gaussianTaps(1.4)), {}).steps.map((s) => s.name)).toEqual([
      'deblur-photo',
    ]);
    expect(planPhoto(convolve(sharp7, diskTaps(1.8)), {}).steps.map((s) => s.name)).toEqual([
      'deblur-defocus',
    ]);
  });

  it("plans a faded print's levels before its deblurring, where the self-check sees a wrong smear at full contrast", async () => {
    const clean = await crop('photo_002', 'clean.png', { left: 40, top: 30, width: 360, height: 240 });
    // Faded deeply: the contrast more than halved, the blacks lifted by a fifth.
    const old = faded(convolve(clean, diskTaps(1.8)), 0.45, 0.2);
    const names = planPhoto(old, {}).steps.map((s) => s.name);
    expect(names).toContain('deblur-defocus');
    expect(names.indexOf('restore-fade')).toBeGreaterThanOrEqual(0);
    expect(names.indexOf('restore-fade')).toBeLessThan(names.indexOf('deblur-defocus'));
    // A long smear deconvolved where there is none: on the faded print its ringing stays within the self-check's
    // limit (the print spans less than half of the levels), on the print with its levels restored it does not.
    const wrong = { angle: 70, length: 16.5, nsr: 0.01 };
    const deblur = steps.get('deblur-motion');
    expect(photoStepRejected(old, await deblur.run(old, wrong), deblur)).toBeUndefined();
    const restored = await steps.get('restore-fade').run(old, {});
    expect(photoStepRejected(restored, await deblur.run(restored, wrong), deblur)).toMatch(/self-check/);
  });
});
