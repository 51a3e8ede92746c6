// Photo measurements: each one looks for the signature of one damage, so that the photo plan runs a step only
// where its damage is present. All work on luma (or on each channel for levels) and take well under 100 ms per MP.
import type { RawImage } from '../image.js';
import { fft2 } from '../pixels/fft.js';
import { labelComponents } from '../pixels/components.js';
import { boxMean, medianFilter, rankFilter, toGrey } from '../pixels/index.js';
import { diskKernel, kernelTransfer, sobel } from '../pixels/kernels.js';

/**
 * JPEG blocking: mean absolute step between horizontally and vertically neighbouring pixels across the 8 px grid
 * divided by the same inside the blocks. About 1.0 for a photo without blocking, 1.3 and more for strong JPEG.
 */
export function blockiness(img: RawImage): number {
  const { data, width, height } = toGrey(img, 'luma');
  let atGrid = 0;
  let nGrid = 0;
  let inside = 0;
  let nInside = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x + 1 < width; x++) {
      const d = Math.abs(data[y * width + x + 1]! - data[y * width + x]!);
      if (x % 8 === 7) {
        atGrid += d;
        nGrid++;
      } else {
        inside += d;
        nInside++;
      }
    }
  }
  for (let y = 0; y + 1 < height; y++) {
    const onGrid = y % 8 === 7;
    for (let x = 0; x < width; x++) {
      const d = Math.abs(data[(y + 1) * width + x]! - data[y * width + x]!);
      if (onGrid) {
        atGrid += d;
        nGrid++;
      } else {
        inside += d;
        nInside++;
      }
    }
  }
  if (nGrid === 0 || inside === 0) return 1;
  return atGrid / nGrid / (inside / nInside);
}

/**
 * Grain / sensor noise sigma in grey levels, also for spatially correlated grain (which a Laplacian estimate
 * misses): the standard deviation of luma minus its 3×3 mean, per 8×8 block, taken at the 5th percentile of
 * the blocks so that edges and texture do not count (small blocks find the few smooth patches of a textured
 * photo). Scaled so that white noise of sigma s reads about s.
 */
export function grainNoise(img: RawImage, block = 8, share = 0.05): number {
  const grey = toGrey(img, 'luma');
  const { data, width, height } = grey;
  const mean = boxMean(data, width, height, 1);
  const estimates: number[] = [];
  for (let by = 1; by + block < height - 1; by += block) {
    for (let bx = 1; bx + block < width - 1; bx += block) {
      let s2 = 0;
      let lo = 255;
      let hi = 0;
      for (let y = by; y < by + block; y++) {
        for (let x = bx; x < bx + block; x++) {
          const i = y * width + x;
          const v = data[i]!;
          const r = v - mean[i]!;
          s2 += r * r;
          if (v < lo) lo = v;
          if (v > hi) hi = v;
        }
      }
      // Clipped blocks (pure black or white) hide noise.
      if (lo <= 2 || hi >= 253) continue;
      estimates.push(Math.sqrt(s2 / (block * block)) / Math.sqrt(8 / 9));
    }
  }
  if (estimates.length === 0) return 0;
  estimates.sort((a, b) => a - b);
  return estimates[Math.floor(estimates.length * share)]!;
}

/**
 * Edge blur as a Gaussian sigma in pixels (reblur ratio): at strong gradient maxima, the gradient of the image
 * over that of a copy blurred by s0 is sqrt(σ² + s0²) / σ for an edge of blur σ. Median over the edges. Sharp
 * photos read about 0.5–0.8, defocused or upscaled ones 1 and more.
 */
