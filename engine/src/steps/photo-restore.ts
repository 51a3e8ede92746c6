// Photo restoration steps chosen by the photo plan from measurements (analysis/plan-photo.ts):
// DCT-domain denoising and deblocking, fade and colour-cast correction, Wiener deblurring.
import { createImage, type RawImage } from '../image.js';
import { diskKernel, kernelTransfer } from '../pixels/kernels.js';
import { colourBeyondCast, fadeLevels } from '../pixels/levels.js';
import { filterPlane, nextPow2 } from '../pixels/fft.js';
import { num, type Step } from './registry.js';

/** Float planes of an image: luma + two colour differences for colour (decorrelated), or the grey plane. */
function toPlanes(img: RawImage): Float32Array[] {
  const n = img.width * img.height;
  const { data, channels } = img;
  if (channels < 3) return [Float32Array.from({ length: n }, (_, i) => data[i * channels]!)];
  const y = new Float32Array(n);
  const cb = new Float32Array(n);
  const cr = new Float32Array(n);
  for (let i = 0, p = 0; i < n; i++, p += channels) {
    const r = data[p]!;
    const g = data[p + 1]!;
    const b = data[p + 2]!;
    y[i] = 0.299 * r + 0.587 * g + 0.114 * b;
    cb[i] = 0.564 * (b - y[i]!);
    cr[i] = 0.713 * (r - y[i]!);
  }
  return [y, cb, cr];
}

function fromPlanes(planes: Float32Array[], like: RawImage): RawImage {
  const out = createImage(like.width, like.height, like.channels);
  const n = like.width * like.height;
  const { channels } = like;
  const clamp = (v: number) => (v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v));
  if (planes.length === 1) {
    for (let i = 0; i < n; i++) {
      out.data[i * channels] = clamp(planes[0]![i]!);
      for (let c = 1; c < channels; c++)
        out.data[i * channels + c] = c === 3 ? like.data[i * channels + 3]! : out.data[i * channels]!;
    }
    return out;
  }
  const [y, cb, cr] = planes as [Float32Array, Float32Array, Float32Array];
  for (let i = 0, p = 0; i < n; i++, p += channels) {
    const Y = y[i]!;
    const r = Y + 1.403 * cr[i]!;
    const b = Y + 1.773 * cb[i]!;
    const g = (Y - 0.299 * r - 0.114 * b) / 0.587;
    out.data[p] = clamp(r);
    out.data[p + 1] = clamp(g);
    out.data[p + 2] = clamp(b);
    if (channels === 4) out.data[p + 3] = like.data[p + 3]!;
  }
  return out;
}

/** Orthonormal 8-point DCT-II matrix, row k = basis k. */
const DCT8 = (() => {
  const m = new Float64Array(64);
  for (let k = 0; k < 8; k++)
    for (let i = 0; i < 8; i++)
      m[k * 8 + i] = (k === 0 ? Math.SQRT1_2 : 1) * 0.5 * Math.cos(((2 * i + 1) * k * Math.PI) / 16);
  return m;
})();

/**
 * 8-point DCT (or its inverse) of src[off + i·step], i = 0..7, written to dst the same way. Uses the even/odd
 * symmetry of the basis (basis k is symmetric for even k, antisymmetric for odd k): 32 multiplications.
 */
function dct8(
  src: Float64Array,
  off: number,
  step: number,
  dst: Float64Array,
  dOff: number,
  inverse: boolean,
): void {
  const C = DCT8;
  if (!inverse) {
    for (let i = 0; i < 4; i++) {
      const a = src[off + i * step]!;
      const b = src[off + (7 - i) * step]!;
      EVEN[i] = a + b;
      ODD[i] = a - b;
    }
    for (let k = 0; k < 8; k++) {
      const v = k % 2 === 0 ? EVEN : ODD;
      const r = k * 8;
      dst[dOff + k * step] = C[r]! * v[0]! + C[r + 1]! * v[1]! + C[r + 2]! * v[2]! + C[r + 3]! * v[3]!;
    }
    return;
  }
  for (let i = 0; i < 4; i++) {
    EVEN[i] =
      C[i]! * src[off]! +
      C[16 + i]! * src[off + 2 * step]! +
      C[32 + i]! * src[off + 4 * step]! +
      C[48 + i]! * src[off + 6 * step]!;
    ODD[i] =
      C[8 + i]! * src[off + step]! +
      C[24 + i]! * src[off + 3 * step]! +
      C[40 + i]! * src[off + 5 * step]! +
      C[56 + i]! * src[off + 7 * step]!;
  }
  for (let i = 0; i < 4; i++) {
    dst[dOff + i * step] = EVEN[i]! + ODD[i]!;
    dst[dOff + (7 - i) * step] = EVEN[i]! - ODD[i]!;
  }
}
const EVEN = new Float64Array(4);
const ODD = new Float64Array(4);

