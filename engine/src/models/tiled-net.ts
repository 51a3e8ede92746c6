// Runs a trained image-to-image network (engine/training) with ONNX Runtime, window by window: the page or photo is
// cut into windows under a pixel budget (bounded memory), each window padded to the network's multiple and run
// with context around it that is computed and dropped, so no seam shows.
import * as ort from 'onnxruntime-node';
import type { RawImage } from '../image.js';
import { ModelRunError } from './errors.js';
import { sessionForFile } from './session.js';

/** What the engine needs to know to run one of its trained networks. */
export interface TiledNet {
  id: string;
  /** The ONNX file (committed under engine/weights) */
  file: string;
  /** Names of the network's input and output tensors */
  input: string;
  output: string;
  /** Windows are padded to a multiple of this (the network folds or halves the image) */
  multiple: number;
  /** Context computed around each tile and dropped */
  margin: number;
  /** Channels the network returns: 1 (a grey page) or 3 (a colour photo) */
  outChannels: 1 | 3;
}

export interface Tile {
  /** Kept part of the image */
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Window run through the network (kept part plus margins, inside the image) */
  wx0: number;
  wy0: number;
  wx1: number;
  wy1: number;
}

const roundUp = (n: number, multiple: number) => Math.ceil(n / multiple) * multiple;

/** The fewest tiles, in a grid, whose padded windows stay under the pixel budget. */
export function planTiles(
  width: number,
  height: number,
  maxPixels: number,
  multiple: number,
  margin: number,
): Tile[] {
  // Windows start on the network's grid: it folds and halves the image, so a window shifted by a pixel would see
  // every detail on another phase and restore it a little differently from its neighbour.
  const alignDown = (n: number) => Math.max(0, Math.floor(n / multiple) * multiple);
  let nx = 1;
  let ny = 1;
  const windowPixels = () => {
    const w = Math.ceil(width / nx) + (nx > 1 ? 2 * margin + multiple : 0);
    const h = Math.ceil(height / ny) + (ny > 1 ? 2 * margin + multiple : 0);
    return roundUp(w, multiple) * roundUp(h, multiple);
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
        wx0: alignDown(x0 - margin),
        wy0: alignDown(y0 - margin),
        wx1: Math.min(width, x1 + margin),
        wy1: Math.min(height, y1 + margin),
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

const toByte = (v: number) => (v <= 0 ? 0 : v >= 1 ? 255 : Math.round(v * 255));

/**
 * Runs the network over the image. A grey-page network returns one channel; a colour network returns the input's
 * layout (a grey input stays grey, as the mean of the three planes; an alpha channel is kept).
 */
export async function runTiledNet(net: TiledNet, img: RawImage, maxWindowPixels: number): Promise<RawImage> {
  const channels = net.outChannels === 1 ? 1 : img.channels;
  const out: RawImage = {
    width: img.width,
    height: img.height,
    channels,
    data: new Uint8Array(img.width * img.height * channels),
  };
  const session = sessionForFile(net.id, net.file);
  for (const t of planTiles(img.width, img.height, maxWindowPixels, net.multiple, net.margin)) {
    const pw = roundUp(t.wx1 - t.wx0, net.multiple);
    const ph = roundUp(t.wy1 - t.wy0, net.multiple);
    const input = new ort.Tensor('float32', readWindow(img, t, pw, ph), [1, 3, ph, pw]);
    const result = await session.run({ [net.input]: input });
    const restored = result[net.output];
    if (
      !restored ||
      restored.dims[1] !== net.outChannels ||
      restored.dims[2] !== ph ||
      restored.dims[3] !== pw
    ) {
      throw new ModelRunError(net.id, `unexpected output shape ${restored?.dims.join('×') ?? 'none'}`);
    }
    const values = restored.data as Float32Array;
    const plane = pw * ph;
    for (let y = t.y0; y < t.y1; y++) {
      const row = (y - t.wy0) * pw - t.wx0;
      for (let x = t.x0; x < t.x1; x++) {
        const s = row + x;
        const d = (y * img.width + x) * channels;
        if (net.outChannels === 1) out.data[d] = toByte(values[s]!);
        else if (channels === 1)
          out.data[d] = toByte((values[s]! + values[plane + s]! + values[2 * plane + s]!) / 3);
        else {
          out.data[d] = toByte(values[s]!);
          out.data[d + 1] = toByte(values[plane + s]!);
          out.data[d + 2] = toByte(values[2 * plane + s]!);
          if (channels === 4) out.data[d + 3] = img.data[d + 3]!;
        }
      }
    }
    input.dispose();
    restored.dispose();
  }
  return out;
}
