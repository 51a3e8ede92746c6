// Measurements taken before restoring, so that steps run only where damage is present.
import type { RawImage } from '../image.js';
import { boxMean, reduce, toGrey, type Grey } from '../pixels/index.js';
import { glyphBlobs } from '../pixels/text-lines.js';
import { inkMask } from '../pixels/ink.js';
import { hasOtherInk, labelComponents } from '../pixels/components.js';

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

/** From this share of paper (pageFeatures) on, a page is mostly plain paper: text pages are, pictures rarely. */
export const PAPER_PAGE_SHARE = 0.7;

/** Text pages are mostly paper (relative to a page-scale background); photos are mostly tones. */
export function classifyPage(f: PageFeatures): PageKind {
  if (f.paperShare >= PAPER_PAGE_SHARE && f.colourfulShare < 0.6) return 'document';
  if (f.paperShare < 0.45) return 'photo';
  return 'mixed';
}

/** Vertical strips the skew's projection is scored in, so that two columns' lines need not line up. */
const SKEW_STRIPS = 4;
/** Height in work pixels (about 150 DPI) of a row of the skew's projection, and its smoothing (σ 1.5 pixels). */
const SKEW_BIN = 0.5;
/**
 * A projection's peak is clear from this sharpness on (best score against the mean over every angle). On the 108 pages
 * above, every page at or above it was measured within 0.15° of its skew as it is; the five measured 0.15–4.3° off
 * were all below 1.04. Smoothing costs a second search of glyphs (about 100 ms a page at 150 DPI), spent only below it.
 */
const CLEAR_PEAK = 1.25;
const SKEW_TAPS = Array.from({ length: 19 }, (_, j) => Math.exp(-((j - 9) ** 2) / (2 * 3 ** 2)));

/**
 * Skew of text lines in degrees (positive: lines rise to the right): the angle at which the bottoms of the page's
 * glyph blobs (`glyphBlobs`: the ink of the flattened page, character-sized) pile up in the fewest rows, scored in
 * four vertical strips. Why blobs, not dark pixels: scanner borders, stains and rules outweighed the text in a
 * pixel projection (skews of 1.3–2.3° read as 0), and why strips: over a whole two-column page the lines of one
 * column line up with the other's at a false angle (unskewed pages read as 0.7–0.95°).
 */
export function estimateSkew(img: RawImage, dpi = 150, maxAngle = 6): number {
  // Sensor noise breaks the glyphs' edges into specks whose bottoms lie anywhere, and the projection of a phone photo
  // then has no clear peak (phone5 profile seed 5502 doc_010: 4.3° found on an upright page, sharpness 1.01); lightly
  // smoothed, the specks merge back into their glyphs (0.15°, sharpness 1.62). Smoothing also pales faint ink below
  // the ink depth (crease5 seed 5503 doc_022, faded: 1.3° as it is, too few blobs smoothed), so where the page as it is
  // has no clear peak it is measured smoothed too, and the sharper projection decides. On 108 pages (public set, dev5,
  // crease5, phone5) no angle moved more than 0.1° away from the truth, and five moved 0.15–4.15° towards it.
  const grey = toGrey(img, 'max');
  const asIs = skewProjection(grey, dpi, maxAngle);
  if (asIs.sharpness >= CLEAR_PEAK) return asIs.angle;
  const smoothed = skewProjection(smoothedLightly(grey), dpi, maxAngle);
  return (smoothed.sharpness > asIs.sharpness ? smoothed : asIs).angle;
}

/** A grey page under a 5×5 tent (a 3×3 box mean twice). */
function smoothedLightly(grey: Grey): Grey {
  const { width, height } = grey;
  const twice = boxMean(boxMean(grey.data, width, height, 1), width, height, 1);
  const data = new Uint8Array(twice.length);
  for (let i = 0; i < twice.length; i++) data[i] = Math.round(twice[i]!);
  return { data, width, height, channels: 1 };
}