/** Block positions along one axis: every `stride` pixels, plus the last possible position. */
function positions(size: number, stride: number): number[] {
  const out: number[] = [];
  if (size < 8) return out;
  for (let p = 0; p + 8 <= size; p += stride) out.push(p);
  if (out[out.length - 1] !== size - 8) out.push(size - 8);
  return out;
}

/** 8×8 DCT of the block of `src` at (bx, by), into `out` (row-major, coefficient v·8 + u); `tmp` is scratch. */
function blockDct(
  src: Float32Array,
  width: number,
  bx: number,
  by: number,
  out: Float64Array,
  tmp: Float64Array,
): void {
  for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) out[y * 8 + x] = src[(by + y) * width + bx + x]!;
  for (let y = 0; y < 8; y++) dct8(out, y * 8, 1, tmp, y * 8, false);
  for (let x = 0; x < 8; x++) dct8(tmp, x, 8, out, x, false);
}

/**
 * The lowest frequencies beside DC (u + v = 1 or 2): a block's shading and edges, what makes it not flat. Chosen for
 * their small values, these coefficients read below their noise, so their thresholds stay lower and keep a
 * picture's shading (on the dev photos this does better than measuring them on blocks chosen by the others).
 */
const STRUCTURE = [1, 8, 2, 9, 16];

/**
 * The noise of one plane, coefficient by coefficient of the 8×8 DCT: the robust spread (median of the squares,
 * scaled to a standard deviation) of each coefficient over the flattest quarter of the blocks, those with the least
 * low-frequency structure. Noise that is not white (film grain and sensor noise are blurred: their energy lies
 * in the low frequencies) gets the threshold of its own spectrum; a picture's texture, absent from its flattest
 * blocks, is not taken for noise. Blocks touching black or white, where clipping hides the noise, are left out.
 */
export function noiseSpectrum(src: Float32Array, width: number, height: number): Float64Array {
  const sigma = new Float64Array(64);
  const found: { structure: number; coefficients: Float64Array }[] = [];
  const tmp = new Float64Array(64);
  for (let by = 0; by + 8 <= height; by += 8) {
    for (let bx = 0; bx + 8 <= width; bx += 8) {
      let lo = 255;
      let hi = 0;
      for (let y = 0; y < 8; y++)
        for (let x = 0; x < 8; x++) {
          const v = src[(by + y) * width + bx + x]!;
          if (v < lo) lo = v;
          if (v > hi) hi = v;
        }
      if (lo <= 2 || hi >= 253) continue;
      const coefficients = new Float64Array(64);
      blockDct(src, width, bx, by, coefficients, tmp);
      let structure = 0;
      for (const k of STRUCTURE) structure += coefficients[k]! ** 2;
      found.push({ structure, coefficients });
    }
  }
  if (found.length < 16) return sigma;
  found.sort((a, b) => a.structure - b.structure);
  const flattest = found.slice(0, Math.max(16, Math.floor(found.length / 4)));
  const squares = new Float64Array(flattest.length);
  for (let k = 1; k < 64; k++) {
    flattest.forEach((b, i) => (squares[i] = b.coefficients[k]! ** 2));
    squares.sort();
    // The median of a squared normal variable is 0.4549 σ².
    sigma[k] = Math.sqrt(squares[Math.floor(squares.length / 2)]! / 0.4549);
  }
  return sigma;
}

/**
 * Sliding-window DCT denoising of one plane: 8×8 blocks every `stride` pixels, coefficients below `threshold` (one
 * for all, or one per coefficient) set to zero (DC kept), blocks averaged back with weights favouring sparse (flat)
 * blocks.
 */