export function edgeBlur(img: RawImage): number {
  const grey = toGrey(img, 'luma');
  const { width, height } = grey;
  if (width < 16 || height < 16) return 0;
  const src = Float32Array.from(grey.data);
  const s0 = 1;
  const blurred = lazyGaussianBlur(src, width, height, s0);
  const g0 = gradientMagnitude(src, width, height);
  const threshold = Math.max(8, quantile(g0, 0.97));
  const sigmas: number[] = [];
  for (let y = 2; y < height - 2; y++) {
    for (let x = 2; x < width - 2; x++) {
      const i = y * width + x;
      const g = g0[i]!;
      if (g <= threshold) continue;
      let isMax = true;
      for (let dy = -1; dy <= 1 && isMax; dy++)
        for (let dx = -1; dx <= 1; dx++)
          if (g0[i + dy * width + dx]! > g) {
            isMax = false;
            break;
          }
      if (!isMax) continue;
      // The blurred copy's gradient is needed at these few maxima only.
      const r = Math.max(1.0001, g / Math.max(1e-6, Math.fround(sobelOf(blurred, width, i))));
      sigmas.push(s0 / Math.sqrt(r * r - 1));
    }
  }
  if (sigmas.length < 50) return 0;
  sigmas.sort((a, b) => a - b);
  return sigmas[Math.floor(sigmas.length / 2)]!;
}

/**
 * Pixel duplication: the share of columns equal to the column before them, pixel for pixel in every channel, and
 * the same for rows; the smaller of the two. A small picture enlarged by repeating pixels (nearest neighbour) by a
 * factor f repeats 1 − 1/f of its columns and rows (0.5 at 2×); a photo repeats none. It sees the exact 2× and 4×
 * enlargements that `enlargement` cannot tell from JPEG's 8 px grid.
 */
export function duplicatedLines(img: RawImage): number {
  const { data, width, height, channels } = img;
  if (width < 2 || height < 2) return 0;
  const stride = width * channels;
  let sameRows = 0;
  for (let y = 1; y < height; y++) {
    const a = (y - 1) * stride;
    const b = y * stride;
    let same = true;
    for (let i = 0; i < stride; i++)
      if (data[a + i] !== data[b + i]) {
        same = false;
        break;
      }
    if (same) sameRows++;
  }
  let sameColumns = 0;
  for (let x = 1; x < width; x++) {
    let same = true;
    for (let y = 0; y < height && same; y++) {
      const p = y * stride + x * channels;
      for (let c = 0; c < channels; c++)
        if (data[p + c] !== data[p - channels + c]) {
          same = false;
          break;
        }
    }
    if (same) sameColumns++;
  }
  return Math.min(sameRows / (height - 1), sameColumns / (width - 1));
}

/**
 * Dust and scratches: isolated small specks per megapixel. A speck is a blob of at most 30 pixels whose luma lies
 * more than 45 grey levels above the brightest (or below the darkest) value of the 5×5-median picture around it:
 * something finer than the median keeps that stands out of everything near it. Picture texture (railings, foliage,
 * JPEG's ringing, grain) makes such blobs in crowds, so a blob counts only where such pixels cover under 5 % of the
 * 21×21 square around it. Dev photos (seeds 5301–5304; not faded, JPEG or grainy): dust and scratches 1,000–3,150,
 * blurred or enlarged photos at most 88; but sharp photos without dust count their own glints, stars and fine
 * detail too (the benchmark's clean sources 89–2,490), so the count alone does not prove dust.
 */
export function specks(img: RawImage): number {
  const { data, width, height } = toGrey(img, 'luma');
  const median = medianFilter(data, width, height, 2);
  const high = rankFilter(median, width, height, 2, true);
  const low = rankFilter(median, width, height, 2, false);
  const mask = new Uint8Array(data.length);
  for (let i = 0; i < data.length; i++)
    mask[i] = data[i]! > high[i]! + SPECK_CONTRAST || data[i]! < low[i]! - SPECK_CONTRAST ? 1 : 0;
  const crowd = boxMean(mask, width, height, 10);
  const { count, labels, areas } = labelComponents(mask, width, height);
  const crowdSum = new Float64Array(count);
  for (let i = 0; i < labels.length; i++) if (labels[i]! >= 0) crowdSum[labels[i]!]! += crowd[i]!;
  let isolated = 0;
  for (let k = 0; k < count; k++) if (areas[k]! <= 30 && crowdSum[k]! / areas[k]! < 0.05) isolated++;
  return (isolated * 1e6) / (width * height);
}

