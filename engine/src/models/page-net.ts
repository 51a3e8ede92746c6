// The trained page restoration network (engine/training: a small U-Net trained on generated damaged/clean page
// pairs), run with ONNX Runtime tile by tile: damaged page (grey or RGB) in, clean grey page out.
import { existsSync } from 'node:fs';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import type { RawImage } from '../image.js';
import { ModelRunError } from './errors.js';
import { sessionForFile } from './session.js';

export const PAGE_NET_ID = 'page-net';
/** engine/weights: committed with the repository (the ONNX file and its manifest, written by `make train`). */
export const PAGE_NET_FILE = path.resolve(import.meta.dirname, '../../weights/page-net.onnx');
/** The network halves the page four times: windows are padded to a multiple of this. */
const MULTIPLE = 32;
/** Context computed around each tile and dropped: the network sees about 100 px on each side of a point. */
const MARGIN = 128;
/** Largest window, in pixels: a 200-DPI letter page runs in one piece; larger pages in tiles (bounded memory). */
const MAX_WINDOW_PIXELS = 4_300_000;

export function pageNetAvailable(file = PAGE_NET_FILE): boolean {
  return existsSync(file);
}

export interface Tile {
  /** Kept part of the page */
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Window run through the network (kept part plus margins, inside the page) */
  wx0: number;
  wy0: number;
  wx1: number;
  wy1: number;
}

const roundUp = (n: number) => Math.ceil(n / MULTIPLE) * MULTIPLE;
// Windows start on the network's grid: it folds and halves the page, so a window shifted by a pixel would see
// every letter on another phase and restore it a little differently from its neighbour.
const alignDown = (n: number) => Math.max(0, Math.floor(n / MULTIPLE) * MULTIPLE);

/** The fewest tiles, in a grid, whose padded windows stay under the pixel budget. */
export function planTiles(width: number, height: number, maxPixels = MAX_WINDOW_PIXELS): Tile[] {
  let nx = 1;
  let ny = 1;
  const windowPixels = () => {
    const w = Math.ceil(width / nx) + (nx > 1 ? 2 * MARGIN + MULTIPLE : 0);
    const h = Math.ceil(height / ny) + (ny > 1 ? 2 * MARGIN + MULTIPLE : 0);
    return roundUp(w) * roundUp(h);
  };
  while (windowPixels() > maxPixels) {
    if (Math.ceil(width / nx) >= Math.ceil(height / ny)) nx++;
    else ny++;
  }
  const tiles: Tile[] = [];
  for (let j = 0; j < ny; j++) {
    const y0 = Math.floor((j * height) / ny);
    const y1 = Math.floor(((j + 1) * height) / ny);
    for (let i = 0; i < nx; i++) {
      const x0 = Math.floor((i * width) / nx);
      const x1 = Math.floor(((i + 1) * width) / nx);
      tiles.push({
        x0,
        y0,
        x1,
        y1,
        wx0: alignDown(x0 - MARGIN),
        wy0: alignDown(y0 - MARGIN),
        wx1: Math.min(width, x1 + MARGIN),
        wy1: Math.min(height, y1 + MARGIN),
      });
    }
  }
  return tiles;
}

/** The window as three float planes in [0, 1], padded to the network's multiple by repeating the edge pixels. */
function readWindow(img: RawImage, t: Tile, pw: number, ph: number): Float32Array {
  const planes = new Float32Array(3 * pw * ph);
  const plane = pw * ph;
  const c = img.channels;
  for (let y = 0; y < ph; y++) {
    const sy = Math.min(t.wy0 + y, t.wy1 - 1);
    for (let x = 0; x < pw; x++) {
      const sx = Math.min(t.wx0 + x, t.wx1 - 1);
      const s = (sy * img.width + sx) * c;
      const d = y * pw + x;
      if (c === 1) {
        const v = img.data[s]! / 255;
        planes[d] = v;
        planes[plane + d] = v;
        planes[2 * plane + d] = v;
      } else {
        planes[d] = img.data[s]! / 255;
        planes[plane + d] = img.data[s + 1]! / 255;
        planes[2 * plane + d] = img.data[s + 2]! / 255;
      }
    }
  }
  return planes;
}

/** Runs the network over the page; the result is grey, the page's size. */
export async function runPageNet(img: RawImage, maxWindowPixels = MAX_WINDOW_PIXELS): Promise<RawImage> {
  const out: RawImage = {
    width: img.width,
    height: img.height,
    channels: 1,
    data: new Uint8Array(img.width * img.height),
  };
  const net = sessionForFile(PAGE_NET_ID, PAGE_NET_FILE);
  for (const t of planTiles(img.width, img.height, maxWindowPixels)) {
    const pw = roundUp(t.wx1 - t.wx0);
    const ph = roundUp(t.wy1 - t.wy0);
    const page = new ort.Tensor('float32', readWindow(img, t, pw, ph), [1, 3, ph, pw]);
    const result = await net.run({ page });
    const restored = result.restored;
    if (!restored || restored.dims[2] !== ph || restored.dims[3] !== pw) {
      throw new ModelRunError(PAGE_NET_ID, `unexpected output shape ${restored?.dims.join('×') ?? 'none'}`);
    }
    const values = restored.data as Float32Array;
    for (let y = t.y0; y < t.y1; y++) {
      const row = (y - t.wy0) * pw - t.wx0;
      for (let x = t.x0; x < t.x1; x++) {
        const v = values[row + x]!;
        out.data[y * img.width + x] = v <= 0 ? 0 : v >= 1 ? 255 : Math.round(v * 255);
      }
    }
    page.dispose();
    restored.dispose();
  }
  return out;
}
