// Gutters: the white rivers between a page's columns of text (and between a table's columns), found in its ink.
// The word guard asks for them to tell a reading that joins two columns line by line from one that reads them apart.
import type { RawImage } from '../image.js';
import { toGrey } from './index.js';
import { inkMask } from './ink.js';

/** A span of the page's columns of pixels, x0 inclusive, x1 exclusive. */
export interface Gutter {
  x0: number;
  x1: number;
}

/** A column of pixels is white where its ink is at most this share of a text column's (the 75th percentile). */
const WHITE_SHARE = 0.25;
/** A gutter is at least this wide (inches): wider than any word space, which no column of pixels keeps anyway. */
const MIN_GUTTER_INCHES = 0.1;
/** Each side of a gutter holds at least this share of the page's ink. */
const MIN_SIDE_INK = 0.15;

/**
 * The gutters of a page: runs of columns of pixels, at least 0.1 inch wide, nearly without ink from the top of the
 * page to its bottom, with text on both sides. A heading across the columns or a few specks leave a gutter white
 * enough; a single column of text has none, since every column of pixels crosses ink on most of its lines.
 */
export function findGutters(img: RawImage, dpi: number): Gutter[] {
  const grey = toGrey(img);
  const ink = inkMask(grey, dpi);
  const { width, height } = grey;
  const columns = new Float64Array(width);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) columns[x] = columns[x]! + ink[row + x]!;
  }
  let total = 0;
  for (const c of columns) total += c;
  if (total === 0) return [];
  const sorted = Float64Array.from(columns).sort();
  const white = sorted[Math.floor(sorted.length * 0.75)]! * WHITE_SHARE;
  const minWidth = Math.max(4, Math.round(dpi * MIN_GUTTER_INCHES));
  const gutters: Gutter[] = [];
  let left = 0;
  let x = 0;
  while (x < width) {
    if (columns[x]! > white) {
      left += columns[x++]!;
      continue;
    }
    const start = x;
    let inRun = 0;
    while (x < width && columns[x]! <= white) inRun += columns[x++]!;
    const right = total - left - inRun;
    if (left >= total * MIN_SIDE_INK && right >= total * MIN_SIDE_INK) {
      // A thin rule or one speck's column cuts no gutter in two.
      const last = gutters.at(-1);
      if (last && start - last.x1 < minWidth / 2) last.x1 = x;
      else gutters.push({ x0: start, x1: x });
    }
    left += inRun;
  }
  return gutters.filter((g) => g.x1 - g.x0 >= minWidth);
}
