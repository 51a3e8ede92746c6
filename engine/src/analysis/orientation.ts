// Which way up a page's text stands, from the shapes and places of its glyphs, for any Latin-script page.
// 1. Direction: a glyph's nearest neighbour is the next letter of its word, so along a line; on a page scanned
//    sideways most nearest neighbours lie above or below each other instead of beside.
// 2. Up or down: along a line, ascenders (b d f h k l t, capitals, digits) rise above the x-height band far
//    more often than descenders (g j p q y) drop below it. Turned half round, the two swap.
// Pages whose glyphs blur into words, photos and pages with little text are not confident: left as they are.
import { reduce, type Grey } from '../pixels/index.js';
import { labelComponents, type ComponentBox } from '../pixels/components.js';
import { inkMask } from '../pixels/ink.js';

export interface Orientation {
  /** Quarter turns clockwise that bring the page upright; 0 when not confident. */
  turns: 0 | 1 | 2 | 3;
  confident: boolean;
  /** Glyph-sized components measured. */
  glyphs: number;
  /** Share of nearest-neighbour links that lie side by side (1: horizontal lines, 0: vertical). */
  horizontal: number;
  /** Along the lines, in the frame where they read left to right: glyphs rising above / dropping below. */
  rising: number;
  dropping: number;
}

/** A glyph's bounding box, inclusive. */
type GlyphBox = ComponentBox;

/** Fewer glyphs than this measure nothing (a photo, a near-empty page). */
export const MIN_GLYPHS = 60;
/** Nearest-neighbour links needed, and the share of them one direction must hold. */
const MIN_LINKS = 40;
const MIN_DIRECTION_SHARE = 0.7;
/**
 * Ascender/descender votes needed; how many times the winning side must outnumber the other; and how far the
 * difference must lie outside chance (in standard deviations of a fair coin's count).
 */
const MIN_VOTES = 24;
const MIN_RATIO = 1.5;
const MIN_Z = 2.5;
/** Widest a single letter's box is against its height (an M or a W with an ascender beside it); words are wider. */
const MAX_LETTER_WIDTH = 1.3;
/** Glyphs on each side of a glyph that tell its line's x-height band. */
const NEIGHBOURS = 4;
/** The steepest line slope followed (tan 8°): a skewed page, not a sideways one. */
const MAX_SLOPE = 0.14;

/** Boxes bucketed by their centre in square cells, for neighbour searches. */
class Grid {
  private readonly cells = new Map<number, number[]>();
  constructor(
    private readonly boxes: readonly GlyphBox[],
    private readonly cell: number,
  ) {
    boxes.forEach((b, i) => {
      const key = this.key(Math.floor((b.x0 + b.x1) / 2 / cell), Math.floor((b.y0 + b.y1) / 2 / cell));
      const list = this.cells.get(key);
      if (list) list.push(i);
      else this.cells.set(key, [i]);
    });
  }
  private key(cx: number, cy: number): number {
    return cy * 100_003 + cx;
  }
  /** Calls `visit` with each box whose centre lies within `reachX` cells across and `reachY` down of box i's cell. */
  forNear(i: number, reachX: number, reachY: number, visit: (j: number) => void): void {
    const b = this.boxes[i]!;
    const cx = Math.floor((b.x0 + b.x1) / 2 / this.cell);
    const cy = Math.floor((b.y0 + b.y1) / 2 / this.cell);
    for (let y = cy - reachY; y <= cy + reachY; y++) {
      for (let x = cx - reachX; x <= cx + reachX; x++) {
        const list = this.cells.get(this.key(x, y));
        if (list) for (const j of list) if (j !== i) visit(j);
      }
    }
  }
}

const overlap = (a0: number, a1: number, b0: number, b1: number) => Math.min(a1, b1) - Math.max(a0, b0) + 1;
const gapBetween = (a0: number, a1: number, b0: number, b1: number) =>
  Math.max(0, Math.max(a0, b0) - Math.min(a1, b1) - 1);

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[s.length >> 1]!;
}

/**
 * Nearest-neighbour votes: side by side (the boxes share most of their height) or one above the other (most of
 * their width), whichever neighbour is closer.
 */