export function dctDenoisePlane(
  src: Float32Array,
  width: number,
  height: number,
  threshold: number | Float64Array,
  stride: number,
): Float32Array {
  const limits = typeof threshold === 'number' ? new Float64Array(64).fill(threshold) : threshold;
  if (width < 8 || height < 8 || limits.every((t) => t <= 0)) return src.slice();
  const acc = new Float64Array(src.length);
  const wsum = new Float64Array(src.length);
  const block = new Float64Array(64);
  const tmp = new Float64Array(64);
  const xs = positions(width, stride);
  const ys = positions(height, stride);
  for (const by of ys) {
    for (const bx of xs) {
      blockDct(src, width, bx, by, block, tmp);
      let kept = 1;
      for (let k = 1; k < 64; k++) {
        if (Math.abs(block[k]!) < limits[k]!) block[k] = 0;
        else kept++;
      }
      for (let x = 0; x < 8; x++) dct8(block, x, 8, tmp, x, true);
      for (let y = 0; y < 8; y++) dct8(tmp, y * 8, 1, block, y * 8, true);
      const w = 1 / kept;
      for (let y = 0; y < 8; y++) {
        const row = (by + y) * width + bx;
        for (let x = 0; x < 8; x++) {
          acc[row + x]! += w * block[y * 8 + x]!;
          wsum[row + x]! += w;
        }
      }
    }
  }
  const out = new Float32Array(src.length);
  for (let i = 0; i < src.length; i++) out[i] = wsum[i]! > 0 ? acc[i]! / wsum[i]! : src[i]!;
  return out;
}

/** Hard threshold in standard deviations of a coefficient's measured noise (the textbook 2.7σ). */
const SPECTRUM_THRESHOLD = 2.7;

export const denoiseDct: Step = {
  name: 'denoise-dct',
  kind: 'photo',
  description:
    'Grain, sensor noise and JPEG blocking: sliding 8×8 DCT, coefficients under 3σ dropped (luma and chroma), or under 2.7σ of their own measured noise',
  run(img, params) {
    const sigma = num(params, 'sigma', 6);
    const chromaSigma = num(params, 'chromaSigma', sigma);
    const stride = Math.max(1, Math.round(num(params, 'stride', 2)));
    // Grain and sensor noise: each coefficient's threshold from the plane's own noise spectrum. JPEG's quantised
    // noise has none to measure (its flat blocks keep no fine coefficients), so it keeps the one threshold.
    const measured = params.spectrum === true;
    const planes = toPlanes(img);
    const out = planes.map((p, c) =>
      dctDenoisePlane(
        p,
        img.width,
        img.height,
        measured
          ? noiseSpectrum(p, img.width, img.height).map((s) => SPECTRUM_THRESHOLD * s)
          : 3 * (c === 0 ? sigma : chromaSigma),
        c === 0 ? stride : stride * 2,
      ),
    );
    return fromPlanes(out, img);
  },
};

/**
 * Fading as a veil: a faded print is v' = cast · ((1 − a) · v + a · veil), so its black point is lifted by
 * L = a · veil and its contrast is C = 1 − a = 1 − L / veil. L comes from the darkest channel's black level, the
 * cast from the black and white levels of the channels relative to the strongest one, 80 % of it (a photo's own
 * colour also shows there; on the 15 faded photos of dev seeds 71001-71003 the PSNR gain was 6.3 dB at 60 %, 7.1 at
 * 80 %, 7.0 at 90 %, every photo better at 80 % than at 60 %; held-out seed 71004: 4.8 → 5.4 dB). Dyes lose colour faster than contrast, so the saturation comes back as C^−1.4, in
 * proportion to the colour the print still shows beyond its cast (none for a monochrome print, where a boost
 * would only bring the left-over cast back).
 */