/** Grey levels a speck stands out of the median picture around it. */
const SPECK_CONTRAST = 45;

/** Mean absolute step between each column and the next (luma), detrended by a 9-column mean, Hann-windowed. */
function columnSteps(data: Uint8Array, width: number, height: number, transpose: boolean): Float64Array {
  const [cols, rows] = transpose ? [height, width] : [width, height];
  const at = (c: number, r: number) => (transpose ? data[c * width + r]! : data[r * width + c]!);
  const steps = new Float64Array(cols - 1);
  for (let c = 0; c + 1 < cols; c++) {
    let sum = 0;
    for (let r = 0; r < rows; r++) sum += Math.abs(at(c + 1, r) - at(c, r));
    steps[c] = sum / rows;
  }
  // Eight columns at each end are left out: the 9-column mean needs four of them, and a frame or padding at the
  // border would add steps of its own.
  const n = steps.length - 16;
  const out = new Float64Array(Math.max(0, n));
  for (let i = 0; i < n; i++) {
    let mean = 0;
    for (let k = -4; k <= 4; k++) mean += steps[i + 8 + k]!;
    const hann = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (n - 1));
    out[i] = (steps[i + 8]! - mean / 9) * hann;
  }
  return out;
}

/**
 * Enlargement: a small picture enlarged by a factor f (by any interpolation) leaves a period of f pixels in how much
 * neighbouring columns differ, the same for rows; a photo has no such period. The strength is the spectrum's highest
 * peak between periods of 1.5 and 4.8 pixels (JPEG's 8 px harmonics excluded) over the spectrum's median, the
 * weaker of columns and rows; the period is where the column peak lies. Photos read 1–4.5, enlarged ones 3–50.
 */
export function enlargement(img: RawImage): { strength: number; period: number } {
  const { data, width, height } = toGrey(img, 'luma');
  if (width < 64 || height < 64) return { strength: 0, period: 0 };
  const found = [false, true].map((transpose) => {
    const d = columnSteps(data, width, height, transpose);
    const n = d.length;
    const magnitudes: number[] = [];
    let peak = 0;
    let period = 0;
    for (let k = 1; k <= n / 2; k++) {
      const f = k / n;
      let re = 0;
      let im = 0;
      for (let i = 0; i < n; i++) {
        re += d[i]! * Math.cos(2 * Math.PI * f * i);
        im -= d[i]! * Math.sin(2 * Math.PI * f * i);
      }
      const m = Math.hypot(re, im);
      if (f > 0.05) magnitudes.push(m);
      const jpegHarmonic = [1, 2, 3, 4].some((h) => Math.abs(f - h / 8) <= 0.006);
      if (f > 1 / 4.8 && f < 1 / 1.5 && !jpegHarmonic && m > peak) {
        peak = m;
        period = 1 / f;
      }
    }
    magnitudes.sort((a, b) => a - b);
    const median = magnitudes[Math.floor(magnitudes.length / 2)] ?? 0;
    return { strength: median > 0 ? peak / median : 0, period };
  });
  return { strength: Math.min(found[0]!.strength, found[1]!.strength), period: found[0]!.period };
}

/**
 * The value at rank floor(n·q) of the sorted values, exactly, without sorting them all: a histogram finds the
 * bin that holds that rank, and only that bin's values are sorted.
 */
export function quantile(values: Float32Array, q: number): number {
  const n = values.length;
  const rank = Math.min(n - 1, Math.floor(n * q));
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (!(max > min)) return min;
  const bins = 4096;
  const scale = (bins - 1) / (max - min);
  const counts = new Uint32Array(bins);
  for (let i = 0; i < n; i++) counts[Math.floor((values[i]! - min) * scale)]!++;
  let bin = 0;
  let below = 0;
  while (below + counts[bin]! <= rank) below += counts[bin++]!;
  const inBin = new Float32Array(counts[bin]!);
  let k = 0;
  for (let i = 0; i < n; i++) if (Math.floor((values[i]! - min) * scale) === bin) inBin[k++] = values[i]!;
  inBin.sort();
  return inBin[rank - below]!;
}