function directionVotes(boxes: readonly GlyphBox[], grid: Grid, reach: number): { h: number; v: number } {
  let h = 0;
  let v = 0;
  boxes.forEach((a, i) => {
    let bestH = Infinity;
    let bestV = Infinity;
    grid.forNear(i, reach, reach, (j) => {
      const b = boxes[j]!;
      const oy = overlap(a.y0, a.y1, b.y0, b.y1);
      const ox = overlap(a.x0, a.x1, b.x0, b.x1);
      if (oy >= 0.5 * Math.min(a.y1 - a.y0 + 1, b.y1 - b.y0 + 1) && ox <= 0)
        bestH = Math.min(bestH, gapBetween(a.x0, a.x1, b.x0, b.x1));
      else if (ox >= 0.5 * Math.min(a.x1 - a.x0 + 1, b.x1 - b.x0 + 1) && oy <= 0)
        bestV = Math.min(bestV, gapBetween(a.y0, a.y1, b.y0, b.y1));
    });
    if (bestH < bestV) h++;
    else if (bestV < bestH) v++;
  });
  return { h, v };
}

/**
 * With lines running along x: glyphs that rise above the x-height band of their line while sitting on its
 * baseline (ascenders, capitals, digits), and glyphs that drop below the baseline while starting at the x-height
 * (descenders). The band is read from the glyph and up to NEIGHBOURS nearest glyphs on each side sharing most of
 * its height: most glyphs' tops lie on the x-height and nearly all bottoms on the baseline, so the medians find
 * them even in words full of ascenders.
 */
function riseAndDrop(
  boxes: readonly GlyphBox[],
  grid: Grid,
  size: number,
): { rising: number; dropping: number } {
  let rising = 0;
  let dropping = 0;
  // Scratch space, reused for every glyph: the nearest glyphs each side (by gap), slopes, tops and bottoms.
  const nearGap = [new Float64Array(NEIGHBOURS), new Float64Array(NEIGHBOURS)];
  const nearIdx = [new Int32Array(NEIGHBOURS), new Int32Array(NEIGHBOURS)];
  const count = [0, 0];
  const members = new Int32Array(2 * NEIGHBOURS + 1);
  const slopes = new Float64Array((2 * NEIGHBOURS + 1) * 2 * NEIGHBOURS);
  const tops = new Float64Array(2 * NEIGHBOURS + 1);
  const bottoms = new Float64Array(2 * NEIGHBOURS + 1);
  const centre = (b: GlyphBox) => (b.x0 + b.x1) / 2;
  const middle = (values: Float64Array, n: number) => values.subarray(0, n).sort()[n >> 1]!;
  boxes.forEach((a, i) => {
    // Only single letters vote. Where blur joins letters into words, a word's box spans from its tallest
    // ascender to its lowest descender: its neighbours' tops mark the ascender line, not the x-height, and every
    // word with a descender would "drop" (a blurred phone photo of an upright page voted 34 to 7 for upside down).
    if (a.x1 - a.x0 > MAX_LETTER_WIDTH * (a.y1 - a.y0 + 1)) return;
    count[0] = 0;
    count[1] = 0;
    // Same line: centres at most a glyph apart down the page.
    grid.forNear(i, NEIGHBOURS + 1, 1, (j) => {
      const b = boxes[j]!;
      if (overlap(a.y0, a.y1, b.y0, b.y1) < 0.5 * Math.min(a.y1 - a.y0 + 1, b.y1 - b.y0 + 1)) return;
      if (overlap(a.x0, a.x1, b.x0, b.x1) > 0) return;
      const gap = gapBetween(a.x0, a.x1, b.x0, b.x1);
      if (gap > NEIGHBOURS * size) return;
      // Insert into that side's list of the nearest, kept sorted by gap.
      const side = b.x1 < a.x0 ? 0 : 1;
      const gaps = nearGap[side]!;
      const idx = nearIdx[side]!;
      let k = Math.min(count[side]!, NEIGHBOURS - 1);
      if (count[side] === NEIGHBOURS && gap >= gaps[k]!) return;
      while (k > 0 && gaps[k - 1]! > gap) {
        gaps[k] = gaps[k - 1]!;
        idx[k] = idx[k - 1]!;
        k--;
      }
      gaps[k] = gap;
      idx[k] = j;
      count[side] = Math.min(NEIGHBOURS, count[side]! + 1);
    });
    // Both sides' nearest, nearest first; an odd group, so that its medians are true middles and the measure
    // is the same turned half round.
    let n = 0;
    members[n++] = i;
    for (let l = 0, r = 0; l < count[0] || r < count[1];) {
      const takeLeft = r >= count[1] || (l < count[0] && nearGap[0]![l]! <= nearGap[1]![r]!);
      members[n++] = takeLeft ? nearIdx[0]![l++]! : nearIdx[1]![r++]!;
    }
    if (n % 2 === 0) n--;
    if (n < 5) return;
    // A skewed line: tops and bottoms are read along the group's own slope (the median slope between pairs of
    // tops and pairs of bottoms, which most glyphs share).
    let m = 0;
    for (let p = 0; p < n; p++) {
      const bp = boxes[members[p]!]!;
      for (let q = p + 1; q < n; q++) {
        const bq = boxes[members[q]!]!;
        const dx = centre(bq) - centre(bp);
        if (dx === 0) continue;
        slopes[m++] = (bq.y0 - bp.y0) / dx;
        slopes[m++] = (bq.y1 - bp.y1) / dx;
      }
    }
    const slope = m > 0 ? Math.max(-MAX_SLOPE, Math.min(MAX_SLOPE, middle(slopes, m))) : 0;
    for (let k = 0; k < n; k++) {
      const b = boxes[members[k]!]!;
      const shift = slope * (centre(b) - centre(a));
      tops[k] = b.y0 - shift;
      bottoms[k] = b.y1 - shift;
    }
    const top = middle(tops, n);
    const bottom = middle(bottoms, n);
    const xh = bottom - top;
    if (xh < 3) return;
    if (a.y0 < top - 0.3 * xh && Math.abs(a.y1 - bottom) <= 0.2 * xh) rising++;
    else if (a.y1 > bottom + 0.3 * xh && Math.abs(a.y0 - top) <= 0.2 * xh) dropping++;
  });
  return { rising, dropping };
}