/**
 * The skew's best angle, and how sharp its projection's peak is: the best score against the mean over every angle
 * tried (about 1 where the blobs' bottoms line up at no angle; 0 where there are too few blobs to tell).
 */
function skewProjection(img: RawImage, dpi: number, maxAngle: number): { angle: number; sharpness: number } {
  const { blobs, width, height } = glyphBlobs(img, dpi);
  if (blobs.length < 30) return { angle: 0, sharpness: 0 };
  const xs = new Float64Array(blobs.length);
  const ys = new Float64Array(blobs.length);
  const strips = new Int32Array(blobs.length);
  blobs.forEach((b, i) => {
    xs[i] = (b.x0 + b.x1) / 2 - width / 2;
    ys[i] = b.y1 - height / 2;
    strips[i] = Math.min(SKEW_STRIPS - 1, Math.floor(((b.x0 + b.x1) / 2 / width) * SKEW_STRIPS));
  });
  // The bottoms' profile on half-pixel rows, each bottom shared linearly between its two nearest rows, smoothed by
  // a Gaussian of 1.5 pixels before it is scored: with one-pixel rows an enlarged low-resolution scan, whose
  // bottoms all lie on multiples of its factor, scored best at 0°, and a clean page's best angle wandered by
  // where its baselines fell between rows.
  const span = Math.ceil(Math.hypot(width, height) / SKEW_BIN) + 2 * SKEW_TAPS.length + 4;
  const bins = new Float64Array(span * SKEW_STRIPS);
  const half = (SKEW_TAPS.length - 1) / 2;
  const score = (deg: number): number => {
    bins.fill(0);
    const t = (deg * Math.PI) / 180;
    const s = Math.sin(t);
    const c = Math.cos(t);
    for (let i = 0; i < xs.length; i++) {
      const r = (ys[i]! * c + xs[i]! * s) / SKEW_BIN + span / 2;
      const k = strips[i]! * span + Math.floor(r);
      const f = r - Math.floor(r);
      bins[k] = bins[k]! + 1 - f;
      bins[k + 1] = bins[k + 1]! + f;
    }
    let sq = 0;
    for (let k = half; k < bins.length - half; k++) {
      let v = 0;
      for (let j = 0; j < SKEW_TAPS.length; j++) v += bins[k - half + j]! * SKEW_TAPS[j]!;
      sq += v * v;
    }
    return sq;
  };
  let best = 0;
  let bestScore = score(0);
  let sum = 0;
  let n = 0;
  for (let a = -maxAngle; a <= maxAngle + 1e-9; a += 0.25) {
    const v = score(a);
    sum += v;
    n++;
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
  return { angle: Math.round(best * 100) / 100, sharpness: bestScore / (sum / n) };
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

/**
 * Lone dots per glyph: ink components no larger than a full stop (at most 5 × 5 pixels and 12 pixels at 150 DPI)
 * with no other ink within 3 pixels, against components the size of a letter.
 */
export function dotsPerGlyph(img: RawImage, dpi: number): number {
  const grey = toGrey(img, 'max');
  const s = dpi / 150;
  const { width, height } = grey;
  const { areas, boxes, count, labels } = labelComponents(inkMask(grey, dpi), width, height);
  const gap = Math.max(1, Math.round(3 * s));
  let dots = 0;
  let glyphs = 0;
  for (let id = 0; id < count; id++) {
    const b = boxes[id]!;
    const w = b.x1 - b.x0 + 1;
    const h = b.y1 - b.y0 + 1;
    if (areas[id]! <= 12 * s * s && w <= 5 * s && h <= 5 * s) {
      if (!hasOtherInk(labels, id, b, gap, width, height)) dots++;
    } else if (areas[id]! > 30 * s * s || h >= 8 * s) glyphs++;
  }
  return dots / Math.max(1, glyphs);
}