/** The normalised taps of a Gaussian of `sigma`, 2r + 1 of them with r = ceil(3 sigma) (at least 1). */
function gaussianTaps(sigma: number): Float32Array {
  const r = Math.max(1, Math.ceil(sigma * 3));
  const k = new Float32Array(2 * r + 1);
  let sum = 0;
  for (let i = -r; i <= r; i++) sum += k[i + r] = Math.exp(-(i * i) / (2 * sigma * sigma));
  for (let i = 0; i < k.length; i++) k[i]! /= sum;
  return k;
}

/** Separable Gaussian blur of a float plane (clamped borders). */
export function gaussianBlur(src: Float32Array, width: number, height: number, sigma: number): Float32Array {
  const k = gaussianTaps(sigma);
  const r = (k.length - 1) / 2;
  const tmp = new Float32Array(src.length);
  const out = new Float32Array(src.length);
  // Pixels within r of an edge clamp their taps; the others (nearly all) skip the clamping.
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      let acc = 0;
      if (x >= r && x < width - r) {
        for (let i = -r; i <= r; i++) acc += k[i + r]! * src[row + x + i]!;
      } else {
        for (let i = -r; i <= r; i++) acc += k[i + r]! * src[row + Math.min(width - 1, Math.max(0, x + i))]!;
      }
      tmp[row + x] = acc;
    }
  }
  for (let y = 0; y < height; y++) {
    const inside = y >= r && y < height - r;
    for (let x = 0; x < width; x++) {
      let acc = 0;
      if (inside) {
        for (let i = -r; i <= r; i++) acc += k[i + r]! * tmp[(y + i) * width + x]!;
      } else {
        for (let i = -r; i <= r; i++)
          acc += k[i + r]! * tmp[Math.min(height - 1, Math.max(0, y + i)) * width + x]!;
      }
      out[y * width + x] = acc;
    }
  }
  return out;
}

/**
 * gaussianBlur's value at one pixel, computed when first asked for (and kept): the same taps summed in the same
 * order and rounded to 32 bits at the same two places, so every value equals the whole image's. For measures that
 * need the blurred copy near a few pixels only.
 */
export function lazyGaussianBlur(
  src: Float32Array,
  width: number,
  height: number,
  sigma: number,
): (i: number) => number {
  const k = gaussianTaps(sigma);
  const r = (k.length - 1) / 2;
  const tmp = new Float32Array(src.length);
  const tmpDone = new Uint8Array(src.length);
  const out = new Float32Array(src.length);
  const outDone = new Uint8Array(src.length);
  const horizontal = (j: number): number => {
    if (tmpDone[j]) return tmp[j]!;
    const x = j % width;
    const row = j - x;
    let acc = 0;
    if (x >= r && x < width - r) {
      for (let i = -r; i <= r; i++) acc += k[i + r]! * src[row + x + i]!;
    } else {
      for (let i = -r; i <= r; i++) acc += k[i + r]! * src[row + Math.min(width - 1, Math.max(0, x + i))]!;
    }
    tmpDone[j] = 1;
    tmp[j] = acc; // rounded to 32 bits as it is stored, as in gaussianBlur
    return tmp[j];
  };
  return (j: number): number => {
    if (outDone[j]) return out[j]!;
    const x = j % width;
    const y = (j - x) / width;
    let acc = 0;
    if (y >= r && y < height - r) {
      for (let i = -r; i <= r; i++) acc += k[i + r]! * horizontal((y + i) * width + x);
    } else {
      for (let i = -r; i <= r; i++)
        acc += k[i + r]! * horizontal(Math.min(height - 1, Math.max(0, y + i)) * width + x);
    }
    outDone[j] = 1;
    out[j] = acc;
    return out[j];
  };
}

