// Photo restoration steps chosen by the photo plan from measurements (analysis/plan-photo.ts):
// DCT-domain denoising and deblocking, fade and colour-cast correction, Wiener deblurring.
import { createImage, type RawImage } from '../image.js';
import { fadeLevels } from '../analysis/measure-photo.js';
import { filterPlane } from './fft.js';
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

/** Block positions along one axis: every `stride` pixels, plus the last possible position. */
function positions(size: number, stride: number): number[] {
  const out: number[] = [];
  if (size < 8) return out;
  for (let p = 0; p + 8 <= size; p += stride) out.push(p);
  if (out[out.length - 1] !== size - 8) out.push(size - 8);
  return out;
}

/**
 * Sliding-window DCT denoising of one plane: 8×8 blocks every `stride` pixels, coefficients below `threshold`
 * set to zero (DC kept), blocks averaged back with weights favouring sparse (flat) blocks.
 */
export function dctDenoisePlane(
  src: Float32Array,
  width: number,
  height: number,
  threshold: number,
  stride: number,
): Float32Array {
  if (width < 8 || height < 8 || threshold <= 0) return src.slice();
  const acc = new Float64Array(src.length);
  const wsum = new Float64Array(src.length);
  const block = new Float64Array(64);
  const tmp = new Float64Array(64);
  const xs = positions(width, stride);
  const ys = positions(height, stride);
  for (const by of ys) {
    for (const bx of xs) {
      for (let y = 0; y < 8; y++)
        for (let x = 0; x < 8; x++) block[y * 8 + x] = src[(by + y) * width + bx + x]!;
      // Forward: tmp = D · block, block = tmp · Dᵀ.
      for (let k = 0; k < 8; k++)
        for (let x = 0; x < 8; x++) {
          let s = 0;
          for (let i = 0; i < 8; i++) s += DCT8[k * 8 + i]! * block[i * 8 + x]!;
          tmp[k * 8 + x] = s;
        }
      let kept = 1;
      for (let k = 0; k < 8; k++)
        for (let l = 0; l < 8; l++) {
          let s = 0;
          for (let i = 0; i < 8; i++) s += tmp[k * 8 + i]! * DCT8[l * 8 + i]!;
          if (k + l > 0) {
            if (Math.abs(s) < threshold) s = 0;
            else kept++;
          }
          block[k * 8 + l] = s;
        }
      // Inverse: tmp = Dᵀ · block, block = tmp · D.
      for (let i = 0; i < 8; i++)
        for (let l = 0; l < 8; l++) {
          let s = 0;
          for (let k = 0; k < 8; k++) s += DCT8[k * 8 + i]! * block[k * 8 + l]!;
          tmp[i * 8 + l] = s;
        }
      const w = 1 / kept;
      for (let y = 0; y < 8; y++)
        for (let x = 0; x < 8; x++) {
          let s = 0;
          for (let l = 0; l < 8; l++) s += tmp[y * 8 + l]! * DCT8[l * 8 + x]!;
          const i = (by + y) * width + bx + x;
          acc[i]! += w * s;
          wsum[i]! += w;
        }
    }
  }
  const out = new Float32Array(src.length);
  for (let i = 0; i < src.length; i++) out[i] = wsum[i]! > 0 ? acc[i]! / wsum[i]! : src[i]!;
  return out;
}

export const denoiseDct: Step = {
  name: 'denoise-dct',
  kind: 'photo',
  description:
    'Grain, sensor noise and JPEG blocking: sliding 8×8 DCT, coefficients under 3σ dropped (luma and chroma)',
  run(img, params) {
    const sigma = num(params, 'sigma', 6);
    const chromaSigma = num(params, 'chromaSigma', sigma);
    const stride = Math.max(1, Math.round(num(params, 'stride', 2)));
    const planes = toPlanes(img);
    const out = planes.map((p, c) =>
      dctDenoisePlane(
        p,
        img.width,
        img.height,
        3 * (c === 0 ? sigma : chromaSigma),
        c === 0 ? stride : stride * 2,
      ),
    );
    return fromPlanes(out, img);
  },
};

export const restoreFade: Step = {
  name: 'restore-fade',
  kind: 'photo',
  description:
    'Faded print and colour cast: each channel from its black level to a common white target (capped gain), then saturation back',
  run(img, params) {
    if (img.channels < 3) return img;
    const { low, high } = fadeLevels(img);
    const white = num(params, 'white', 215);
    const black = num(params, 'black', 0);
    const maxGain = num(params, 'maxGain', 1.6);
    const saturation = num(params, 'saturation', 1.3);
    const gains = low.map((lo, c) =>
      Math.max(1, Math.min(maxGain, (white - black) / Math.max(1, high[c]! - lo))),
    );
    const out = createImage(img.width, img.height, img.channels);
    const n = img.width * img.height;
    const { data, channels } = img;
    const clamp = (v: number) => (v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v));
    for (let i = 0, p = 0; i < n; i++, p += channels) {
      const r = black + (data[p]! - low[0]!) * gains[0]!;
      const g = black + (data[p + 1]! - low[1]!) * gains[1]!;
      const b = black + (data[p + 2]! - low[2]!) * gains[2]!;
      const m = (r + g + b) / 3;
      out.data[p] = clamp(m + (r - m) * saturation);
      out.data[p + 1] = clamp(m + (g - m) * saturation);
      out.data[p + 2] = clamp(m + (b - m) * saturation);
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

export const photoRestoreSteps: Step[] = [denoiseDct, restoreFade, deblurPhoto, deblurMotion];
