// Grey and colour levels of a picture: thresholds, channel ranges, fade levels, colour beyond a cast. The
// measures of the plan and the steps that correct levels share them.
import type { RawImage } from '../image.js';
import { boxMean, histogram, percentile, type Grey } from './index.js';

/** Dark/light threshold between ink and paper (Otsu) of a grey image. */
export function otsuThreshold(grey: Grey): number {
  const hist = histogram(grey.data);
  const total = grey.data.length;
  let sum = 0;
  for (let v = 0; v < 256; v++) sum += v * hist[v]!;
  let sumB = 0;
  let wB = 0;
  let best = 0;
  let threshold = 128;
  for (let t = 0; t < 256; t++) {
    wB += hist[t]!;
    if (wB === 0) continue;
    const wF = total - wB;
    if (wF === 0) break;
    sumB += t * hist[t]!;
    const mB = sumB / wB;
    const mF = (sum - sumB) / wF;
    const between = wB * wF * (mB - mF) * (mB - mF);
    if (between > best) {
      best = between;
      threshold = t;
    }
  }
  return threshold;
}

/** Low/high percentiles per channel: how much a photo's range is lifted or compressed (fading, cast). */
export function channelRange(img: RawImage, lowP = 0.005, highP = 0.995): { low: number[]; high: number[] } {
  const low: number[] = [];
  const high: number[] = [];
  const channels = img.channels === 4 ? 3 : img.channels;
  for (let c = 0; c < channels; c++) {
    const hist = histogram(img.data, img.channels, c);
    const total = img.width * img.height;
    low.push(percentile(hist, total, lowP));
    high.push(percentile(hist, total, highP));
  }
  return { low, high };
}

export interface FadeLevels {
  /** Per channel: dark level (0.1 % of a lightly smoothed copy) and bright level (99.5 %). */
  low: number[];
  high: number[];
}

/** Black and white levels per channel on a copy smoothed by a 3×3 mean, so grain does not decide them. */
export function fadeLevels(img: RawImage): FadeLevels {
  const channels = img.channels === 4 ? 3 : img.channels;
  const low: number[] = [];
  const high: number[] = [];
  const plane = new Uint8Array(img.width * img.height);
  for (let c = 0; c < channels; c++) {
    for (let i = 0; i < plane.length; i++) plane[i] = img.data[i * img.channels + c]!;
    const smooth = boxMean(plane, img.width, img.height, 1);
    const hist = new Uint32Array(256);
    for (let i = 0; i < smooth.length; i++) hist[Math.round(smooth[i]!)]!++;
    low.push(percentile(hist, plane.length, 0.001));
    high.push(percentile(hist, plane.length, 0.995));
  }
  return { low, high };
}

/**
 * Colour of a photo beyond a colour cast: each channel is fitted as a + b · (channel mean) over the pixels; the
 * largest residual standard deviation. A monochrome print under any cast reads below ~0.5, colour prints 1.5
 * and more, even when faded.
 */
export function colourBeyondCast(img: RawImage): number {
  if (img.channels < 3) return 0;
  const { data, channels } = img;
  const n = img.width * img.height;
  const step = Math.max(1, Math.floor(n / 200_000));
  let worst = 0;
  for (let c = 0; c < 3; c++) {
    let k = 0;
    let sm = 0;
    let sv = 0;
    let smm = 0;
    let smv = 0;
    for (let i = 0; i < n; i += step, k++) {
      const p = i * channels;
      const m = (data[p]! + data[p + 1]! + data[p + 2]!) / 3;
      const v = data[p + c]!;
      sm += m;
      sv += v;
      smm += m * m;
      smv += m * v;
    }
    const varM = smm - (sm * sm) / k;
    const b = varM > 0 ? (smv - (sm * sv) / k) / varM : 0;
    const a = (sv - b * sm) / k;
    let s2 = 0;
    for (let i = 0; i < n; i += step) {
      const p = i * channels;
      const r = data[p + c]! - a - (b * (data[p]! + data[p + 1]! + data[p + 2]!)) / 3;
      s2 += r * r;
    }
    worst = Math.max(worst, Math.sqrt(s2 / k));
  }
  return worst;
}