/** sobel over values given one by one (a lazily blurred copy); the same sums in the same order. */
function sobelOf(value: (j: number) => number, width: number, i: number): number {
  const gx =
    value(i - width + 1) +
    2 * value(i + 1) +
    value(i + width + 1) -
    value(i - width - 1) -
    2 * value(i - 1) -
    value(i + width - 1);
  const gy =
    value(i + width - 1) +
    2 * value(i + width) +
    value(i + width + 1) -
    value(i - width - 1) -
    2 * value(i - width) -
    value(i - width + 1);
  return Math.sqrt(gx * gx + gy * gy);
}

function gradientMagnitude(src: Float32Array, width: number, height: number): Float32Array {
  const out = new Float32Array(src.length);
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) out[y * width + x] = sobel(src, width, y * width + x);
  }
  return out;
}

export interface MotionEstimate {
  /** Direction of the smear in degrees (0 = horizontal, 90 = vertical, image y down). */
  angle: number;
  /** Smear length in pixels (0 when no zero crossing was found). */
  length: number;
  /** Directional anisotropy of fine gradients over that of gradients at 1/4 scale: below ~0.7 only for a smear. */
  score: number;
}

function directionalEnergy(src: Float32Array, width: number, height: number, angles: number[]): number[] {
  // Σ (gx·cos θ + gy·sin θ)² = cos²θ·Σgx² + 2·sin θ·cos θ·Σgx·gy + sin²θ·Σgy² (structure tensor sums).
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const gx = (src[i + 1]! - src[i - 1]!) / 2;
      const gy = (src[i + width]! - src[i - width]!) / 2;
      sxx += gx * gx;
      sxy += gx * gy;
      syy += gy * gy;
    }
  }
  return angles.map((a) => {
    const c = Math.cos((a * Math.PI) / 180);
    const s = Math.sin((a * Math.PI) / 180);
    return c * c * sxx + 2 * s * c * sxy + s * s * syy;
  });
}

/**
 * Linear motion blur: the direction where fine gradients lose the most energy compared with the same direction
 * at 1/4 scale (natural anisotropy, like stripes or stairs, is the same at both scales; a smear is not), and
 * the length as the first zero crossing of the autocorrelation of the derivative along that direction
 * (a box smear of length L turns the derivative into two copies L apart with opposite signs). The score (how
 * strongly the weakest direction of fine gradients stands out) gates the deblurring; the angle is where the
 * fine-to-coarse energy ratio is lowest, so a picture's own strong edges do not pull it: on 152 dev photos (seeds
 * 5101-5105) the weakest fine direction alone missed the smear by up to 14° on the astronaut photos.
 */
