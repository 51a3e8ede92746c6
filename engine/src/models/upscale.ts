// Super-resolution with the converted ESRGAN models, tile by tile so memory stays bounded on big pages.
// Each tile is run with an overlap margin and only its centre is kept, which hides the zero-padding seams.
import * as ort from 'onnxruntime-node';
import type { RawImage } from '../image.js';
import {
  UPSCALE_FACTORS,
  UPSCALE_SIZES,
  upscaleModel,
  type UpscaleFactor,
  type UpscaleModelSize,
} from './catalog.js';
import { ModelRunError } from './errors.js';
import { sessionFor } from './session.js';

export interface UpscaleOptions {
  scale: UpscaleFactor;
  model: UpscaleModelSize;
  /** Input pixels per tile side, overlap included (256 ≈ 113 ms with slim x2 on 2 threads). */
  tile?: number;
  /** Input pixels of context on each side of a tile that are computed and then dropped. */
  overlap?: number;
}

const DEFAULT_TILE = 256;
const DEFAULT_OVERLAP = 16;

function validate(img: RawImage): void {
  const { width, height, channels, data } = img;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new RangeError(`image size must be positive integers, got ${width}×${height}`);
  }
  if (![1, 3, 4].includes(channels)) throw new RangeError(`unsupported channel count ${channels}`);
  if (data.length !== width * height * channels) {
    throw new RangeError(`image data has ${data.length} bytes, expected ${width * height * channels}`);
  }
}

/** Start of a fixed-size window that covers [coreStart, coreEnd) with `overlap` context where the image allows. */
function windowStart(coreStart: number, overlap: number, size: number, window: number): number {
  return Math.max(0, Math.min(coreStart - overlap, size - window));
}

/** RGB planes (NCHW, 0..255) of a window; grey is replicated into three channels, alpha is left out. */
function readWindow(img: RawImage, x0: number, y0: number, w: number, h: number): Float32Array {
  const planes = new Float32Array(3 * w * h);
  const { data, width, channels } = img;
  const plane = w * h;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const src = ((y0 + y) * width + x0 + x) * channels;
      const dst = y * w + x;
      if (channels === 1) {
        const v = data[src]!;
        planes[dst] = v;
        planes[plane + dst] = v;
        planes[2 * plane + dst] = v;
      } else {
        planes[dst] = data[src]!;
        planes[plane + dst] = data[src + 1]!;
        planes[2 * plane + dst] = data[src + 2]!;
      }
    }
  }
  return planes;
}

function toByte(v: number): number {
  return v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v);
}

/** Bilinear upscaling of the alpha channel (the models only know RGB). */
function writeAlpha(src: RawImage, out: RawImage, scale: number): void {
  const { width, height } = src;
  for (let y = 0; y < out.height; y++) {
    const sy = Math.min(height - 1, Math.max(0, (y + 0.5) / scale - 0.5));
    const y0 = Math.floor(sy);
    const y1 = Math.min(height - 1, y0 + 1);
    const fy = sy - y0;
    for (let x = 0; x < out.width; x++) {
      const sx = Math.min(width - 1, Math.max(0, (x + 0.5) / scale - 0.5));
      const x0 = Math.floor(sx);
      const x1 = Math.min(width - 1, x0 + 1);
      const fx = sx - x0;
      const a = (px: number, py: number) => src.data[(py * width + px) * 4 + 3]!;
      const top = a(x0, y0) * (1 - fx) + a(x1, y0) * fx;
      const bottom = a(x0, y1) * (1 - fx) + a(x1, y1) * fx;
      out.data[(y * out.width + x) * 4 + 3] = toByte(top * (1 - fy) + bottom * fy);
    }
  }
}

export async function upscale(img: RawImage, options: UpscaleOptions): Promise<RawImage> {
  validate(img);
  const { scale } = options;
  if (!UPSCALE_FACTORS.includes(scale)) throw new RangeError(`scale must be 2 or 4, got ${scale}`);
  if (!UPSCALE_SIZES.includes(options.model))
    throw new RangeError(`unknown upscaling model "${options.model}"`);
  const spec = upscaleModel(options.model, scale);
  const tile = options.tile ?? DEFAULT_TILE;
  const overlap = options.overlap ?? DEFAULT_OVERLAP;
  if (!Number.isInteger(tile) || !Number.isInteger(overlap) || overlap < 0 || tile - 2 * overlap < 8) {
    throw new RangeError(`tile ${tile} with overlap ${overlap} leaves no usable centre`);
  }
  const session = sessionFor(spec.id, spec.file);
  const core = tile - 2 * overlap;
  const winW = Math.min(tile, img.width);
  const winH = Math.min(tile, img.height);
  const out: RawImage = {
    width: img.width * scale,
    height: img.height * scale,
    channels: img.channels,
    data: new Uint8Array(img.width * scale * img.height * scale * img.channels),
  };

  for (let cy0 = 0; cy0 < img.height; cy0 += core) {
    const cy1 = Math.min(img.height, cy0 + core);
    const wy0 = windowStart(cy0, overlap, img.height, winH);
    for (let cx0 = 0; cx0 < img.width; cx0 += core) {
      const cx1 = Math.min(img.width, cx0 + core);
      const wx0 = windowStart(cx0, overlap, img.width, winW);
      const input = new ort.Tensor('float32', readWindow(img, wx0, wy0, winW, winH), [1, 3, winH, winW]);
      const result = await session.run({ input });
      const output = result.output;
      const ow = winW * scale;
      const oh = winH * scale;
      if (!output || output.dims[2] !== oh || output.dims[3] !== ow) {
        throw new ModelRunError(
          spec.id,
          `unexpected output shape ${output ? output.dims.join('×') : 'none'}`,
        );
      }
      const planes = output.data as Float32Array;
      const plane = ow * oh;
      // Copy only this tile's centre into the page.
      for (let y = cy0 * scale; y < cy1 * scale; y++) {
        const ty = y - wy0 * scale;
        for (let x = cx0 * scale; x < cx1 * scale; x++) {
          const t = ty * ow + (x - wx0 * scale);
          const r = planes[t]!;
          const g = planes[plane + t]!;
          const b = planes[2 * plane + t]!;
          const dst = (y * out.width + x) * out.channels;
          if (out.channels === 1) {
            out.data[dst] = toByte((r + g + b) / 3);
          } else {
            out.data[dst] = toByte(r);
            out.data[dst + 1] = toByte(g);
            out.data[dst + 2] = toByte(b);
          }
        }
      }
      input.dispose();
      output.dispose();
    }
  }
  if (img.channels === 4) writeAlpha(img, out, scale);
  return out;
}
