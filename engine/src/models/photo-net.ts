// The trained photo networks (engine/training/photo_model.py: a small residual network trained on photos from
// Debian's wallpaper packages), run with ONNX Runtime window by window: damaged photo in, restored photo out, in the
// input's channel layout. The photo network learned enlargement, JPEG and light noise; the dust network, with the
// same shape, learned dust, hairs and scratches.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { RawImage } from '../image.js';
import { runTiledNet, type TiledNet } from './tiled-net.js';

export const PHOTO_NET_ID = 'photo-net';
/** engine/weights: committed with the repository (the ONNX file and its manifest, written by `make train-photo`). */
export const PHOTO_NET_FILE = path.resolve(import.meta.dirname, '../../weights/photo-net.onnx');
export const DUST_NET_ID = 'dust-net';
export const DUST_NET_FILE = path.resolve(import.meta.dirname, '../../weights/dust-net.onnx');
/** Largest window, in pixels: a 1 MP photo runs in one piece; larger photos in windows (bounded memory). */
const MAX_WINDOW_PIXELS = 1_100_000;

const PHOTO_NET: TiledNet = {
  id: PHOTO_NET_ID,
  file: PHOTO_NET_FILE,
  input: 'photo',
  output: 'restored',
  // The network folds 2×2 pixels into channels; windows start on the 8 px JPEG grid.
  multiple: 8,
  // Its convolutions see about 30 px on each side of a point.
  margin: 48,
  outChannels: 3,
};

/** The dust network: the photo network's shape and windows, its own weights. */
const DUST_NET: TiledNet = { ...PHOTO_NET, id: DUST_NET_ID, file: DUST_NET_FILE };

export function photoNetAvailable(file = PHOTO_NET_FILE): boolean {
  return existsSync(file);
}

/** Runs the network over the photo; the result has the photo's size and channels. */
export function runPhotoNet(img: RawImage, maxWindowPixels = MAX_WINDOW_PIXELS): Promise<RawImage> {
  return runTiledNet(PHOTO_NET, img, maxWindowPixels);
}

/** Runs the dust network over the photo; the result has the photo's size and channels. */
export function runDustNet(img: RawImage, maxWindowPixels = MAX_WINDOW_PIXELS): Promise<RawImage> {
  return runTiledNet(DUST_NET, img, maxWindowPixels);
}
