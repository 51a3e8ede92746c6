// The trained photo networks as plan steps: JPEG blocking, the blur of an enlarged small photo and light noise in
// one pass; dust, hairs and scratches in another.
import { runDustNet, runPhotoNet } from '../models/photo-net.js';
import { createImage, type RawImage } from '../image.js';
import { medianFilter, rankFilter, toGrey } from '../pixels/index.js';
import type { Step } from './registry.js';

export const restorePhotoNet: Step = {
  name: 'restore-photo-net',
  kind: 'photo',
  description:
    'Trained photo network (engine/weights/photo-net.onnx): JPEG blocking, enlargement blur and light noise removed',
  run: (img) => runPhotoNet(img),
};

/**
 * Grey levels (in any channel) by which the dust network must change a pixel for the change to be kept. Dust and
 * scratches stand out by tens of levels; below that the network's output differs from a photo by a faint smoothing,
 * which this step has no reason to make.
 */
const DUST_CHANGE = 10;

/**
 * Edge strength (grey levels per pixel, on the 7×7-median picture, within 2 px) from which the network may not
 * darken a pixel. A thin light scratch and a glint along a rim look alike to it; a scratch crosses the picture,
 * while highlights sit on its contours. Dev photos with dust alone (seeds 5301–5304, 11 photos): 22.0 → 29.0 dB
 * gained in all, a coffee cup's rims −2.54 → −0.05 dB.
 */
const CONTOUR = 20;

export const removeDustNet: Step = {
  name: 'remove-dust-net',
  kind: 'photo',
  description:
    'Trained dust network (engine/weights/dust-net.onnx): dust, hairs and thin scratches replaced; every other pixel kept',
  run: async (img) => keepDustChanges(img, await runDustNet(img)),
  selfCheck: dustRejected,
};

/**
 * The input with the network's pixels where it changed them by more than DUST_CHANGE, except where it darkened a
 * pixel on a contour of the picture; 1 px around each kept pixel too (a speck's soft rim).
 */
function keepDustChanges(input: RawImage, output: RawImage): RawImage {
  const { width, height, channels } = input;
  const grey = toGrey(input, 'luma').data;
  const contour = rankFilter(
    edgeStrength(medianFilter(grey, width, height, 3), width, height),
    width,
    height,
    2,
    true,
  );
  const outGrey = toGrey(output, 'luma').data;
  const kept = new Uint8Array(width * height);
  for (let i = 0; i < kept.length; i++) {
    let strong = false;
    for (let c = 0; c < channels && !strong; c++)
      strong = Math.abs(output.data[i * channels + c]! - input.data[i * channels + c]!) > DUST_CHANGE;
    if (strong && (outGrey[i]! >= grey[i]! || contour[i]! < CONTOUR)) kept[i] = 1;
  }
  const keep = rankFilter(kept, width, height, 1, true);
  const out = createImage(width, height, channels);
  for (let i = 0; i < keep.length; i++) {
    const from = keep[i] ? output.data : input.data;
    for (let c = 0; c < channels; c++) out.data[i * channels + c] = from[i * channels + c]!;
  }
  return out;
}

/** Sobel gradient magnitude / 8 (grey levels per pixel), clamped to 255; 0 on the border. */
function edgeStrength(src: Uint8Array, width: number, height: number): Uint8Array {
  const out = new Uint8Array(src.length);
  for (let y = 1; y < height - 1; y++)
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const [a, b, c] = [src[i - width - 1]!, src[i - width]!, src[i - width + 1]!];
      const [d, f] = [src[i - 1]!, src[i + 1]!];
      const [g, h, k] = [src[i + width - 1]!, src[i + width]!, src[i + width + 1]!];
      const gx = c + 2 * f + k - a - 2 * d - g;
      const gy = g + 2 * h + k - a - 2 * b - c;
      out[i] = Math.min(255, Math.hypot(gx, gy) / 8);
    }
  return out;
}

/** Luma levels by which the dust network must brighten a pixel for it to count as part of a dark speck taken out. */
const DARK_SPECK_LIFT = 60;

/**
 * Pixels of dark specks per megapixel the dust network must take out for its output to be kept. The speck count
 * that plans it (analysis/measure-photo.ts `specks`) also counts a sharp photo's own small bright points and fine detail; the
 * network dims highlights, glints and stars like light dust, but leaves dark detail alone, and dust on a print shows
 * dark (as much of it as light). Dev photos (seeds 5301–5304): with dust 515–1100, and 200 on one lightly dusted
 * photo where the network gained nothing (−0.05 dB); the same photos' sources without dust 0–94. Lightly dusted
 * photos reach 120–300 (dev seeds 8802 and 8831–8838: photos with dust and nothing else; their sources without
 * dust 0–89): on five of the six between 150 and 300 the network gained 2.0 to 5.9 dB; it lost 1.6 dB on
 * one, a finely textured photo it roughs up without dust too.
 */
export const MIN_DARK_SPECKS = 150;

/** Pixels per megapixel that the output shows brighter than the input by more than DARK_SPECK_LIFT (luma). */
export function darkSpecksRemoved(before: RawImage, after: RawImage): number {
  const a = toGrey(before, 'luma').data;
  const b = toGrey(after, 'luma').data;
  let lifted = 0;
  for (let i = 0; i < a.length; i++) if (b[i]! - a[i]! > DARK_SPECK_LIFT) lifted++;
  return (lifted * 1e6) / a.length;
}

/**
 * Largest share of a photo's pixels the dust network may replace (dust and a pixel around it): dev photos with dust
 * 2.8–7.6 %.
 */
export const MAX_DUST_SHARE = 0.15;

/** Share of pixels that differ in any channel. */
function changedShare(before: RawImage, after: RawImage): number {
  const { channels } = before;
  const n = before.width * before.height;
  let changed = 0;
  for (let i = 0; i < n; i++)
    for (let c = 0; c < channels; c++)
      if (before.data[i * channels + c] !== after.data[i * channels + c]) {
        changed++;
        break;
      }
  return changed / n;
}

/**
 * The dust network's own check, in place of the photo self-check's structure check (taking out heavy dust changes a
 * photo's 4×4 means as much as a change of structure would): it must have taken out dark specks, and replaced at
 * most MAX_DUST_SHARE of the pixels (the step keeps the input's pixels everywhere else).
 */
function dustRejected(before: RawImage, after: RawImage): string | undefined {
  const step = removeDustNet.name;
  const removed = darkSpecksRemoved(before, after);
  if (removed < MIN_DARK_SPECKS)
    return `photo self-check: ${step} took out too few dark specks to be dust (${Math.round(removed)} px per MP < ${MIN_DARK_SPECKS}); step skipped`;
  const share = changedShare(before, after);
  if (share > MAX_DUST_SHARE)
    return `photo self-check: ${step} replaced ${(share * 100).toFixed(1)} % of the photo (more than ${MAX_DUST_SHARE * 100} %); step skipped`;
  return undefined;
}
