// The photo plan's self-check, without a reference: a photo step may remove noise and blur (fine detail) and change
// tones and colour globally (a fade, a cast); what it may not do is change the picture's structure, which no photo
// damage explains. Both images are low-passed (4×4 block means, then a 3×3 mean: the scale of the grain, JPEG
// blocks and blur the steps remove), the output is fitted per channel as an affine map of the input's channels
// (levels, cast, saturation), and what the fit leaves is the unexplained change.
import type { RawImage } from '../image.js';
import type { Step } from '../steps/registry.js';
import { boxMean, reduce } from '../pixels/index.js';

/** Block size of the low-pass. */
const BLOCK = 4;

/**
 * Largest unexplained change allowed, as a PSNR (dB) between the low-passed output and the tone-matched low-passed
 * input: RMS 4 grey levels. Added to the error of an input at 30 dB (RMS 8, a lightly damaged photo), an
 * unexplained change of RMS 4 costs 10·log10(1 + 4²/8²) ≈ 0.97 dB: no photo loses more than 1 dB to it.
 */
export const MIN_STRUCTURE_PSNR = 36;

function lowPass(img: RawImage): { planes: Float32Array[]; width: number; height: number } {
  const channels = img.channels === 4 ? 3 : img.channels;
  const n = img.width * img.height;
  const planes: Float32Array[] = [];
  let width = 0;
  let height = 0;
  const plane = new Uint8Array(n);
  for (let c = 0; c < channels; c++) {
    for (let i = 0; i < n; i++) plane[i] = img.data[i * img.channels + c]!;
    const small = reduce(plane, img.width, img.height, BLOCK, 'mean');
    ({ width, height } = small);
    planes.push(boxMean(small.data, width, height, 1));
  }
  return { planes, width, height };
}

/**
 * Solves the k×k normal equations (row-major `a`) by Gaussian elimination with partial pivoting. A small ridge on
 * the channel weights keeps identical channels (a grey picture stored as RGB) solvable.
 */
function solve(a: Float64Array, b: Float64Array, k: number): Float64Array {
  const m = new Float64Array(k * (k + 1));
  let trace = 0;
  for (let i = 1; i < k; i++) trace += a[i * k + i]!;
  const ridge = (1e-6 * trace) / Math.max(1, k - 1);
  for (let r = 0; r < k; r++) {
    for (let c = 0; c < k; c++) m[r * (k + 1) + c] = a[r * k + c]! + (r === c && r > 0 ? ridge : 0);
    m[r * (k + 1) + k] = b[r]!;
  }
  const w = k + 1;
  for (let col = 0; col < k; col++) {
    let pivot = col;
    for (let r = col + 1; r < k; r++)
      if (Math.abs(m[r * w + col]!) > Math.abs(m[pivot * w + col]!)) pivot = r;
    if (pivot !== col) {
      for (let c = 0; c < w; c++) {
        const t = m[col * w + c]!;
        m[col * w + c] = m[pivot * w + c]!;
        m[pivot * w + c] = t;
      }
    }
    const p = m[col * w + col]!;
    if (Math.abs(p) < 1e-12) return new Float64Array(k);
    for (let r = 0; r < k; r++) {
      if (r === col) continue;
      const f = m[r * w + col]! / p;
      if (f !== 0) for (let c = col; c < w; c++) m[r * w + c]! -= f * m[col * w + c]!;
    }
  }
  const x = new Float64Array(k);
  for (let r = 0; r < k; r++) x[r] = m[r * w + k]! / m[r * w + r]!;
  return x;
}

/**
 * PSNR (dB) of the output's structure against the input's: low-passed, the output fitted per channel as an
 * affine map of the input's channels (fitted where the output is not clipped). Infinity for identical images.
 */
export function structurePsnr(input: RawImage, output: RawImage): number {
  if (input.width !== output.width || input.height !== output.height) return 0;
  const a = lowPass(input);
  const b = lowPass(output);
  const n = a.width * a.height;
  const k = a.planes.length + 1;
  let se = 0;
  let count = 0;
  const ata = new Float64Array(k * k);
  const atb = new Float64Array(k);
  const x = new Float64Array(k);
  x[0] = 1;
  for (const target of b.planes) {
    ata.fill(0);
    atb.fill(0);
    for (let i = 0; i < n; i++) {
      const t = target[i]!;
      if (t < 3 || t > 252) continue;
      for (let c = 1; c < k; c++) x[c] = a.planes[c - 1]![i]!;
      for (let r = 0; r < k; r++) {
        const xr = x[r]!;
        atb[r]! += xr * t;
        for (let c = r; c < k; c++) ata[r * k + c]! += xr * x[c]!;
      }
    }
    for (let r = 0; r < k; r++) for (let c = 0; c < r; c++) ata[r * k + c] = ata[c * k + r]!;
    const coef = solve(ata, atb, k);
    for (let i = 0; i < n; i++) {
      let p = coef[0]!;
      for (let c = 1; c < k; c++) p += coef[c]! * a.planes[c - 1]![i]!;
      const d = target[i]! - Math.max(0, Math.min(255, p));
      se += d * d;
      count++;
    }
  }
  const mse = se / Math.max(1, count);
  return mse === 0 ? Infinity : 10 * Math.log10((255 * 255) / mse);
}

/**
 * Why a photo step's output is rejected, or undefined: by the step's own check where it has one, otherwise when its
 * structure PSNR is under MIN_STRUCTURE_PSNR.
 */
export function photoStepRejected(
  before: RawImage,
  after: RawImage,
  { name: step, selfCheck }: Pick<Step, 'name' | 'selfCheck'>,
): string | undefined {
  if (selfCheck) return selfCheck(before, after);
  const db = structurePsnr(before, after);
  if (db >= MIN_STRUCTURE_PSNR) return undefined;
  return `photo self-check: ${step} changed the picture beyond its measured damage (structure ${db.toFixed(1)} dB < ${MIN_STRUCTURE_PSNR} dB); step skipped`;
}
