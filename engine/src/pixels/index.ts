// The pixel kernel shared by the steps, the analysis and the guard: plain typed-array loops, no allocation beyond
// the result. Beside it: fft.ts (frequency-domain filters) and components.ts (the connected-component labeller).
import type { Sharp } from 'sharp';
import sharp from 'sharp';
import { createImage, type RawImage } from '../image.js';

export type Grey = RawImage & { channels: 1 };

export function isGrey(img: RawImage): img is Grey {
  return img.channels === 1;
}

/**
 * Each colour image's grey copies, made once while the image lives: a page is measured, planned and guarded from
 * its grey many times over. Images are never written after they are made, so a copy stays true.
 */
const greyCopies = new WeakMap<RawImage, { max?: Grey; luma?: Grey }>();

/** Grey image from colour: 'max' keeps the brightest channel (tinted paper turns white), 'luma' is Rec. 601. */
export function toGrey(img: RawImage, mode: 'max' | 'luma' = 'luma'): Grey {
  if (img.channels === 1) return img as Grey;
  let copies = greyCopies.get(img);
  if (!copies) greyCopies.set(img, (copies = {}));
  return (copies[mode] ??= greyOf(img, mode));
}

function greyOf(img: RawImage, mode: 'max' | 'luma'): Grey {
  const out = createImage(img.width, img.height, 1) as Grey;
  const { data, channels } = img;
  const n = img.width * img.height;
  for (let i = 0, p = 0; i < n; i++, p += channels) {
    const r = data[p]!;
    const g = data[p + 1]!;
    const b = data[p + 2]!;
    out.data[i] = mode === 'max' ? Math.max(r, g, b) : (r * 299 + g * 587 + b * 114 + 500) / 1000;
  }
  return out;
}

/** Drops alpha (composited on white) so steps only see 1 or 3 channels. */
export function dropAlpha(img: RawImage): RawImage {
  if (img.channels !== 4) return img;
  const out = createImage(img.width, img.height, 3);
  const n = img.width * img.height;
  for (let i = 0; i < n; i++) {
    const a = img.data[i * 4 + 3]! / 255;
    for (let c = 0; c < 3; c++) out.data[i * 3 + c] = img.data[i * 4 + c]! * a + 255 * (1 - a);
  }
  return out;
}

/**
 * Separable running max (dilate = true) or min over a (2r+1)² square, clipped at the borders. The min is the
 * max of the inverted image, inverted back, so one kernel with its comparison written inline serves both.
 */
export function rankFilter(
  src: Uint8Array,
  width: number,
  height: number,
  r: number,
  max: boolean,
): Uint8Array {
  if (r <= 0) return src.slice();
  if (max) return runningMax(src, width, height, r);
  return inverted(runningMax(inverted(src), width, height, r));
}

function inverted(src: Uint8Array): Uint8Array {
  const out = new Uint8Array(src.length);
  for (let i = 0; i < src.length; i++) out[i] = 255 - src[i]!;
  return out;
}

/**
 * Van Herk / Gil-Werman running max: the line is cut into blocks of 2r+1; a window then spans at most two blocks,
 * and its max is the larger of the first block's suffix max and the second's prefix max: three comparisons per
 * pixel and pass, whatever the radius (windows reaching past the border see 0, as if clipped).
 */