/** Boxes as they lie after `turns` quarter turns clockwise of a `width` × `height` page (0 or 1 turns here). */
function turnBoxes(boxes: readonly GlyphBox[], turns: 0 | 1, height: number): GlyphBox[] {
  if (turns === 0) return [...boxes];
  return boxes.map((b) => ({ x0: height - 1 - b.y1, x1: height - 1 - b.y0, y0: b.x0, y1: b.x1 }));
}

/**
 * The page's orientation from its grey copy (brightest channel). Confident only with enough glyphs, lines
 * clearly one way, and ascenders clearly outnumbering descenders one way up.
 */
export function measureOrientation(grey: Grey, dpi: number): Orientation {
  // Work near 150 DPI: glyph sizes and costs stay alike at any resolution.
  const factor = Math.max(1, Math.round(dpi / 150));
  const small =
    factor > 1
      ? { ...reduce(grey.data, grey.width, grey.height, factor, 'mean'), channels: 1 as const }
      : grey;
  const res = dpi / factor;
  const { width, height } = small;
  const ink = inkMask(small, res);
  // Glyphs, or words where blur joined the letters: at least 3 px thick, at most 0.4 inch high and 1.5 inch
  // long (either way), so thin rules, pictures and whole blurred lines are left out.
  const minSize = Math.max(3, Math.round(res * 0.02));
  const maxThick = Math.round(res * 0.4);
  const maxLong = Math.round(res * 1.5);
  const glyphs = labelComponents(ink, width, height).boxes.filter((b) => {
    const w = b.x1 - b.x0 + 1;
    const h = b.y1 - b.y0 + 1;
    return Math.min(w, h) >= minSize && Math.min(w, h) <= maxThick && Math.max(w, h) <= maxLong;
  });
  const none: Orientation = {
    turns: 0,
    confident: false,
    glyphs: glyphs.length,
    horizontal: 0,
    rising: 0,
    dropping: 0,
  };
  if (glyphs.length < MIN_GLYPHS) return none;
  const size = median(glyphs.map((b) => Math.max(b.x1 - b.x0, b.y1 - b.y0) + 1));
  const cell = Math.max(4, size);
  const grid = new Grid(glyphs, cell);
  const { h, v } = directionVotes(glyphs, grid, 2);
  const links = h + v;
  const horizontal = links > 0 ? h / links : 0;
  if (links < MIN_LINKS || Math.max(horizontal, 1 - horizontal) < MIN_DIRECTION_SHARE)
    return { ...none, horizontal };
  // In the frame where lines run along x (turned a quarter clockwise when they run along y), count both ways.
  const base: 0 | 1 = horizontal >= 0.5 ? 0 : 1;
  const turned = turnBoxes(glyphs, base, height);
  const { rising, dropping } = riseAndDrop(turned, new Grid(turned, cell), size);
  const result = { ...none, horizontal, rising, dropping };
  const votes = rising + dropping;
  if (
    votes < MIN_VOTES ||
    Math.max(rising, dropping) < MIN_RATIO * Math.min(rising, dropping) ||
    Math.abs(rising - dropping) < MIN_Z * Math.sqrt(votes)
  )
    return result;
  const turns = ((rising > dropping ? base : base + 2) % 4) as Orientation['turns'];
  return { ...result, turns, confident: true };
}
