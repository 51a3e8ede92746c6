// Photo steps: colour images, conservative by design (the pipeline runs them only when a measurement says so).
import { createImage } from '../image.js';
import { channelRange } from '../pixels/levels.js';
import { applyLut } from '../pixels/index.js';
import { num, type Step } from './registry.js';

export const correctLevels: Step = {
  name: 'correct-levels',
  kind: 'photo',
  description:
    'Fading and colour-cast correction: stretches each channel between its 0.5 % and 99.5 % levels, with limited gain',
  run(img, params) {
    const { low, high } = channelRange(img);
    const maxGain = num(params, 'maxGain', 1.6);
    const luts: Uint8Array[] = [];
    for (let c = 0; c < img.channels; c++) {
      const lut = new Uint8Array(256);
      const lo = low[c] ?? 0;
      const hi = high[c] ?? 255;
      const gain = Math.min(maxGain, 255 / Math.max(1, hi - lo));
      // Centre the stretch on the channel's range so that a capped gain still removes the cast evenly.
      const mid = (lo + hi) / 2;
      for (let v = 0; v < 256; v++) lut[v] = Math.max(0, Math.min(255, Math.round(127.5 + (v - mid) * gain)));
      luts.push(c < 3 ? lut : Uint8Array.from({ length: 256 }, (_, v) => v));
    }
    return applyLut(img, (c) => luts[c]!);
  },
};

export const denoisePhoto: Step = {
  name: 'denoise-photo',
  kind: 'photo',
  description:
    'Bilateral filter (5×5) with a range sigma from the measured noise: grain and sensor noise, edges kept',
  run(img, params) {
    const sigma = Math.max(1, num(params, 'sigma', 8));
    const rangeK = -1 / (2 * (num(params, 'rangeFactor', 2.2) * sigma) ** 2);
    const spatial = num(params, 'spatialSigma', 1.3);
    const r = 2;
    const spatialW = new Float64Array((2 * r + 1) ** 2);
    for (let dy = -r; dy <= r; dy++)
      for (let dx = -r; dx <= r; dx++)
        spatialW[(dy + r) * (2 * r + 1) + dx + r] = Math.exp(-(dx * dx + dy * dy) / (2 * spatial * spatial));
    const rangeLut = new Float64Array(256 * 256 * 3 + 1);
    for (let d = 0; d < rangeLut.length; d++) rangeLut[d] = Math.exp(d * rangeK);
    const { width, height, channels, data } = img;
    const out = createImage(width, height, channels);
    const acc = new Float64Array(channels);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const p = (y * width + x) * channels;
        acc.fill(0);
        let wsum = 0;
        for (let dy = -r; dy <= r; dy++) {
          const ny = Math.min(height - 1, Math.max(0, y + dy));
          for (let dx = -r; dx <= r; dx++) {
            const nx = Math.min(width - 1, Math.max(0, x + dx));
            const q = (ny * width + nx) * channels;
            let d2 = 0;
            for (let c = 0; c < channels; c++) {
              const d = data[q + c]! - data[p + c]!;
              d2 += d * d;
            }
            const w =
              spatialW[(dy + r) * (2 * r + 1) + dx + r]! *
              rangeLut[Math.min(rangeLut.length - 1, Math.round(d2 / channels))]!;
            wsum += w;
            for (let c = 0; c < channels; c++) acc[c]! += w * data[q + c]!;
          }
        }
        for (let c = 0; c < channels; c++) out.data[p + c] = Math.round(acc[c]! / wsum);
      }
    }
    return out;
  },
};

/** Median of the 5×5 neighbourhood of one channel value (insertion sort on 25 values). */
function median25(
  data: Uint8Array,
  width: number,
  height: number,
  channels: number,
  x: number,
  y: number,
  c: number,
  buf: Uint8Array,
): number {
  let n = 0;
  for (let dy = -2; dy <= 2; dy++) {
    const ny = Math.min(height - 1, Math.max(0, y + dy));
    for (let dx = -2; dx <= 2; dx++) {
      const nx = Math.min(width - 1, Math.max(0, x + dx));
      const v = data[(ny * width + nx) * channels + c]!;
      let k = n++;
      while (k > 0 && buf[k - 1]! > v) {
        buf[k] = buf[k - 1]!;
        k--;
      }
      buf[k] = v;
    }
  }
  return buf[12]!;
}

export const removeDust: Step = {
  name: 'remove-dust',
  kind: 'photo',
  description:
    'Dust, hairs and thin scratches: pixels far from their 5×5 median (all channels alike) take the median; optionally only pixels outside a luma band',
  run(img, params) {
    const { width, height, channels, data } = img;
    const limit = num(params, 'threshold', 45);
    // Optional luma band that real picture content stays inside (a faded print's black and white levels): only
    // pixels above `above` or below `below` are candidates. Defaults keep every pixel a candidate.
    const above = num(params, 'above', -1);
    const below = num(params, 'below', 256);
    const out = createImage(width, height, channels);
    out.data.set(data);
    const buf = new Uint8Array(25);
    const lumaOf = (p: number) =>
      channels >= 3 ? (data[p]! * 3 + data[p + 1]! * 6 + data[p + 2]!) / 10 : data[p]!;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const p = (y * width + x) * channels;
        const own = lumaOf(p);
        if (own <= above && own >= below) continue;
        // Cheap pre-check against the 3×3 mean so the median runs only on candidates.
        let mean = 0;
        for (let dy = -1; dy <= 1; dy++)
          for (let dx = -1; dx <= 1; dx++)
            mean += lumaOf(
              (Math.min(height - 1, Math.max(0, y + dy)) * width + Math.min(width - 1, Math.max(0, x + dx))) *
                channels,
            );
        mean /= 9;
        if (Math.abs(lumaOf(p) - mean) < limit / 3) continue;
        const meds: number[] = [];
        for (let c = 0; c < Math.min(3, channels); c++)
          meds.push(median25(data, width, height, channels, x, y, c, buf));
        const medLuma = channels >= 3 ? (meds[0]! * 3 + meds[1]! * 6 + meds[2]!) / 10 : meds[0]!;
        if (Math.abs(lumaOf(p) - medLuma) > limit)
          for (let c = 0; c < meds.length; c++) out.data[p + c] = meds[c]!;
      }
    }
    return out;
  },
};

export const photoSteps: Step[] = [correctLevels, denoisePhoto, removeDust];