function runningMax(src: Uint8Array, width: number, height: number, r: number): Uint8Array {
  const k = 2 * r + 1;
  // Along the rows, one row at a time in a padded copy.
  const tmp = new Uint8Array(src.length);
  const m = width + 2 * r;
  const p = new Uint8Array(m);
  const g = new Uint8Array(m);
  const h = new Uint8Array(m);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    p.fill(0);
    p.set(src.subarray(row, row + width), r);
    for (let i = 0; i < m; i++) {
      const v = p[i]!;
      const before = g[i - 1]!;
      g[i] = i % k === 0 || v > before ? v : before;
    }
    for (let i = m - 1; i >= 0; i--) {
      const v = p[i]!;
      const after = h[i + 1]!;
      h[i] = i === m - 1 || (i + 1) % k === 0 || v > after ? v : after;
    }
    for (let x = 0; x < width; x++) {
      const a = h[x]!;
      const b = g[x + 2 * r]!;
      tmp[row + x] = a > b ? a : b;
    }
  }
  // Along the columns, all columns at once, row by row (padded rows are 0).
  const rows = height + 2 * r;
  const gc = new Uint8Array(rows * width);
  const hc = new Uint8Array(rows * width);
  for (let i = 0; i < rows; i++) {
    const at = i * width;
    const inside = i >= r && i < height + r;
    const from = (i - r) * width;
    if (i % k === 0) {
      if (inside) gc.set(tmp.subarray(from, from + width), at);
    } else
      for (let x = 0; x < width; x++) {
        const v = inside ? tmp[from + x]! : 0;
        const before = gc[at - width + x]!;
        gc[at + x] = v > before ? v : before;
      }
  }
  for (let i = rows - 1; i >= 0; i--) {
    const at = i * width;
    const inside = i >= r && i < height + r;
    const from = (i - r) * width;
    if (i === rows - 1 || (i + 1) % k === 0) {
      if (inside) hc.set(tmp.subarray(from, from + width), at);
    } else
      for (let x = 0; x < width; x++) {
        const v = inside ? tmp[from + x]! : 0;
        const after = hc[at + width + x]!;
        hc[at + x] = v > after ? v : after;
      }
  }
  const out = new Uint8Array(src.length);
  for (let y = 0; y < height; y++) {
    const top = y * width;
    const bottom = (y + 2 * r) * width;
    for (let x = 0; x < width; x++) {
      const a = hc[top + x]!;
      const b = gc[bottom + x]!;
      out[top + x] = a > b ? a : b;
    }
  }
  return out;
}

/**
 * Median over a (2r+1)² square, borders clamped: a running histogram per row (Huang), the median found by walking
 * from the previous one, so a pixel costs the 2(2r+1) histogram updates and a short walk.
 */
export function medianFilter(src: Uint8Array, width: number, height: number, r: number): Uint8Array {
  const out = new Uint8Array(src.length);
  const half = ((2 * r + 1) * (2 * r + 1)) >> 1;
  const hist = new Int32Array(256);
  const at = (x: number, y: number) =>
    src[Math.min(height - 1, Math.max(0, y)) * width + Math.min(width - 1, Math.max(0, x))]!;
  for (let y = 0; y < height; y++) {
    hist.fill(0);
    for (let dy = -r; dy <= r; dy++) for (let dx = -r; dx <= r; dx++) hist[at(dx, y + dy)]!++;
    // below = values under the current median; the median m is the least m with below + hist[m] > half.
    let m = 0;
    let below = 0;
    for (let x = 0; x < width; x++) {
      if (x > 0)
        for (let dy = -r; dy <= r; dy++) {
          const gone = at(x - r - 1, y + dy);
          const come = at(x + r, y + dy);
          hist[gone]!--;
          hist[come]!++;
          if (gone < m) below--;
          if (come < m) below++;
        }
      while (below > half) below -= hist[--m]!;
      while (below + hist[m]! <= half) below += hist[m++]!;
      out[y * width + x] = m;
    }
  }
  return out;
}

/** Box mean over a (2r+1)² window with clamped borders, via an integral image. */
export function boxMean(src: ArrayLike<number>, width: number, height: number, r: number): Float32Array {
  const w1 = width + 1;
  const integral = new Float64Array(w1 * (height + 1));
  for (let y = 0; y < height; y++) {
    let rowSum = 0;
    for (let x = 0; x < width; x++) {
      rowSum += src[y * width + x]!;
      integral[(y + 1) * w1 + x + 1] = integral[y * w1 + x + 1]! + rowSum;
    }
  }
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const y0 = Math.max(0, y - r);
    const y1 = Math.min(height, y + r + 1);
    for (let x = 0; x < width; x++) {
      const x0 = Math.max(0, x - r);
      const x1 = Math.min(width, x + r + 1);
      const sum =
        integral[y1 * w1 + x1]! - integral[y0 * w1 + x1]! - integral[y1 * w1 + x0]! + integral[y0 * w1 + x0]!;
      out[y * width + x] = sum / ((x1 - x0) * (y1 - y0));
    }
  }
  return out;
}