export function estimateMotion(img: RawImage): MotionEstimate {
  const grey = toGrey(img, 'luma');
  const { width, height } = grey;
  if (width < 64 || height < 64) return { angle: 0, length: 0, score: 1 };
  const angles = Array.from({ length: 60 }, (_, k) => k * 3);
  const fine = Float32Array.from(grey.data);
  const ef = directionalEnergy(fine, width, height, angles);
  const sw = Math.floor(width / 4);
  const sh = Math.floor(height / 4);
  const small = new Float32Array(sw * sh);
  for (let y = 0; y < sh; y++)
    for (let x = 0; x < sw; x++) {
      let s = 0;
      for (let dy = 0; dy < 4; dy++)
        for (let dx = 0; dx < 4; dx++) s += fine[(y * 4 + dy) * width + x * 4 + dx]!;
      small[y * sw + x] = s / 16;
    }
  const ec = directionalEnergy(small, sw, sh, angles);
  let weakest = 0;
  for (let i = 1; i < angles.length; i++) if (ef[i]! < ef[weakest]!) weakest = i;
  const perp = (weakest + 30) % 60;
  const score =
    ef[weakest]! / Math.max(1e-9, ef[perp]!) / Math.max(1e-9, ec[weakest]! / Math.max(1e-9, ec[perp]!));
  const ratio = (f: number, c: number) => f / Math.max(1e-9, c);
  let k = 0;
  for (let i = 1; i < angles.length; i++) if (ratio(ef[i]!, ec[i]!) < ratio(ef[k]!, ec[k]!)) k = i;
  // Refine to 1°.
  const near = [-2, -1, 1, 2].map((o) => (angles[k]! + o + 180) % 180);
  const en = directionalEnergy(fine, width, height, near);
  const enCoarse = directionalEnergy(small, sw, sh, near);
  let angle = angles[k]!;
  let best = ratio(ef[k]!, ec[k]!);
  near.forEach((a, i) => {
    const r = ratio(en[i]!, enCoarse[i]!);
    if (r < best) {
      best = r;
      angle = a;
    }
  });
  // Derivative along the smear and its autocorrelation at lags 1..20 (bilinear shifts).
  const ca = Math.cos((angle * Math.PI) / 180);
  const sa = Math.sin((angle * Math.PI) / 180);
  const d = new Float32Array(width * height);
  for (let y = 1; y < height - 1; y++)
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      d[i] = ((fine[i + 1]! - fine[i - 1]!) / 2) * ca + ((fine[i + width]! - fine[i - width]!) / 2) * sa;
    }
  const m = 24;
  const sample = (fx: number, fy: number) => {
    const x0 = Math.floor(fx);
    const y0 = Math.floor(fy);
    const tx = fx - x0;
    const ty = fy - y0;
    const i = y0 * width + x0;
    return (
      (d[i]! * (1 - tx) + d[i + 1]! * tx) * (1 - ty) +
      (d[i + width]! * (1 - tx) + d[i + width + 1]! * tx) * ty
    );
  };
  let v0 = 0;
  for (let y = m; y < height - m; y += 2) for (let x = m; x < width - m; x += 2) v0 += d[y * width + x]! ** 2;
  let prev = 1;
  let length = 0;
  for (let lag = 1; lag <= 20; lag++) {
    let s = 0;
    for (let y = m; y < height - m; y += 2)
      for (let x = m; x < width - m; x += 2) s += d[y * width + x]! * sample(x + lag * ca, y + lag * sa);
    const ac = s / Math.max(1e-9, v0);
    if (ac <= 0) {
      length = lag - 1 + prev / (prev - ac);
      break;
    }
    prev = ac;
  }
  return { angle, length, score };
}

/** Radius of the pillbox whose transfer function (mean over a ring) first reaches zero at radial frequency f0. */
export function diskRadiusForZero(f0: number): number {
  let prev = 0;
  for (let r = 0.8; r <= 6; r += 0.01) {
    const h = kernelTransfer(diskKernel(r));
    let mean = 0;
    for (let k = 0; k < 16; k++) {
      const a = (k * Math.PI) / 32;
      mean += h(f0 * Math.cos(a), f0 * Math.sin(a)) / 16;
    }
    if (mean <= 0) return prev > 0 ? r - 0.01 + (0.01 * prev) / (prev - mean) : r;
    prev = mean;
  }
  return 0;
}

export interface DefocusEstimate {
  /** Pillbox radius in pixels (0 when no ring was found). */
  radius: number;
  /** Depth of the spectral ring: rise of the log10 power after its minimum (0 when none). */
  depth: number;
  /** Radial frequency of the ring, cycles per pixel. */
  f0: number;
}

/**
 * Defocus as a pillbox: its transfer function has a zero on a ring (first zero at about 0.61 / r cycles per
 * pixel), which shows as a dark ring in the power spectrum of the photo (Welch average of 64×64 Hann-windowed
 * tiles of luma). The ring must be round: the radial profile near the axes and near the diagonals both dip at
 * the same radius (the zeros of a separable kernel, e.g. an upscaler's, lie on a square and dip √2 apart).
 */
