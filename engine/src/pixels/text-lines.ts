// A cheap text-line detector: rows of character-sized ink blobs of about one height, side by side. It decides
// whether a page has text at all (routing: a page without text lines never gets document steps) and where the
// text lies (border and edge cleaning stop there). The page is flattened first (divided by its paper level), so a
// shadow, a stain or yellowed paper does not hide the lines in it.
import type { RawImage } from '../image.js';
import { applyLut, rankFilter, reduce, toGrey, type Grey } from './index.js';
import { channelRange } from './levels.js';
import { centralCrop } from './geometry.js';
import { labelComponents } from './components.js';

export interface TextLine {
  /** Box in the page's pixels. */
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Ink blobs on the line (characters, or whole words where blur joins them). */
  glyphs: number;
  /** Median blob height (page pixels). */
  height: number;
  /** Share of neighbouring blobs whose tops or bottoms line up (baseline, x-height, cap height). */
  alignedShare: number;
}

export interface TextLines {
  lines: TextLine[];
  /** Blobs on the lines found. */
  glyphs: number;
}

/**
 * Lines (of six or more blobs, three in four aligned with their neighbour) needed before a page counts as text.
 * Pictures show a few such rows in texture (foliage, grass, gravel: up to 5 on 16 generated and public photos);
 * text pages show 10 and more (at least 10 on 50 generated and public pages, severe blur, fading and fax included).
 */
export const MIN_TEXT_LINES = 8;
/** A page that is mostly plain paper needs less evidence: pictures are rarely mostly paper. */
export const MIN_TEXT_LINES_ON_PAPER = 3;

/** Ink: darker than this share of the local paper level, and by at least this many grey levels. */
const INK_RATIO = 0.8;
const INK_DEPTH = 24;

export interface InkBlob {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  area: number;
}

interface OpenLine {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  /** Smoothed band of the latest blobs (the line may be skewed). */
  top: number;
  bottom: number;
  heights: number[];
  /** Consecutive blobs whose tops or bottoms line up (a shared baseline, x-height or cap height). */
  aligned: number;
  last: InkBlob;
}

/** Bounding boxes (end exclusive) and areas of the 8-connected components of a 0/1 mask, up to maxArea pixels. */
function blobsOf(mask: Uint8Array, width: number, height: number, maxArea: number): InkBlob[] {
  const { areas, boxes } = labelComponents(mask, width, height);
  const blobs: InkBlob[] = [];
  boxes.forEach((b, id) => {
    const area = areas[id]!;
    if (area <= maxArea) blobs.push({ x0: b.x0, y0: b.y0, x1: b.x1 + 1, y1: b.y1 + 1, area });
  });
  return blobs;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1]!;

/** Character-sized ink blobs of a page, found at about 150 DPI (`factor`: page pixels per work pixel). */
export interface GlyphBlobs {
  blobs: readonly InkBlob[];
  factor: number;
  /** The work image's size and the tallest blob kept (work pixels). */
  width: number;
  height: number;
  maxH: number;
}

/**
 * The ink of the page flattened by its paper level (a closing wider than any stroke), in 8-connected blobs from
 * 0.03 to 0.45 inch high that are not solid bars: the glyphs (or words, where blur joins them) that text lines are
 * made of. Specks, borders, stains and rules are left out.
 */
/** Each image's glyph blobs by resolution, found once while the image lives (skew and text lines both need them). */
const glyphsFound = new WeakMap<RawImage, Map<number, GlyphBlobs>>();

export function glyphBlobs(img: RawImage, dpi: number): GlyphBlobs {
  const grey = toGrey(img, 'max');
  let byDpi = glyphsFound.get(grey);
  if (!byDpi) glyphsFound.set(grey, (byDpi = new Map<number, GlyphBlobs>()));
  let found = byDpi.get(dpi);
  if (!found) byDpi.set(dpi, (found = findGlyphBlobs(grey, dpi)));
  return found;
}

function findGlyphBlobs(grey: Grey, dpi: number): GlyphBlobs {
  const factor = Math.max(1, Math.round(dpi / 150));
  const work: Grey =
    factor > 1 ? { ...reduce(grey.data, grey.width, grey.height, factor, 'mean'), channels: 1 } : grey;
  const workDpi = dpi / factor;
  const { width, height, data } = work;
  // Paper level per 4×4 block: block maximum, closed over about 0.2 inch (wider than any stroke).
  const block = 4;
  const small = reduce(data, width, height, block, 'max');
  const radius = Math.max(2, Math.round((14 * workDpi) / 150 / block));
  const paper = rankFilter(
    rankFilter(small.data, small.width, small.height, radius, true),
    small.width,
    small.height,
    radius,
    false,
  );
  const mask = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = Math.min(small.height - 1, Math.floor(y / block)) * small.width;
    for (let x = 0; x < width; x++) {
      const b = paper[row + Math.min(small.width - 1, Math.floor(x / block))]!;
      const v = data[y * width + x]!;
      if (v < b * INK_RATIO && b - v >= INK_DEPTH) mask[y * width + x] = 1;
    }
  }
  const minH = Math.max(4, Math.round(0.03 * workDpi));
  const maxH = Math.round(0.45 * workDpi);
  const blobs = blobsOf(mask, width, height, maxH * maxH * 40).filter((b) => {
    const h = b.y1 - b.y0;
    const w = b.x1 - b.x0;
    if (h < minH || h > maxH) return false;
    // Words run together by blur are long; bars, rules and filled boxes are solid.
    if (w > 40 * h) return false;
    return b.area < 0.9 * w * h || w < 0.6 * h;
  });
  return { blobs, factor, width, height, maxH };
}