/** Block reduction by an integer factor; each block becomes its max (keeps paper, drops ink) or mean. */
export function reduce(
  src: Uint8Array,
  width: number,
  height: number,
  factor: number,
  how: 'max' | 'mean',
): { data: Uint8Array; width: number; height: number } {
  const w = Math.max(1, Math.ceil(width / factor));
  const h = Math.max(1, Math.ceil(height / factor));
  const out = new Uint8Array(w * h);
  for (let by = 0; by < h; by++) {
    for (let bx = 0; bx < w; bx++) {
      let acc = 0;
      let count = 0;
      for (let y = by * factor; y < Math.min(height, (by + 1) * factor); y++) {
        for (let x = bx * factor; x < Math.min(width, (bx + 1) * factor); x++) {
          const v = src[y * width + x]!;
          if (how === 'max') acc = Math.max(acc, v);
          else acc += v;
          count++;
        }
      }
      out[by * w + bx] = how === 'max' ? acc : Math.round(acc / count);
    }
  }
  return { data: out, width: w, height: h };
}

/** Bilinear enlargement of a reduced map back to full size (sample centres aligned). */
export function enlarge(
  small: ArrayLike<number>,
  sw: number,
  sh: number,
  width: number,
  height: number,
  factor: number,
): Float32Array {
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const fy = Math.min(sh - 1, Math.max(0, (y + 0.5) / factor - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(sh - 1, y0 + 1);
    const ty = fy - y0;
    for (let x = 0; x < width; x++) {
      const fx = Math.min(sw - 1, Math.max(0, (x + 0.5) / factor - 0.5));
      const x0 = Math.floor(fx);
      const x1 = Math.min(sw - 1, x0 + 1);
      const tx = fx - x0;
      const top = small[y0 * sw + x0]! * (1 - tx) + small[y0 * sw + x1]! * tx;
      const bottom = small[y1 * sw + x0]! * (1 - tx) + small[y1 * sw + x1]! * tx;
      out[y * width + x] = top * (1 - ty) + bottom * ty;
    }
  }
  return out;
}

export function percentile(hist: ArrayLike<number>, total: number, p: number): number {
  const target = total * p;
  let acc = 0;
  for (let v = 0; v < hist.length; v++) {
    acc += hist[v]!;
    if (acc >= target) return v;
  }
  return hist.length - 1;
}

export function histogram(data: Uint8Array, channels = 1, channel = 0): Uint32Array {
  const hist = new Uint32Array(256);
  for (let i = channel; i < data.length; i += channels) hist[data[i]!]!++;
  return hist;
}

/** Applies a 256-entry lookup table to every channel. */
export function applyLut(img: RawImage, lut: Uint8Array | ((channel: number) => Uint8Array)): RawImage {
  const out = createImage(img.width, img.height, img.channels);
  const luts = Array.from({ length: img.channels }, (_, c) => (typeof lut === 'function' ? lut(c) : lut));
  for (let i = 0; i < img.data.length; i++) out.data[i] = luts[i % img.channels]![img.data[i]!]!;
  return out;
}

/** A sharp pipeline reading a RawImage. */
export function sharpOf(img: RawImage): Sharp {
  return sharp(img.data, { raw: { width: img.width, height: img.height, channels: img.channels } });
}

/**
 * Runs a sharp pipeline back to a RawImage with the wanted channel count: libvips interprets one-channel raw
 * input as sRGB on output unless told otherwise, so grey results are forced back to one band.
 */
export async function sharpToRaw(pipeline: Sharp, channels: RawImage['channels']): Promise<RawImage> {
  const p = channels === 1 ? pipeline.toColourspace('b-w') : pipeline;
  const { data, info } = await p.raw().toBuffer({ resolveWithObject: true });
  if (info.channels !== channels)
    throw new Error(`Expected ${channels} channels from sharp, got ${info.channels}.`);
  return {
    data: new Uint8Array(data.buffer, data.byteOffset, data.length),
    width: info.width,
    height: info.height,
    channels,
  };
}
