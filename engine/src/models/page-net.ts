// The trained page restoration network (engine/training: a small U-Net trained on generated damaged/clean page
// pairs), run with ONNX Runtime tile by tile: damaged page (grey or RGB) in, clean grey page out.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { RawImage } from '../image.js';
import { planTiles as planNetTiles, runTiledNet, type Tile, type TiledNet } from './tiled-net.js';

export type { Tile } from './tiled-net.js';

export const PAGE_NET_ID = 'page-net';
/** engine/weights: committed with the repository (the ONNX file and its manifest, written by `make train`). */
export const PAGE_NET_FILE = path.resolve(import.meta.dirname, '../../weights/page-net.onnx');
/** Largest window, in pixels: a 200-DPI letter page runs in one piece; larger pages in tiles (bounded memory). */
const MAX_WINDOW_PIXELS = 4_300_000;

const PAGE_NET: TiledNet = {
  id: PAGE_NET_ID,
  file: PAGE_NET_FILE,
  input: 'page',
  output: 'restored',
  // The network halves the page four times.
  multiple: 32,
  // The network sees about 100 px on each side of a point.
  margin: 128,
  outChannels: 1,
};

export function pageNetAvailable(file = PAGE_NET_FILE): boolean {
  return existsSync(file);
}

/** The fewest tiles, in a grid, whose padded windows stay under the pixel budget. */
export function planTiles(width: number, height: number, maxPixels = MAX_WINDOW_PIXELS): Tile[] {
  return planNetTiles(width, height, maxPixels, PAGE_NET.multiple, PAGE_NET.margin);
}

/** Runs the network over the page; the result is grey, the page's size. */
export function runPageNet(img: RawImage, maxWindowPixels = MAX_WINDOW_PIXELS): Promise<RawImage> {
  return runTiledNet(PAGE_NET, img, maxWindowPixels);
}
