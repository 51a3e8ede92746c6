// Where did the restoration change the ink? The word guard only needs to re-read the input where the output's
// ink differs from the input's beyond edge jitter: elsewhere the output shows the input's own strokes, so it
// cannot have lost or rewritten a word there, and its reading stands for the input's.
import { estimateSkew } from '../analysis/measure.js';
import type { RawImage } from '../image.js';
import { deskew } from '../steps/document.js';
import { toGrey, type Grey } from '../pixels/index.js';
import { inkMask } from '../pixels/ink.js';
import { labelComponents } from '../pixels/components.js';

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface InkChangeOptions {
  /** Resolution of both images (they must have the same size). */
  dpi: number;
  /**
   * Smallest changed blob that counts, in pixels at 150 DPI (scaled with the resolution²). Edge jitter of
   * up to one pixel around the other image's ink never counts.
   */
  minArea?: number;
}

export interface InkChanges {
  /** Boxes (in the output's pixels) of ink removed or added beyond one pixel of the other image's ink. */
  boxes: Box[];
  /** The input's grey pixels in the output's geometry (rotated the same way when the output was deskewed). */
  aligned: Grey;
  /** Rotation (degrees) applied to the input to align it with the output; 0 when none was needed. */
  angle: number;
  /** Ink (1) of the aligned input and of the output. */
  inputInk: Uint8Array;
  outputInk: Uint8Array;
  /** Boxes of faint input ink the output draws solid (see SOLID_INK). */
  darkened: Box[];
}

export function intersects(a: Box, b: Box): boolean {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

/** The box (or word, line) scaled by sx, sy: a reading of a resized image in the other image's pixels. */
export function scaled<T extends Box>(b: T, sx: number, sy: number): T {
  return { ...b, x0: b.x0 * sx, x1: b.x1 * sx, y0: b.y0 * sy, y1: b.y1 * sy };
}

/** The box (or word, line) moved by dx, dy: a reading of a crop back in page coordinates. */
export function moved<T extends Box>(b: T, dx: number, dy: number): T {
  return { ...b, x0: b.x0 + dx, x1: b.x1 + dx, y0: b.y0 + dy, y1: b.y1 + dy };
}

/**
 * Where the text in a box of a skewed page lies once deskew turned the page by `angle` degrees about its centre,
 * keeping its size. Skewed text lies slanted in its box: a line's box is taller than its letters by its width ×
 * tan(angle). Deskew straightens it, so its box on the turned page is centred where the box's centre went, as wide,
 * and that much less tall (at least half as tall: a box of no slanted text only moves). The box around the four
 * turned corners would instead grow by as much again, and a line's box would take in half of the lines beside it.
 */
export function turned<T extends Box>(b: T, angle: number, width: number, height: number): T {
  if (angle === 0) return b;
  const rad = (angle * Math.PI) / 180;
  const cx = width / 2;
  const cy = height / 2;
  const x = (b.x0 + b.x1) / 2 - cx;
  const y = (b.y0 + b.y1) / 2 - cy;
  // Clockwise on the screen (y grows downwards), as sharp turns a positive angle.
  const mx = cx + x * Math.cos(rad) - y * Math.sin(rad);
  const my = cy + x * Math.sin(rad) + y * Math.cos(rad);
  const w = b.x1 - b.x0;
  const h = Math.max((b.y1 - b.y0) / 2, b.y1 - b.y0 - w * Math.abs(Math.tan(rad)));
  return { ...b, x0: mx - w / 2, y0: my - h / 2, x1: mx + w / 2, y1: my + h / 2 };
}

export function union(a: Box, b: Box): Box {
  return {
    x0: Math.min(a.x0, b.x0),
    y0: Math.min(a.y0, b.y0),
    x1: Math.max(a.x1, b.x1),
    y1: Math.max(a.y1, b.y1),
  };
}

/**
 * The grey pixels inside the boxes (whole pixels, inside the image), cropped to the boxes' extent and white
 * elsewhere: one OCR call reads all the boxes; x0/y0 shift what it reads back to page coordinates.
 */
export function maskedCrop(grey: Grey, boxes: readonly Box[]): { image: Grey; x0: number; y0: number } {
  const clipped = boxes.map((b) => ({
    x0: Math.max(0, Math.floor(b.x0)),
    y0: Math.max(0, Math.floor(b.y0)),
    x1: Math.min(grey.width, Math.ceil(b.x1)),
    y1: Math.min(grey.height, Math.ceil(b.y1)),
  }));
  const all = clipped.reduce(union);
  const w = Math.max(1, all.x1 - all.x0);
  const h = Math.max(1, all.y1 - all.y0);
  const data = new Uint8Array(w * h).fill(255);
  for (const b of clipped) {
    for (let y = b.y0; y < b.y1; y++) {
      const row = y * grey.width;
      data.set(grey.data.subarray(row + b.x0, row + b.x1), (y - all.y0) * w + b.x0 - all.x0);
    }
  }
  return { image: { width: w, height: h, channels: 1, data }, x0: all.x0, y0: all.y0 };
}

/** 3 × 3 dilation of a 0/1 mask. */
function dilate(mask: Uint8Array, w: number, h: number): Uint8Array {
  const rows = new Uint8Array(mask.length);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      rows[i] = mask[i]! | (x > 0 ? mask[i - 1]! : 0) | (x < w - 1 ? mask[i + 1]! : 0);
    }
  }
  const out = new Uint8Array(mask.length);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      out[i] = rows[i]! | (y > 0 ? rows[i - w]! : 0) | (y < h - 1 ? rows[i + w]! : 0);
    }
  }
  return out;
}

