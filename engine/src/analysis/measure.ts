// Measurements taken before restoring, so that steps run only where damage is present.
import type { RawImage } from '../image.js';
import { boxMean, reduce, toGrey, type Grey } from '../pixels/index.js';
import { otsuThreshold } from '../pixels/levels.js';

/**
 * Gaussian noise sigma (grey levels), Immerkaer's Laplacian-difference estimate per 16×16 block; the 20th
 * percentile of the blocks keeps text edges and texture from counting as noise.
 */
export function estimateNoise(img: RawImage): number {
  const grey = toGrey(img, 'luma');
  const { data, width, height } = grey;
  const block = 16;
  const estimates: number[] = [];
  for (let by = 1; by + block < height - 1; by += block) {
    for (let bx = 1; bx + block < width - 1; bx += block) {
      let sum = 0;
      for (let y = by; y < by + block; y++) {
        for (let x = bx; x < bx + block; x++) {
          const i = y * width + x;
          const v =
            data[i - width - 1]! -
            2 * data[i - width]! +
            data[i - width + 1]! -
            2 * data[i - 1]! +
            4 * data[i]! -
            2 * data[i + 1]! +
            data[i + width - 1]! -
            2 * data[i + width]! +
            data[i + width + 1]!;
          sum += Math.abs(v);
        }
      }
      estimates.push((Math.sqrt(Math.PI / 2) * sum) / (6 * block * block));
    }
  }
  if (estimates.length === 0) return 0;
  estimates.sort((a, b) => a - b);
  return estimates[Math.floor(estimates.length * 0.2)]!;
}

/** Colour statistics: mean chroma and the share of clearly coloured pixels (on a reduced copy). */
export function colourStats(img: RawImage): { meanChroma: number; colourfulShare: number } {
  if (img.channels === 1) return { meanChroma: 0, colourfulShare: 0 };
  const step = Math.max(1, Math.floor(Math.sqrt((img.width * img.height) / 250_000)));
  let chromaSum = 0;
  let colourful = 0;
  let count = 0;
  for (let y = 0; y < img.height; y += step) {
    for (let x = 0; x < img.width; x += step) {
      const p = (y * img.width + x) * img.channels;
      const r = img.data[p]!;
      const g = img.data[p + 1]!;
      const b = img.data[p + 2]!;
      const chroma = Math.max(r, g, b) - Math.min(r, g, b);
      chromaSum += chroma;
      if (chroma > 60) colourful++;
      count++;
    }
  }
  return { meanChroma: chromaSum / count, colourfulShare: colourful / count };
}

/**
 * Share of the tinted pixels (opponent chroma of 15 or more) whose hue lies within the densest 60° window of hues:
 * mottled yellowing or a sepia stain is one hue in many strengths, a colour picture spreads over several hues.
 * 1 when nothing is tinted.
 */
export function oneHueShare(img: RawImage): number {
  if (img.channels === 1) return 1;
  const step = Math.max(1, Math.floor(Math.sqrt((img.width * img.height) / 250_000)));
  const bins = new Float64Array(36);
  let tinted = 0;
  for (let y = 0; y < img.height; y += step) {
    for (let x = 0; x < img.width; x += step) {
      const p = (y * img.width + x) * img.channels;
      const r = img.data[p]!;
      const g = img.data[p + 1]!;
      const b = img.data[p + 2]!;
      // Opponent axes: red-green and yellow-blue.
      const a = r - g;
      const yb = (r + g) / 2 - b;
      if (Math.hypot(a, yb) < 15) continue;
      const hue = (Math.atan2(yb, a) + Math.PI) / (2 * Math.PI);
      bins[Math.min(35, Math.floor(hue * 36))]!++;
      tinted++;
    }
  }
  if (tinted === 0) return 1;
  let best = 0;
  for (let start = 0; start < 36; start++) {
    let sum = 0;
    for (let k = 0; k < 6; k++) sum += bins[(start + k) % 36]!;
    best = Math.max(best, sum);
  }
  return best / tinted;
}

export interface PageFeatures {
  /** Share of pixels close to the local paper level (documents: most of the page). */
  paperShare: number;
  /** Share of pixels much darker than the local paper level (ink). */
  inkShare: number;
  /** Share of pixels in between: tones, which photos have plenty of and text pages little. */
  midtoneShare: number;
  meanChroma: number;
  colourfulShare: number;
}

