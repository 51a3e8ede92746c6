// Photo measurements: each one looks for the signature of one damage, so that the photo plan runs a step only
// where its damage is present. All work on luma (or on each channel for levels) and take well under 100 ms per MP.
import type { RawImage } from '../image.js';
import { boxMean, percentile, toGrey } from '../steps/pixels.js';

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
  const blurred = gaussianBlur(src, width, height, s0);
  const g0 = gradientMagnitude(src, width, height);
  const g1 = gradientMagnitude(blurred, width, height);
  const sorted = Float32Array.from(g0).sort();
  const threshold = Math.max(8, sorted[Math.floor(sorted.length * 0.97)]!);
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
      const r = Math.max(1.0001, g / Math.max(1e-6, g1[i]!));
      sigmas.push(s0 / Math.sqrt(r * r - 1));
    }
  }
  if (sigmas.length < 50) return 0;
  sigmas.sort((a, b) => a - b);
  return sigmas[Math.floor(sigmas.length / 2)]!;
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

/** Separable Gaussian blur of a float plane (clamped borders). */
export function gaussianBlur(src: Float32Array, width: number, height: number, sigma: number): Float32Array {
  const r = Math.max(1, Math.ceil(sigma * 3));
  const k = new Float32Array(2 * r + 1);
  let sum = 0;
  for (let i = -r; i <= r; i++) sum += k[i + r] = Math.exp(-(i * i) / (2 * sigma * sigma));
  for (let i = 0; i < k.length; i++) k[i]! /= sum;
  const tmp = new Float32Array(src.length);
  const out = new Float32Array(src.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let acc = 0;
      for (let i = -r; i <= r; i++)
        acc += k[i + r]! * src[y * width + Math.min(width - 1, Math.max(0, x + i))]!;
      tmp[y * width + x] = acc;
    }
  }
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let acc = 0;
      for (let i = -r; i <= r; i++)
        acc += k[i + r]! * tmp[Math.min(height - 1, Math.max(0, y + i)) * width + x]!;
      out[y * width + x] = acc;
    }
  }
  return out;
}

function gradientMagnitude(src: Float32Array, width: number, height: number): Float32Array {
  const out = new Float32Array(src.length);
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const gx =
        src[i - width + 1]! +
        2 * src[i + 1]! +
        src[i + width + 1]! -
        src[i - width - 1]! -
        2 * src[i - 1]! -
        src[i + width - 1]!;
      const gy =
        src[i + width - 1]! +
        2 * src[i + width]! +
        src[i + width + 1]! -
        src[i - width - 1]! -
        2 * src[i - width]! -
        src[i - width + 1]!;
      out[i] = Math.hypot(gx, gy);
    }
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
 * (a box smear of length L turns the derivative into two copies L apart with opposite signs).
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
  let k = 0;
  for (let i = 1; i < angles.length; i++) if (ef[i]! < ef[k]!) k = i;
  const perp = (k + 30) % 60;
  const score = ef[k]! / Math.max(1e-9, ef[perp]!) / Math.max(1e-9, ec[k]! / Math.max(1e-9, ec[perp]!));
  // Refine to 1°.
  const near = [-2, -1, 1, 2].map((o) => (angles[k]! + o + 180) % 180);
  const en = directionalEnergy(fine, width, height, near);
  let angle = angles[k]!;
  let best = ef[k]!;
  near.forEach((a, i) => {
    if (en[i]! < best) {
      best = en[i]!;
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