export const restoreFade: Step = {
  name: 'restore-fade',
  kind: 'photo',
  description:
    'Faded print and colour cast: inverts a veil fade (black lift, contrast, cast from the channel levels), then restores saturation',
  run(img, params) {
    if (img.channels < 3) return img;
    const { low, high } = fadeLevels(img);
    const veil = num(params, 'veil', 0.4);
    const castStrength = num(params, 'castStrength', 0.8);
    const saturationPower = num(params, 'saturationPower', 1.4);
    const maxLow = Math.max(1, ...low);
    const maxHigh = Math.max(1, ...high);
    const lift = maxLow / 255;
    const contrast = Math.max(0.25, 1 - lift / veil);
    const cast = low.map((lo, c) => 1 - (1 - (lo / maxLow + high[c]! / maxHigh) / 2) * castStrength);
    const colour = Math.min(1, Math.max(0, (colourBeyondCast(img) - 0.8) / 1));
    const saturation = 1 + (contrast ** -saturationPower - 1) * colour;
    const out = createImage(img.width, img.height, img.channels);
    const n = img.width * img.height;
    const { data, channels } = img;
    const clamp = (v: number) => (v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v));
    const k = [0, 1, 2].map((c) => 1 / (255 * cast[c]! * contrast));
    const b = lift / contrast;
    for (let i = 0, p = 0; i < n; i++, p += channels) {
      const r = data[p]! * k[0]! - b;
      const g = data[p + 1]! * k[1]! - b;
      const bl = data[p + 2]! * k[2]! - b;
      const m = (r + g + bl) / 3;
      out.data[p] = clamp(255 * (m + (r - m) * saturation));
      out.data[p + 1] = clamp(255 * (m + (g - m) * saturation));
      out.data[p + 2] = clamp(255 * (m + (bl - m) * saturation));
      if (channels === 4) out.data[p + 3] = data[p + 3]!;
    }
    return out;
  },
};

export const deblurPhoto: Step = {
  name: 'deblur-photo',
  kind: 'photo',
  description:
    'Defocus and soft upscaling: Wiener deconvolution of luma with a Gaussian blur of the measured sigma (FFT)',
  run(img, params) {
    const sigma = num(params, 'sigma', 1);
    const nsr = num(params, 'nsr', 0.01);
    if (sigma <= 0.2) return img;
    const planes = toPlanes(img);
    const k = -2 * Math.PI * Math.PI * sigma * sigma;
    const luma = filterPlane(planes[0]!, img.width, img.height, 16, (fx, fy) => {
      const g = Math.exp(k * (fx * fx + fy * fy));
      return (g * (1 + nsr)) / (g * g + nsr);
    });
    planes[0] = luma;
    return fromPlanes(planes, img);
  },
};

export const deblurMotion: Step = {
  name: 'deblur-motion',
  kind: 'photo',
  description:
    'Camera shake: Wiener deconvolution of luma with a straight smear of the measured angle and length (FFT)',
  run(img, params) {
    const length = num(params, 'length', 0);
    const nsr = num(params, 'nsr', 0.01);
    if (length < 2) return img;
    const a = (num(params, 'angle', 0) * Math.PI) / 180;
    const ca = Math.cos(a);
    const sa = Math.sin(a);
    const planes = toPlanes(img);
    // A centred straight smear has a real transfer function: sinc of the frequency along the smear.
    planes[0] = filterPlane(planes[0]!, img.width, img.height, 24, (fx, fy) => {
      const p = Math.PI * length * (fx * ca + fy * sa);
      const h = Math.abs(p) < 1e-9 ? 1 : Math.sin(p) / p;
      return (h * (1 + nsr)) / (h * h + nsr);
    });
    return fromPlanes(planes, img);
  },
};

/**
 * Mirror padding for a frequency-domain filter: `wanted`, cut down (to no less than 6 px) when that keeps the
 * padded plane within the next power of two, which halves the FFT size per axis (1000 px: 1024 instead of 2048).
 */
function fftPad(img: RawImage, wanted: number): number {
  const room = Math.min(nextPow2(img.width) - img.width, nextPow2(img.height) - img.height) >> 1;
  return room >= 6 ? Math.min(wanted, room) : wanted;
}

export const deblurDefocus: Step = {
  name: 'deblur-defocus',
  kind: 'photo',
  description:
    'Defocus: Wiener deconvolution of luma with a pillbox (disk) blur of the measured radius (FFT)',
  run(img, params) {
    const radius = num(params, 'radius', 0);
    const nsr = num(params, 'nsr', 0.003);
    if (radius < 0.5) return img;
    const h = kernelTransfer(diskKernel(radius));
    const planes = toPlanes(img);
    planes[0] = filterPlane(
      planes[0]!,
      img.width,
      img.height,
      fftPad(img, Math.ceil(radius) * 8),
      (fx, fy) => {
        const g = h(fx, fy);
        return (g * (1 + nsr)) / (g * g + nsr);
      },
    );
    return fromPlanes(planes, img);
  },
};

export const photoRestoreSteps: Step[] = [denoiseDct, restoreFade, deblurPhoto, deblurMotion, deblurDefocus];