export function estimateDefocus(img: RawImage): DefocusEstimate {
  const none = { radius: 0, depth: 0, f0: 0 };
  const grey = toGrey(img, 'luma');
  const { data, width, height } = grey;
  const T = 64;
  if (width < 2 * T || height < 2 * T) return none;
  const hann = Float64Array.from(
    { length: T },
    (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * (i + 0.5)) / T),
  );
  const power = new Float64Array(T * T);
  const re = new Float64Array(T * T);
  const im = new Float64Array(T * T);
  // Tiles overlap by half on small photos; above 0.5 MP every tile stands alone (enough of them, half the work).
  const step = width * height > 500_000 ? T : T / 2;
  for (let by = 0; by + T <= height; by += step) {
    for (let bx = 0; bx + T <= width; bx += step) {
      let mean = 0;
      for (let y = 0; y < T; y++) for (let x = 0; x < T; x++) mean += data[(by + y) * width + bx + x]!;
      mean /= T * T;
      for (let y = 0; y < T; y++)
        for (let x = 0; x < T; x++) {
          re[y * T + x] = (data[(by + y) * width + bx + x]! - mean) * hann[y]! * hann[x]!;
          im[y * T + x] = 0;
        }
      fft2(re, im, T, T);
      for (let i = 0; i < T * T; i++) power[i]! += re[i]! * re[i]! + im[i]! * im[i]!;
    }
  }
  // Radial profiles (bins of 1/T) over all angles, near the axes and near the diagonals.
  const bins = T / 2 + 1;
  const sums = [new Float64Array(bins), new Float64Array(bins), new Float64Array(bins)];
  const counts = [new Float64Array(bins), new Float64Array(bins), new Float64Array(bins)];
  for (let y = 0; y < T; y++) {
    const fy = y <= T / 2 ? y : y - T;
    for (let x = 0; x < T; x++) {
      const fx = x <= T / 2 ? x : x - T;
      const b = Math.round(Math.hypot(fx, fy));
      if (b >= bins) continue;
      const ang = Math.abs(Math.atan2(fy, fx)) % (Math.PI / 2);
      const sector = Math.abs(ang - Math.PI / 4) < Math.PI / 8 ? 2 : 1;
      for (const s of [0, sector]) {
        sums[s]![b]! += power[y * T + x]!;
        counts[s]![b]!++;
      }
    }
  }
  const profiles = sums.map((s, k) =>
    Array.from(s, (v, b) => Math.log10(v / Math.max(1, counts[k]![b]!) + 1e-9)),
  );
  const dip = (p: number[], from: number, to: number) => {
    let best = { bin: -1, rise: 0 };
    for (let b = Math.max(3, from); b <= Math.min(p.length - 2, to); b++) {
      if (!(p[b]! < p[b - 1]! && p[b]! <= p[b + 1]!)) continue;
      let hi = -Infinity;
      for (let k = b + 1; k < Math.min(p.length, b + 8); k++) hi = Math.max(hi, p[k]!);
      const rise = hi - p[b]!;
      if (rise > best.rise) best = { bin: b, rise };
    }
    return best;
  };
  const all = profiles[0]!;
  const main = dip(all, 3, bins - 2);
  if (main.bin < 0) return none;
  const axis = dip(profiles[1]!, main.bin - 1, main.bin + 1);
  const diag = dip(profiles[2]!, main.bin - 1, main.bin + 1);
  if (axis.bin < 0 || diag.bin < 0) return none;
  const depth = Math.min(main.rise, axis.rise, diag.rise);
  const [a, b, c] = [all[main.bin - 1]!, all[main.bin]!, all[main.bin + 1]!];
  const den = a - 2 * b + c;
  const f0 = (main.bin + (den > 0 ? (0.5 * (a - c)) / den : 0)) / T;
  // The Hann window spreads the dip and the steeply falling spectrum pulls its minimum outward: on defocused
  // samples of known radius the minimum sat about 3 % above the kernel's zero.
  return { radius: diskRadiusForZero(f0 / 1.03), depth, f0 };
}