/**
 * Text lines of a page. Works at about 150 DPI: ink is what lies clearly below the local paper level (a closing
 * of the page wider than any stroke); blobs from 0.03 to 0.45 inch high that are not solid bars are chained left
 * to right while they overlap the line's band vertically and the gap is under two line heights. A line needs five
 * blobs, seven in ten aligned with their neighbour (top or bottom), and a length of four heights.
 */
export function findTextLines(img: RawImage, dpi: number): TextLines {
  const found = glyphBlobs(img, dpi);
  const { factor, maxH } = found;
  // Sorted as a copy: the blobs found are shared with every later caller.
  const blobs = [...found.blobs].sort((a, b) => a.x0 - b.x0);
  const open: OpenLine[] = [];
  const done: OpenLine[] = [];
  for (const b of blobs) {
    const h = b.y1 - b.y0;
    let best: OpenLine | undefined;
    let bestOverlap = 0;
    for (const line of open) {
      const lineH = line.bottom - line.top;
      if (b.x0 - line.x1 > 2 * Math.max(lineH, h)) continue;
      if (h > 2.5 * lineH || lineH > 2.5 * h) continue;
      const overlap = Math.min(b.y1, line.bottom) - Math.max(b.y0, line.top);
      if (overlap >= 0.45 * Math.min(h, lineH) && overlap > bestOverlap) {
        best = line;
        bestOverlap = overlap;
      }
    }
    if (best) {
      best.x1 = Math.max(best.x1, b.x1);
      best.y0 = Math.min(best.y0, b.y0);
      best.y1 = Math.max(best.y1, b.y1);
      best.top += 0.3 * (b.y0 - best.top);
      best.bottom += 0.3 * (b.y1 - best.bottom);
      best.heights.push(h);
      const tol = Math.max(1.5, 0.15 * Math.max(h, best.last.y1 - best.last.y0));
      if (Math.abs(b.y1 - best.last.y1) <= tol || Math.abs(b.y0 - best.last.y0) <= tol) best.aligned++;
      best.last = b;
    } else {
      open.push({
        x0: b.x0,
        x1: b.x1,
        y0: b.y0,
        y1: b.y1,
        top: b.y0,
        bottom: b.y1,
        heights: [h],
        aligned: 0,
        last: b,
      });
    }
    // Lines left far behind are closed (keeps the search short on dense pages).
    for (let k = open.length - 1; k >= 0; k--) {
      const line = open[k]!;
      if (b.x0 - line.x1 > 2 * maxH) {
        done.push(line);
        open.splice(k, 1);
      }
    }
  }
  done.push(...open);
  const lines: TextLine[] = [];
  for (const line of done) {
    const h = median(line.heights);
    const alignedShare = line.aligned / (line.heights.length - 1);
    if (line.heights.length < 5 || alignedShare < 0.7 || line.x1 - line.x0 < 4 * h) continue;
    lines.push({
      x0: line.x0 * factor,
      y0: line.y0 * factor,
      x1: Math.min(img.width, line.x1 * factor),
      y1: Math.min(img.height, line.y1 * factor),
      glyphs: line.heights.length,
      height: h * factor,
      alignedShare,
    });
  }
  lines.sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  return { lines, glyphs: lines.reduce((n, l) => n + l.glyphs, 0) };
}

/** Lines that count as evidence of text: six blobs or more, three in four of them aligned. */
export function textLineCount(found: TextLines): number {
  return found.lines.filter((l) => l.glyphs >= 6 && l.alignedShare >= 0.75).length;
}

/** The share of the page's width and height whose tones set levelsStretched's range: its middle, borders left out. */
const STRETCH_CROP = 0.9;

/**
 * The page's brightest channel with its tones stretched from the 0.5th to the 99th percentile of its middle
 * (STRETCH_CROP) over the whole range. Ink faded on yellowed paper can stay lighter than four fifths of the paper's
 * level (INK_RATIO) everywhere: a letter page under water damage read 202 against paper at 239 to 255, and no line was
 * found; stretched, 51 were. A scanner's black border along an edge holds the page's darkest half percent by itself
 * (dev5 profile seed 5501 doc_010, a typed letter faded on mottled paper, ink at 199–213 against paper at 243: over the
 * whole page nothing was stretched and no line found, over its middle 14), so the edges do not count.
 */
export function levelsStretched(img: RawImage): Grey {
  const grey = toGrey(img, 'max');
  const range = channelRange(centralCrop(grey, STRETCH_CROP), 0.005, 0.99);
  const low = range.low[0]!;
  const high = range.high[0]!;
  if (high <= low) return grey;
  const lut = Uint8Array.from({ length: 256 }, (_, v) =>
    Math.min(255, Math.max(0, Math.round(((v - low) * 255) / (high - low)))),
  );
  return { ...applyLut(grey, lut), channels: 1 };
}

/**
 * 0/1 mask (page pixels) of the text lines, each grown by half its height up and down and by two and a half
 * heights at its ends (a first or last letter joined to an edge mark is not a blob of the line; a W or an M is
 * about 1.2 heights wide): the pixels
 * border and edge cleaning must leave alone.
 */
export function textLineMask(found: TextLines, width: number, height: number): Uint8Array {
  const mask = new Uint8Array(width * height);
  for (const l of found.lines) {
    const padY = Math.ceil(l.height / 2);
    const padX = Math.ceil(l.height * 2.5);
    const x0 = Math.max(0, l.x0 - padX);
    const x1 = Math.min(width, l.x1 + padX);
    for (let y = Math.max(0, l.y0 - padY); y < Math.min(height, l.y1 + padY); y++) {
      mask.fill(1, y * width + x0, y * width + x1);
    }
  }
  return mask;
}
