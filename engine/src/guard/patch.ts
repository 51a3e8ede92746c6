// Pixel and word helpers for the guard's word-by-word fallback (word-fallback.ts): padded boxes, pixels copied
// from another image inside boxes (plainly or with their levels stretched), and the text layer's words merged.
import type { RawImage } from '../image.js';
import type { OcrWord } from '../io/encode.js';
import { intersects, type Box } from './changes.js';

/** The boxes grown by `pad` pixels on every side and clipped to the image (whole pixels). */
export function padBoxes(boxes: readonly Box[], pad: number, width: number, height: number): Box[] {
  return boxes.map((b) => ({
    x0: Math.max(0, Math.floor(b.x0 - pad)),
    y0: Math.max(0, Math.floor(b.y0 - pad)),
    x1: Math.min(width, Math.ceil(b.x1 + pad)),
    y1: Math.min(height, Math.ceil(b.y1 + pad)),
  }));
}

/** A copy of `base` with the pixels inside the boxes taken from `from` (same size and channels). */
export function patchBoxes(base: RawImage, from: RawImage, boxes: readonly Box[]): RawImage {
  if (base.width !== from.width || base.height !== from.height || base.channels !== from.channels) {
    throw new RangeError('patchBoxes needs two images of the same size and channels');
  }
  const data = Uint8Array.from(base.data);
  const row = base.width * base.channels;
  for (const b of boxes) {
    for (let y = b.y0; y < b.y1; y++) {
      const start = y * row + b.x0 * base.channels;
      const end = y * row + b.x1 * base.channels;
      data.set(from.data.subarray(start, end), start);
    }
  }
  return { ...base, data };
}

/** Darkest ink a patched word is given: pale words are darkened to this, darker ones keep their tone. */
const PATCH_INK = 60;

/**
 * A copy of grey `base` with each box taken from grey `from` with its levels stretched: the box's paper (its
 * 90th percentile) becomes white and its darkest ink (1st percentile) at most PATCH_INK, so a word brought back
 * sits on white like the rest of the page and a pale one reads as ink. Monotonic: no stroke is lost or added.
 */
export function patchBoxesLevelled(base: RawImage, from: RawImage, boxes: readonly Box[]): RawImage {
  if (base.channels !== 1 || from.channels !== 1) return patchBoxes(base, from, boxes);
  const out = { ...base, data: Uint8Array.from(base.data) };
  const { width } = base;
  for (const b of boxes) {
    const values: number[] = [];
    for (let y = b.y0; y < b.y1; y++)
      for (let x = b.x0; x < b.x1; x++) values.push(from.data[y * width + x]!);
    if (values.length === 0) continue;
    values.sort((p, q) => p - q);
    const lo = values[Math.floor(values.length * 0.01)]!;
    const hi = values[Math.floor(values.length * 0.9)]!;
    const ink = Math.min(lo, PATCH_INK);
    const gain = hi > lo ? (255 - ink) / (hi - lo) : 1;
    for (let y = b.y0; y < b.y1; y++) {
      for (let x = b.x0; x < b.x1; x++) {
        const i = y * width + x;
        out.data[i] = Math.min(255, Math.max(0, Math.round(ink + (from.data[i]! - lo) * gain)));
      }
    }
  }
  return out;
}

/**
 * The page's words after patching: the full output's outside the boxes, and inside them the re-read words, put
 * where the box's first replaced word stood so the reading order holds (others at the end).
 */
export function mergeWords(
  outside: readonly OcrWord[],
  inside: readonly OcrWord[],
  boxes: readonly Box[],
): OcrWord[] {
  const boxOf = (w: OcrWord) => boxes.findIndex((b) => intersects(w, b));
  const insideByBox = new Map<number, OcrWord[]>();
  for (const w of inside) {
    const k = boxOf(w);
    insideByBox.set(k, [...(insideByBox.get(k) ?? []), w]);
  }
  const merged: OcrWord[] = [];
  for (const w of outside) {
    const k = boxOf(w);
    if (k < 0) merged.push(w);
    else {
      merged.push(...(insideByBox.get(k) ?? []));
      insideByBox.delete(k);
    }
  }
  for (const rest of insideByBox.values()) merged.push(...rest);
  return merged;
}