/**
 * Bounding boxes of the 8-connected blobs of a 0/1 mask with at least minArea pixels. With `tile`, a blob wider
 * or taller than a tile comes back as the tiles (tile × tile squares of a fixed grid) it touches: a cleaned page
 * border or a removed stain then asks for the places it covers, not for its whole bounding box.
 */
export function blobs(
  mask: Uint8Array,
  w: number,
  h: number,
  minArea: number,
  keep: (box: Box, area: number) => boolean = () => true,
  tile = 0,
): Box[] {
  const tilesX = tile > 0 ? Math.ceil(w / tile) : 0;
  const touched = new Set<number>();
  const { count, areas, boxes: found, order, starts } = labelComponents(mask, w, h, { order: tile > 0 });
  const boxes: Box[] = [];
  for (let k = 0; k < count; k++) {
    const area = areas[k]!;
    const { x0, y0, x1, y1 } = found[k]!;
    touched.clear();
    // The tiles in the order the fill reached them.
    if (tile > 0) {
      for (const i of order!.subarray(starts![k], starts![k + 1])) {
        const x = i % w;
        const y = (i - x) / w;
        touched.add(Math.floor(y / tile) * tilesX + Math.floor(x / tile));
      }
    }
    const box = { x0, y0, x1: x1 + 1, y1: y1 + 1 };
    if (area < minArea || !keep(box, area)) continue;
    if (tile > 0 && (box.x1 - box.x0 > tile || box.y1 - box.y0 > tile)) {
      for (const t of touched) {
        const tx = (t % tilesX) * tile;
        const ty = Math.floor(t / tilesX) * tile;
        boxes.push({
          x0: Math.max(tx, box.x0),
          y0: Math.max(ty, box.y0),
          x1: Math.min(tx + tile, box.x1),
          y1: Math.min(ty + tile, box.y1),
        });
      }
    } else boxes.push(box);
  }
  return boxes;
}

/**
 * How much darker than its neighbourhood ink is solid (inkMask's `darker`): print measures 0.65–0.8 deep, print
 * faded under a stain 0.3–0.35 (fresh seed 406805 doc_018). Where the output draws faint ink solid, its reading
 * cannot stand for the input's, and a crop of the input reads faint words better than the whole page does (see
 * InkChanges.darkened).
 */
const SOLID_INK = 0.5;

/** The input's side of inkChanges, derived once per input image and resolution. */
interface InputInk {
  grey: Grey;
  skew: number;
  /** By the angle the input was turned to align it with an output (0 or its skew). */
  aligned: Map<number, Promise<{ grey: Grey; ink: Uint8Array; near: Uint8Array; solidNear: Uint8Array }>>;
}

/**
 * A page's guard checks several candidates (the network's page, the classical plan's, fallbacks) against the same
 * input: its grey, skew and ink are measured once and kept while the input image lives. Nothing here writes to them.
 */
const inputInks = new WeakMap<RawImage, Map<number, InputInk>>();

function inputInkOf(input: RawImage, dpi: number): InputInk {
  let byDpi = inputInks.get(input);
  if (!byDpi) inputInks.set(input, (byDpi = new Map<number, InputInk>()));
  let found = byDpi.get(dpi);
  if (!found) {
    const grey = toGrey(input, 'max');
    found = { grey, skew: estimateSkew(grey, dpi), aligned: new Map() };
    byDpi.set(dpi, found);
  }
  return found;
}

function alignedInk(of: InputInk, angle: number, dpi: number) {
  let found = of.aligned.get(angle);
  if (!found) {
    found = (async () => {
      const grey = angle === 0 ? of.grey : ((await deskew.run(of.grey, { angle })) as Grey);
      const ink = inkMask(grey, dpi);
      const solid = inkMask(grey, dpi, SOLID_INK);
      return {
        grey,
        ink,
        near: dilate(ink, grey.width, grey.height),
        solidNear: dilate(solid, grey.width, grey.height),
      };
    })();
    of.aligned.set(angle, found);
  }
  return found;
}

/**
 * Aligns the input with the output (the plan deskews by the input's measured skew; when the output no longer
 * shows that skew, the input is rotated the same way) and finds where their ink differs.
 */