/** Local-paper-relative tone shares on a copy reduced to about 100 DPI-equivalent detail. */
export function pageFeatures(img: RawImage): PageFeatures {
  const grey = toGrey(img, 'max');
  const factor = Math.max(1, Math.round(Math.max(grey.width, grey.height) / 1100));
  const small = reduce(grey.data, grey.width, grey.height, factor, 'mean');
  const bgFactor = 24;
  const bgSmall = reduce(small.data, small.width, small.height, bgFactor, 'max');
  let paper = 0;
  let ink = 0;
  let mid = 0;
  for (let y = 0; y < small.height; y++) {
    for (let x = 0; x < small.width; x++) {
      const bg = Math.max(
        1,
        bgSmall.data[
          Math.min(bgSmall.height - 1, Math.floor(y / bgFactor)) * bgSmall.width +
            Math.min(bgSmall.width - 1, Math.floor(x / bgFactor))
        ]!,
      );
      const ratio = small.data[y * small.width + x]! / bg;
      if (ratio > 0.85) paper++;
      else if (ratio < 0.5) ink++;
      else mid++;
    }
  }
  const n = small.width * small.height;
  return { paperShare: paper / n, inkShare: ink / n, midtoneShare: mid / n, ...colourStats(img) };
}

export type PageKind = 'document' | 'photo' | 'mixed';

/** Text pages are mostly paper (relative to a page-scale background); photos are mostly tones. */
export function classifyPage(f: PageFeatures): PageKind {
  if (f.paperShare >= 0.7 && f.colourfulShare < 0.6) return 'document';
  if (f.paperShare < 0.45) return 'photo';
  return 'mixed';
}

/** Skew of text lines in degrees (positive: lines rise to the right), by projection profile of dark pixels. */
export function estimateSkew(grey: Grey, maxAngle = 6): number {
  const threshold = Math.min(otsuThreshold(grey), 160);
  const xs: number[] = [];
  const ys: number[] = [];
  const step = Math.max(1, Math.floor(Math.sqrt((grey.width * grey.height) / 1_500_000)));
  for (let y = 0; y < grey.height; y += step) {
    for (let x = 0; x < grey.width; x += step) {
      if (grey.data[y * grey.width + x]! < threshold) {
        xs.push(x);
        ys.push(y);
      }
    }
  }
  if (xs.length < 200) return 0;
  // Keep the work bounded on dense pages.
  const stride = Math.max(1, Math.floor(xs.length / 80_000));
  const cx = grey.width / 2;
  const cy = grey.height / 2;
  const bins = new Float64Array(Math.ceil(Math.hypot(grey.width, grey.height)) + 4);
  const offset = bins.length / 2;
  const score = (deg: number): number => {
    bins.fill(0);
    const t = (deg * Math.PI) / 180;
    const s = Math.sin(t);
    const c = Math.cos(t);
    for (let i = 0; i < xs.length; i += stride) {
      const r = Math.round((ys[i]! - cy) * c + (xs[i]! - cx) * s + offset);
      bins[r]!++;
    }
    let sq = 0;
    for (let k = 0; k < bins.length; k++) sq += bins[k]! * bins[k]!;
    return sq;
  };
  let best = 0;
  let bestScore = score(0);
  for (let a = -maxAngle; a <= maxAngle + 1e-9; a += 0.25) {
    const v = score(a);
    if (v > bestScore * 1.0001) {
      bestScore = v;
      best = a;
    }
  }
  const coarse = best;
  for (let a = coarse - 0.25; a <= coarse + 0.25 + 1e-9; a += 0.05) {
    const v = score(a);
    if (v > bestScore) {
      bestScore = v;
      best = a;
    }
  }
  return Math.round(best * 100) / 100;
}

/**
 * Noise on the paper of a document page (grey levels): the spread of the residual after a light blur, in
 * 16×16 blocks that are neither saturated white nor black, 10th percentile (the flattest paper). Pages whose
 * paper is clipped white show no measurable noise and get 0. Unlike estimateNoise it also sees the correlated,
 * JPEG-smoothed noise of phone photos.
 */
export function estimatePaperNoise(grey: Grey): number {
  const { data, width, height } = grey;
  const blurred = boxMean(boxMean(data, width, height, 1), width, height, 1);
  const block = 16;
  const spreads: number[] = [];
  for (let by = 0; by + block <= height; by += block) {
    for (let bx = 0; bx + block <= width; bx += block) {
      let sum = 0;
      let max = 0;
      let r1 = 0;
      let r2 = 0;
      for (let y = by; y < by + block; y++) {
        for (let x = bx; x < bx + block; x++) {
          const i = y * width + x;
          const v = data[i]!;
          sum += v;
          if (v > max) max = v;
          const r = v - blurred[i]!;
          r1 += r;
          r2 += r * r;
        }
      }
      const n = block * block;
      if (sum / n <= 30 || max >= 250) continue;
      spreads.push(Math.sqrt(Math.max(0, r2 / n - (r1 / n) ** 2)));
    }
  }
  if (spreads.length < 20) return 0;
  spreads.sort((a, b) => a - b);
  return spreads[Math.floor(spreads.length * 0.1)]!;
}