export async function inkChanges(
  input: RawImage,
  output: RawImage,
  opts: InkChangeOptions,
): Promise<InkChanges> {
  if (input.width !== output.width || input.height !== output.height) {
    throw new RangeError('inkChanges compares images of the same size');
  }
  const inputInk = inputInkOf(input, opts.dpi);
  const outGrey = toGrey(output, 'max');
  const { skew } = inputInk;
  const angle =
    Math.abs(skew) >= 0.3 && Math.abs(estimateSkew(outGrey, opts.dpi)) < Math.abs(skew) / 2 ? skew : 0;
  const {
    grey: aligned,
    ink: inInk,
    near: inNear,
    solidNear: inSolidNear,
  } = await alignedInk(inputInk, angle, opts.dpi);
  const { width: w, height: h } = outGrey;
  const outInk = inkMask(outGrey, opts.dpi);
  const outSolid = inkMask(outGrey, opts.dpi, SOLID_INK);
  const outNear = dilate(outInk, w, h);
  const changed = new Uint8Array(w * h);
  const darkened = new Uint8Array(w * h);
  for (let i = 0; i < changed.length; i++) {
    // Removed: input ink with no output ink within a pixel; added: the other way round.
    changed[i] = (inInk[i]! & (outNear[i]! ^ 1)) | (outInk[i]! & (inNear[i]! ^ 1));
    // Darkened: solid output ink on faint input ink, with no solid input ink within a pixel.
    darkened[i] = outSolid[i]! & inInk[i]! & (inSolidNear[i]! ^ 1);
  }
  const scale = (opts.dpi / 150) ** 2;
  const tile = Math.round(opts.dpi / 4);
  const minArea = Math.max(1, Math.round((opts.minArea ?? 6) * scale));
  const boxes = blobs(changed, w, h, minArea, undefined, tile);
  return {
    boxes,
    aligned,
    angle,
    inputInk: inInk,
    outputInk: outInk,
    darkened: blobs(darkened, w, h, minArea),
  };
}

/**
 * Glyph-like blobs of the input's ink that no output word covers: text the output did not read at all (a
 * line gone pale, a word the output's reading skipped). Thin rules and blobs taller than a large heading
 * are left out; so are specks below minArea (pixels at 150 DPI), and slivers narrower than half a letter
 * against a word's box (a letter edge the word's box cut off: Tesseract's boxes can miss a few pixels).
 */
export function unreadInk(
  ink: Uint8Array,
  words: readonly Box[],
  width: number,
  height: number,
  dpi: number,
  minArea = 12,
): Box[] {
  const rest = Uint8Array.from(ink);
  const pad = Math.max(1, Math.round(dpi / 75));
  for (const word of words) {
    const x0 = Math.max(0, Math.floor(word.x0) - pad);
    const x1 = Math.min(width, Math.ceil(word.x1) + pad);
    for (
      let y = Math.max(0, Math.floor(word.y0) - pad);
      y < Math.min(height, Math.ceil(word.y1) + pad);
      y++
    ) {
      rest.fill(0, y * width + x0, y * width + x1);
    }
  }
  const scale = dpi / 150;
  const thin = 3 * scale;
  const tall = 0.4 * dpi;
  const sliverOf = (b: Box): boolean =>
    words.some(
      (word) =>
        b.x0 <= word.x1 + pad + 1 &&
        word.x0 - pad - 1 <= b.x1 &&
        b.y0 <= word.y1 + pad + 1 &&
        word.y0 - pad - 1 <= b.y1 &&
        b.x1 - b.x0 < (word.y1 - word.y0) / 2,
    );
  return blobs(rest, width, height, Math.max(1, Math.round(minArea * scale * scale)), (b) => {
    const bw = b.x1 - b.x0;
    const bh = b.y1 - b.y0;
    return bh > thin && bw > thin / 2 && bh <= tall && !sliverOf(b);
  });
}

/**
 * Widens a box across the ink of its own rows until a gap of at least `gap` empty columns on either side: a
 * change in part of a word then covers the whole word of either image (the input's may be longer than what the
 * output still shows, e.g. a year with its last digit cut off).
 */
export function growAlongInk(box: Box, masks: readonly Uint8Array[], width: number, gap: number): Box {
  const occupied = (x: number): boolean => {
    for (let y = box.y0; y < box.y1; y++) {
      for (const m of masks) if (m[y * width + x]) return true;
    }
    return false;
  };
  let { x0, x1 } = box;
  for (let x = x1, empty = 0; x < width && empty < gap; x++) {
    if (occupied(x)) {
      x1 = x + 1;
      empty = 0;
    } else empty++;
  }
  for (let x = x0 - 1, empty = 0; x >= 0 && empty < gap; x--) {
    if (occupied(x)) {
      x0 = x;
      empty = 0;
    } else empty++;
  }
  return { ...box, x0, x1 };
}
