// Document steps. They work on grey pages (the first step drops colour by keeping the brightest channel) and
// scale their window sizes with the page DPI so that they behave alike at 150 and 300 DPI.
import { createImage, type RawImage } from '../image.js';
import { otsuThreshold } from '../pixels/levels.js';
import { findTextLines, MIN_TEXT_LINES, textLineMask, type TextLines } from '../pixels/text-lines.js';
import { repairCreasesStep } from './crease.js';
import { removeStreaksStep } from './streak.js';
import { deblurMotion } from './photo-restore.js';
import { num, type Step } from './registry.js';
import {
  boxMean,
  enlarge,
  histogram,
  rankFilter,
  reduce,
  sharpOf,
  sharpToRaw,
  toGrey,
  type Grey,
} from '../pixels/index.js';
import { hasOtherInk, labelComponents, type ComponentBox } from '../pixels/components.js';
import { findGutters } from '../pixels/gutters.js';

const scaleOf = (params: Record<string, unknown>) => num(params as never, 'dpi', 150) / 150;

/**
 * Half the width (inches) of the closing that takes ink out of the background estimate. The closing is wider than any
 * stroke, and than the grey fills a page is printed with (a form's section bands, a table's shaded rows: about 0.25–0.3
 * inch high), so those stay as printed instead of being flattened to white with a grey rim left at their edges (fresh
 * seed 125189's clean form doc_028: 7.8 % of its pixels changed, CER 0.014 → 0.017). Stains, shadows and yellowing
 * span more; the wider closing follows a stain's soft edge less closely (a rim up to 13 grey levels short of white,
 * where 0.093 inch left 6).
 */
const BACKGROUND_REACH = 0.2;

/** Paper background as a smooth full-size map: block max, grey closing wider than any stroke and fill, blur. */
export function estimateBackground(grey: Grey, dpi: number): Float32Array {
  const factor = Math.max(2, Math.round((4 * dpi) / 150));
  const small = reduce(grey.data, grey.width, grey.height, factor, 'max');
  const radius = Math.max(2, Math.round((BACKGROUND_REACH * dpi) / factor));
  const closed = rankFilter(
    rankFilter(small.data, small.width, small.height, radius, true),
    small.width,
    small.height,
    radius,
    false,
  );
  const smooth = boxMean(closed, small.width, small.height, Math.max(1, Math.round(radius / 2)));
  return enlarge(smooth, small.width, small.height, grey.width, grey.height, factor);
}

export const whitenPaper: Step = {
  name: 'whiten-paper',
  kind: 'document',
  description:
    'Grey page from the brightest colour channel: yellowed, tinted or stained paper turns white, ink stays dark',
  run: (img) => toGrey(img, 'max'),
};

export const cleanBorders: Step = {
  name: 'clean-borders',
  kind: 'document',
  description:
    'Whitens dark scanner-lid borders, punched holes and desk background that touch the page edge, up to the text lines',
  run(img, params) {
    const grey = toGrey(img, 'max');
    const dpi = num(params, 'dpi', 150);
    const factor = Math.max(2, Math.round((4 * dpi) / 150));
    const small = reduce(grey.data, grey.width, grey.height, factor, 'max');
    // Text lines (found on the page flattened, so a shadow does not hide them) stop the border: a dark margin
    // with text on it is shadowed paper.
    const text = textLineMask(findTextLines(grey, dpi), grey.width, grey.height);
    const textBlocks = reduce(text, grey.width, grey.height, factor, 'max').data;
    // A border is far darker than the paper even after removing the ink (block max + opening of text gaps).
    const radius = Math.max(1, Math.round((6 * dpi) / 150 / factor));
    const bg = rankFilter(small.data, small.width, small.height, radius, true);
    const sorted = Float64Array.from(bg).sort();
    const paper = sorted[Math.floor(sorted.length * 0.7)]!;
    const limit = paper * num(params, 'ratio', 0.55);
    const { width: sw, height: sh } = small;
    // The border: the dark blocks joined (4-connected) to the picture's edge.
    const dark = new Uint8Array(sw * sh);
    for (let i = 0; i < dark.length; i++) dark[i] = bg[i]! < limit && !textBlocks[i] ? 1 : 0;
    const { labels } = labelComponents(dark, sw, sh, { connectivity: 4 });
    const atEdge = new Set<number>();
    const seed = (i: number) => {
      if (labels[i]! >= 0) atEdge.add(labels[i]!);
    };
    for (let x = 0; x < sw; x++) {
      seed(x);
      seed((sh - 1) * sw + x);
    }
    for (let y = 0; y < sh; y++) {
      seed(y * sw);
      seed(y * sw + sw - 1);
    }
    const mark = new Uint8Array(sw * sh);
    for (let i = 0; i < mark.length; i++) if (labels[i]! >= 0 && atEdge.has(labels[i]!)) mark[i] = 1;
    const out = createImage(grey.width, grey.height, 1);
    out.data.set(grey.data);
    const white = Math.round(paper);
    let marked = 0;
    for (const m of mark) marked += m;
    if (marked > 0) {
      // Grow the mask a little: the shadow along a border edge is dark too.
      const grown = rankFilter(mark, sw, sh, 1, true);
      for (let y = 0; y < grey.height; y++) {
        const row = Math.min(sh - 1, Math.floor(y / factor)) * sw;
        for (let x = 0; x < grey.width; x++) {
          const i = y * grey.width + x;
          if (grown[row + Math.min(sw - 1, Math.floor(x / factor))] && !text[i]) out.data[i] = white;
        }
      }
    }
    return out;
  },
};

export const clearEdgeMarks: Step = {
  name: 'clear-edge-marks',
  kind: 'document',
  description:
    "On a flattened page, whitens dark marks that touch the page edge and are larger than a glyph (thin borders, torn edges), up to the text lines and the page's own rules",
  run(img, params) {
    const page = toGrey(img, 'max');
    const out = createImage(page.width, page.height, 1) as Grey;
    out.data.set(page.data);
    whitenEdgeComponents(out, num(params, 'dpi', 150), 255);
    return out;
  },
};

/**
 * Thin borders and torn page edges are too narrow for the block-level pass above: whitens every dark
 * component that touches the image edge and is larger than any glyph (text keeps a margin, so a glyph cut
 * by the edge is rare and small), with a 2 px rim for the shadow along it. Nothing is whitened on the text lines:
 * a mark that runs into a line's first letters stops there; nor a grid's rules within the text block, nor any rule
 * of the page a scratch from the edge crosses (ruleMask).
 */
export function whitenEdgeComponents(page: Grey, dpi: number, white: number): void {
  const { width, height, data } = page;
  // Otsu splits at "≤ threshold", so a bilevel page (ink exactly at the threshold) still has ink.
  const threshold = Math.min(otsuThreshold(page), 160);
  const mask = new Uint8Array(width * height);
  for (let i = 0; i < mask.length; i++) mask[i] = data[i]! <= threshold ? 1 : 0;
  const { labels, areas, boxes } = labelComponents(mask, width, height);
  const edgeIds = new Set<number>();
  const touch = (i: number) => {
    if (labels[i]! >= 0) edgeIds.add(labels[i]!);
  };
  for (let x = 0; x < width; x++) {
    touch(x);
    touch((height - 1) * width + x);
  }
  for (let y = 0; y < height; y++) {
    touch(y * width);
    touch(y * width + width - 1);
  }
  if (edgeIds.size === 0) return;
  // Larger than a capital letter of 14 pt print (about 0.2 inch) along one side.
  const glyph = 0.2 * dpi;
  const remove = new Uint8Array(width * height);
  let any = false;
  for (let i = 0; i < labels.length; i++) {
    const id = labels[i]!;
    const box = edgeIds.has(id) ? boxes[id] : undefined;
    if (box && (box.x1 - box.x0 > glyph || box.y1 - box.y0 > glyph || areas[id]! > glyph * glyph)) {
      remove[i] = 1;
      any = true;
    }
  }
  if (!any) return;
  const found = findTextLines(page, dpi);
  const text = textLineMask(found, width, height);
  const block = textBlock(found, width, height);
  const grids = block ? gridComponents(labels, boxes, edgeIds, width, height) : new Set<number>();
  const rules = block ? ruleMask(mask, width, height, block, dpi) : undefined;
  const rim = rankFilter(remove, width, height, 2, true);
  for (let i = 0; i < rim.length; i++) {
    if (!rim[i] || text[i] || rules?.[i]) continue;
    if (block && grids.size > 0) {
      const x = i % width;
      const y = (i - x) / width;
      const inside = x >= block.x0 && x < block.x1 && y >= block.y0 && y < block.y1;
      if (inside && nearGrid(labels, grids, i, width, height)) continue;
    }
    data[i] = white;
  }
}

/** A rule runs at least this long (inches) and is at most this thick (inches). */
const RULE_LENGTH = 1;
const RULE_THICKNESS = 0.04;

/**
 * The page's own rules within its text block, with a pixel's rim for their antialiasing: straight ink runs, across or
 * down, at least an inch long and thin (most of the run has paper a rule's thickness to either side), that do not
 * reach the image's edge. A scratch from the page's edge that crosses a rule joins the rule to the edge's component;
 * the rule is the page's ink all the same (fresh seed 455558 doc_002: the rule under a newsletter's heading whitened
 * with the scratch, and the heading then read after the columns, CER 0.062 → 0.095).
 */
export function ruleMask(
  ink: Uint8Array,
  width: number,
  height: number,
  block: ComponentBox,
  dpi: number,
): Uint8Array {
  const rules = new Uint8Array(width * height);
  const side = Math.max(2, Math.ceil(RULE_THICKNESS * dpi));
  forEachInkRun(
    (i) => ink[i] === 1,
    width,
    height,
    RULE_LENGTH * dpi,
    (run) => {
      const { line, start, end, lines, steps, at } = run;
      const [from, to] = run.down ? [block.x0, block.x1] : [block.y0, block.y1];
      if (line < from || line >= to || start === 0 || end === steps) return;
      let clear = 0;
      for (let k = start; k < end; k++) {
        const before = line - side >= 0 ? ink[at(line - side, k)] : 0;
        const after = line + side < lines ? ink[at(line + side, k)] : 0;
        if (!before && !after) clear++;
      }
      if (clear * 2 < end - start) return;
      for (let k = start; k < end; k++)
        for (let d = -1; d <= 1; d++) if (line + d >= 0 && line + d < lines) rules[at(line + d, k)] = 1;
    },
  );
  return rules;
}

/**
 * Edge components whose strokes run many times their box's width and height: a table's rules, joined to the page's
 * edge by a crease or a scratch that runs from edge to edge. A border, a torn edge or a scratch runs about once.
 */
function gridComponents(
  labels: Int32Array,
  boxes: readonly ComponentBox[],
  edgeIds: ReadonlySet<number>,
  width: number,
  height: number,
): Set<number> {
  const outline = new Map<number, number>();
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const id = labels[i]!;
      if (id < 0 || !edgeIds.has(id)) continue;
      if (
        labels[i - 1] !== id ||
        labels[i + 1] !== id ||
        labels[i - width] !== id ||
        labels[i + width] !== id
      )
        outline.set(id, (outline.get(id) ?? 0) + 1);
    }
  }
  const grids = new Set<number>();
  for (const [id, n] of outline) {
    const b = boxes[id]!;
    // A thin stroke's outline is about twice its length.
    if (n / 2 > GRID_RUNS * (b.x1 - b.x0 + b.y1 - b.y0)) grids.add(id);
  }
  return grids;
}

/** Strokes at least this many times their box's width plus height make a component a grid. */
const GRID_RUNS = 4;

function nearGrid(
  labels: Int32Array,
  grids: ReadonlySet<number>,
  i: number,
  width: number,
  height: number,
): boolean {
  const x = i % width;
  const y = (i - x) / width;
  for (let dy = -2; dy <= 2; dy++) {
    const yy = y + dy;
    if (yy < 0 || yy >= height) continue;
    for (let dx = -2; dx <= 2; dx++) {
      const xx = x + dx;
      if (xx < 0 || xx >= width) continue;
      const id = labels[yy * width + xx]!;
      if (id >= 0 && grids.has(id)) return true;
    }
  }
  return false;
}

/**
 * The box around a text page's lines, or undefined when too few lines were found to call it a page of text. Inside
 * it a grid reaching the page's edge belongs to the page (a table's rules joined to a crease that runs from edge to
 * edge: dev seed 6202 doc_030 lost its rules and the words on the crease, CER 0.023 → 0.045); the crease is left to
 * repair-creases.
 */
function textBlock(found: TextLines, width: number, height: number): ComponentBox | undefined {
  if (found.lines.length < MIN_TEXT_LINES) return undefined;
  let x0 = width;
  let y0 = height;
  let x1 = 0;
  let y1 = 0;
  for (const l of found.lines) {
    x0 = Math.min(x0, l.x0);
    y0 = Math.min(y0, l.y0);
    x1 = Math.max(x1, l.x1);
    y1 = Math.max(y1, l.y1);
  }
  return { x0, y0, x1, y1 };
}

export const flattenBackground: Step = {
  name: 'flatten-background',
  kind: 'document',
  description:
    'Divides the page by its estimated paper background: removes uneven lighting, shadows, yellowing and stains',
  run(img, params) {
    const grey = toGrey(img, 'max');
    const bg = estimateBackground(grey, num(params, 'dpi', 150));
    const out = createImage(grey.width, grey.height, 1);
    for (let i = 0; i < out.data.length; i++) {
      const b = Math.max(bg[i]!, 24);
      out.data[i] = Math.min(255, (grey.data[i]! * 255) / b);
    }
    return out;
  },
};

export const removeSpeckles: Step = {
  name: 'remove-speckles',
  kind: 'document',
  description:
    'Removes isolated dark specks (dust, toner) smaller than a glyph, with no ink close by and little around',
  run(img, params) {
    const grey = toGrey(img, 'max');
    const s = scaleOf(params);
    const { width, height } = grey;
    const threshold = Math.min(otsuThreshold(grey), 200);
    const mask = new Uint8Array(width * height);
    for (let i = 0; i < mask.length; i++) mask[i] = grey.data[i]! <= threshold ? 1 : 0;
    const { labels, areas, boxes } = labelComponents(mask, width, height);
    const maxArea = Math.max(2, Math.round(num(params, 'maxArea', 30) * s * s));
    // Three tests keep text. Fragments of eroded or broken glyphs have other fragments a few pixels away;
    // punctuation sits on a text line, beside a glyph-sized component; bullets and marks in sparse layouts
    // have ink around them. Dust and toner specks sit alone on empty paper.
    const gap = Math.max(1, Math.round(num(params, 'gap', 3) * s));
    // About a word space of 12 pt print to each side and half a line up and down; three times as far for dashes
    // (flat marks), which stand alone between spaces or a list's hanging indent (about 0.2 in) before its line.
    const reachX = Math.round(num(params, 'lineReach', 16) * s);
    const reachY = Math.round(reachX * 0.6);
    const radius = Math.max(2, Math.round(num(params, 'isolation', 20) * s));
    const window = (2 * radius + 1) * (2 * radius + 1);
    const around = boxMean(mask, width, height, radius);
    const maxAround = num(params, 'maxAroundShare', 0.03) * window;
    // With clearGutters, a speck within a gutter between columns goes whatever ink is around it, whatever specks lie
    // next to it, unless it stands right beside a glyph (a full stop at a line's end: within two gaps). No text lies in
    // a gutter; on a page under salt and pepper the specks there keep each other from the little-ink test, and
    // Tesseract, finding ink across the gutter, may read the columns line by line as one (dev seed 20261301 doc_028,
    // two columns under salt and pepper: the network's page read at CER 0.704; 0.062 with its gutter whitened below
    // the heading, and which specks tipped the reading was a matter of a few pixels, so all of them go).
    const gutters = num(params, 'clearGutters', 0) > 0 ? findGutters(grey, num(params, 'dpi', 150)) : [];
    const inGutter = (b: Box) => gutters.some((g) => b.x0 >= g.x0 && b.x1 < g.x1);
    // Toner and dust are dark. A faint speck, barely under the threshold, may instead be the darkest core of a
    // pale glyph (print blurred under a water stain: whitening those cores punched holes in its words), so a
    // faint one goes only when the frame just outside it is near-white paper.
    const faintLevel = threshold - num(params, 'faintDepth', 24);
    const minFrame = num(params, 'minFrame', 230);
    // A glyph is a component too large for a speck, or as tall as a letter: thin serif print at 150 DPI draws
    // whole letters ("l", "t", "i") in fewer pixels than a speck (seed 317290's clean doc_011, FreeSerif at 10.7
    // pt, lost 17 letters and stops, +0.9 point of CER). A speck is compact; a letter stands on a line.
    const minGlyphHeight = Math.max(3, Math.round(num(params, 'glyphHeight', 8) * s));
    const isGlyph = (id: number) =>
      areas[id]! > maxArea || boxes[id]!.y1 - boxes[id]!.y0 + 1 >= minGlyphHeight;
    const glyphs = new Uint8Array(width * height);
    for (let i = 0; i < mask.length; i++) if (mask[i] && isGlyph(labels[i]!)) glyphs[i] = 1;
    const glyphSum = integralImage(glyphs, width, height);
    const out = createImage(width, height, 1);
    out.data.set(grey.data);
    for (let id = 0; id < areas.length; id++) {
      const area = areas[id]!;
      if (area > maxArea) continue;
      const b = boxes[id]!;
      const cx = Math.round((b.x0 + b.x1) / 2);
      const cy = Math.round((b.y0 + b.y1) / 2);
      const gutter = inGutter(b);
      if (!gutter && around[cy * width + cx]! * window - area > maxAround) continue;
      // A dash is at least twice as wide as tall: a list's bullet dash is 5 × 2 px at 150 DPI, 4 × 2 once softened,
      // and 30–32 px before its line (fresh seed 174071's clean doc_003 lost them: 2.5 times as wide, 32 px reach).
      const dashWidth = b.x1 - b.x0 + 1;
      const dash = dashWidth >= 3 && dashWidth >= 2 * (b.y1 - b.y0 + 1);
      const rx = gutter ? 2 * gap : dash ? 3 * reachX : reachX;
      // A letter-tall one counts itself among the glyphs; it stays only with another glyph within reach.
      const own = isGlyph(id) ? area : 0;
      if (rectSum(glyphSum, width, height, b.x0 - rx, b.y0 - reachY, b.x1 + rx, b.y1 + reachY) > own)
        continue;
      if (!gutter && hasOtherInk(labels, id, b, gap, width, height)) continue;
      const faint = darkestOf(grey, labels, id, b) > faintLevel;
      if (faint && frameMean(grey, b, gap + 1) < minFrame) continue;
      for (let y = b.y0; y <= b.y1; y++)
        for (let x = b.x0; x <= b.x1; x++) if (labels[y * width + x] === id) out.data[y * width + x] = 255;
    }
    return out;
  },
};

type Box = ComponentBox;

/** Summed-area table with a zero first row and column: (width + 1) × (height + 1). */
function integralImage(src: Uint8Array, width: number, height: number): Float64Array {
  const w1 = width + 1;
  const sums = new Float64Array(w1 * (height + 1));
  for (let y = 0; y < height; y++) {
    let row = 0;
    for (let x = 0; x < width; x++) {
      row += src[y * width + x]!;
      sums[(y + 1) * w1 + x + 1] = sums[y * w1 + x + 1]! + row;
    }
  }
  return sums;
}

/** Sum over the inclusive rectangle (x0, y0)–(x1, y1), clipped to the image. */
function rectSum(
  sums: Float64Array,
  width: number,
  height: number,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
): number {
  const w1 = width + 1;
  const a = Math.max(0, x0);
  const b = Math.max(0, y0);
  const c = Math.min(width, x1 + 1);
  const d = Math.min(height, y1 + 1);
  if (c <= a || d <= b) return 0;
  return sums[d * w1 + c]! - sums[b * w1 + c]! - sums[d * w1 + a]! + sums[b * w1 + a]!;
}

/** The darkest grey of one component (inside its box). */
function darkestOf(grey: Grey, labels: Int32Array, id: number, b: Box): number {
  let darkest = 255;
  for (let y = b.y0; y <= b.y1; y++)
    for (let x = b.x0; x <= b.x1; x++) {
      const i = y * grey.width + x;
      if (labels[i] === id && grey.data[i]! < darkest) darkest = grey.data[i]!;
    }
  return darkest;
}

/** Mean grey of the one-pixel frame `margin` pixels outside a box (the parts inside the image). */
function frameMean(grey: Grey, b: Box, margin: number): number {
  const { width, height, data } = grey;
  const x0 = b.x0 - margin;
  const x1 = b.x1 + margin;
  const y0 = b.y0 - margin;
  const y1 = b.y1 + margin;
  let sum = 0;
  let n = 0;
  const add = (x: number, y: number) => {
    if (x < 0 || y < 0 || x >= width || y >= height) return;
    sum += data[y * width + x]!;
    n++;
  };
  for (let x = x0; x <= x1; x++) {
    add(x, y0);
    add(x, y1);
  }
  for (let y = y0 + 1; y < y1; y++) {
    add(x0, y);
    add(x1, y);
  }
  return n > 0 ? sum / n : 255;
}

/** 3×3 median of the grey page: two steps run it, for two reasons the plan measures (specks, grain). */
async function median3x3(img: RawImage): Promise<RawImage> {
  return sharpToRaw(sharpOf(toGrey(img, 'max')).median(3), 1);
}

/** Ink components up to this many pixels (at 150 DPI) are specks: a one-pixel dot, a dot of radius one. */
const MAX_SPECK_AREA = 6;

export const removeSaltPepper: Step = {
  name: 'remove-salt-pepper',
  kind: 'document',
  description:
    'Median of 3×3 for pages covered with 1-2 px specks and drop-outs, keeping thin rules; with specksOnly, letters keep their pixels too',
  async run(img, params) {
    const grey = toGrey(img, 'max');
    const out = await median3x3(grey);
    const dpi = num(params, 'dpi', 150);
    // On a page that is clean but for its specks (the network's), the median only thins the letters' strokes beside
    // them (fresh seed 583117 doc_025, two columns at 150 DPI: the network's page read at CER 0.086, after the median
    // 0.145; public doc_001 0.099 and 0.266): ink that belongs to anything larger than a speck keeps its pixels, and
    // so does what lies within two pixels of it (on 22 such pages of seeds 583117, 731904, dev 9301 and the public
    // set, mean CER of the network's page after the step 0.166 with the plain median, 0.145 keeping a one-pixel rim,
    // 0.127 two, 0.128 three). On a page as it came, specks clump with each other and with the letters, and only the plain
    // median takes them (public doc_003: 0.174 with it, 0.361 with the letters kept).
    // Either way a one-pixel rule keeps its pixels: the median breaks it into dashes, which OCR reads as "_ _ _"
    // (public doc_024, a form: CER 0.082 → 0.119 with the plain median, 0.048 without its rules). On the page as it
    // came, ink on a straight run a fifth of an inch long is a rule, never a speck; on the network's page a rule is
    // one large component.
    const keep =
      num(params, 'specksOnly', 0) > 0
        ? largerThanSpecks(
            grey,
            Math.max(MAX_SPECK_AREA, Math.round(MAX_SPECK_AREA * (dpi / 150) ** 2)),
            Math.max(2, Math.round((2 * dpi) / 150)),
          )
        : longRuns(grey, Math.max(8, Math.round(dpi / 5)));
    for (let i = 0; i < keep.length; i++) if (keep[i]) out.data[i] = grey.data[i]!;
    return out;
  },
};

/**
 * Ink (under the page's Otsu threshold) of components larger than `maxSpeck` pixels, with a rim of `rim` pixels: the
 * dot of an i and a full stop stand that close to their letters. So do the marks of letters that stand a little
 * farther off (lettersMarks).
 */
function largerThanSpecks(grey: Grey, maxSpeck: number, rim: number): Uint8Array {
  const { width, height, data } = grey;
  const threshold = otsuThreshold(grey);
  const ink = new Uint8Array(width * height);
  for (let i = 0; i < ink.length; i++) ink[i] = data[i]! <= threshold ? 1 : 0;
  const components = labelComponents(ink, width, height);
  const { labels, areas, boxes } = components;
  const large = new Uint8Array(width * height);
  for (let i = 0; i < large.length; i++) large[i] = labels[i]! >= 0 && areas[labels[i]!]! > maxSpeck ? 1 : 0;
  const keep = rankFilter(large, width, height, rim, true);
  for (const id of lettersMarks(components, width, height, maxSpeck, rim)) {
    const b = boxes[id]!;
    for (let y = Math.max(0, b.y0 - 1); y <= Math.min(height - 1, b.y1 + 1); y++)
      keep.fill(1, y * width + Math.max(0, b.x0 - 1), y * width + Math.min(width - 1, b.x1 + 1) + 1);
  }
  return keep;
}

/**
 * The specks (components of at most `maxSpeck` pixels) that are marks of letters, by where they stand: a full stop
 * on the line just after a letter, its bottom on the letter's (within 2.5 rims to its left); the upper dot of a colon
 * over such a stop (within 5 rims); the dot of an i or a j over its narrow stem (within 1.5 rims). At 150 DPI a colon
 * stands 3 pixels after its letter, beyond the rim, and 5 from the ink of its round shoulder (fresh seed 947394
 * doc_005, a form under sensor noise: the median took its colons and stops, CER of the network's page 0.005 → 0.022);
 * the dot of an i in 10 pt Liberation Sans stands 3 pixels over its stem (public doc_006). Salt and pepper left
 * beside letters anywhere else goes: kept wherever a letter stands within reach, it made Tesseract unsure of the
 * words (noise6 seed 20261221 doc_014, worst case: CER 0.146 → 0.251).
 */
function lettersMarks(
  { labels, areas, boxes, count }: ReturnType<typeof labelComponents>,
  width: number,
  height: number,
  maxSpeck: number,
  rim: number,
): Set<number> {
  const left = Math.round(2.5 * rim);
  const overStem = Math.round(1.5 * rim);
  const overStop = 5 * rim;
  const onBaseline = Math.max(1, Math.round(rim / 2));
  const letterAt = (x: number, y: number) => {
    const id = labels[y * width + x]!;
    return id >= 0 && areas[id]! > maxSpeck ? id : -1;
  };
  const specks = [...Array(count).keys()].filter((id) => areas[id]! <= maxSpeck);
  const stops = new Set(
    specks.filter((id) => {
      const b = boxes[id]!;
      for (let y = b.y0; y <= b.y1; y++)
        for (let x = b.x0 - 1; x >= Math.max(0, b.x0 - left); x--) {
          const letter = letterAt(x, y);
          if (letter >= 0) return Math.abs(boxes[letter]!.y1 - b.y1) <= onBaseline;
        }
      return false;
    }),
  );
  const marks = new Set(stops);
  for (const id of specks) {
    if (stops.has(id)) continue;
    const b = boxes[id]!;
    const wide = b.x1 - b.x0 + 1;
    for (let y = b.y1 + 1; y <= Math.min(height - 1, b.y1 + overStop) && !marks.has(id); y++)
      for (let x = b.x0; x <= b.x1; x++) {
        const stem = y - b.y1 <= overStem ? letterAt(x, y) : -1;
        if (stem >= 0 && boxes[stem]!.x1 - boxes[stem]!.x0 + 1 <= 3 * wide + 1) marks.add(id);
        if (stops.has(labels[y * width + x]!)) marks.add(id);
      }
  }
  return marks;
}

/** Ink pixels (under the page's Otsu threshold) on a horizontal or vertical run of at least `length` pixels. */
function longRuns(grey: Grey, length: number): Uint8Array {
  const { width, height, data } = grey;
  const threshold = otsuThreshold(grey);
  const mark = new Uint8Array(width * height);
  forEachInkRun(
    (i) => data[i]! <= threshold,
    width,
    height,
    length,
    (run) => {
      for (let k = run.start; k < run.end; k++) mark[run.at(run.line, k)] = 1;
    },
  );
  return mark;
}

/** A straight run of ink pixels: along line `line` (a row, or a column where `down`), from `start` to before `end`. */
interface InkRun {
  down: boolean;
  line: number;
  start: number;
  end: number;
  /** The lines in this direction, and the pixels along each. */
  lines: number;
  steps: number;
  /** The pixel index of position `k` along line `line`. */
  at: (line: number, k: number) => number;
}

/** Calls `visit` for every run of at least `length` ink pixels, across the rows and then down the columns. */
function forEachInkRun(
  ink: (i: number) => boolean,
  width: number,
  height: number,
  length: number,
  visit: (run: InkRun) => void,
): void {
  const scan = (down: boolean, lines: number, steps: number, at: (line: number, k: number) => number) => {
    for (let line = 0; line < lines; line++) {
      let start = 0;
      for (let k = 0; k <= steps; k++) {
        if (k < steps && ink(at(line, k))) continue;
        if (k - start >= length) visit({ down, line, start, end: k, lines, steps, at });
        start = k + 1;
      }
    }
  };
  scan(false, height, width, (y, x) => y * width + x);
  scan(true, width, height, (x, y) => y * width + x);
}

export const deskew: Step = {
  name: 'deskew',
  kind: 'document',
  description: 'Rotates the page by the measured text-line angle (projection profile), keeping its size',
  async run(img, params) {
    const angle = num(params, 'angle', 0);
    if (angle === 0) return img;
    const grey = toGrey(img, 'max');
    const rotated = await sharpToRaw(
      sharpOf(grey).rotate(angle, { background: { r: 255, g: 255, b: 255 } }),
      1,
    );
    const left = Math.max(0, Math.floor((rotated.width - grey.width) / 2));
    const top = Math.max(0, Math.floor((rotated.height - grey.height) / 2));
    return sharpToRaw(sharpOf(rotated).extract({ left, top, width: grey.width, height: grey.height }), 1);
  },
};

export const stretchContrast: Step = {
  name: 'stretch-contrast',
  kind: 'document',
  description:
    'Levels: darkest ink to black and everything near the paper level to white (drops faint bleed-through and tint)',
  run(img, params) {
    const grey = toGrey(img, 'max');
    const hist = histogram(grey.data);
    const total = grey.data.length;
    // Paper: the brightest well-populated level; ink: the 2nd percentile of the darker-than-Otsu pixels.
    const t = otsuThreshold(grey);
    let inkCount = 0;
    for (let v = 0; v < t; v++) inkCount += hist[v]!;
    let acc = 0;
    let ink = 0;
    for (let v = 0; v < t; v++) {
      acc += hist[v]!;
      if (acc >= inkCount * 0.02) {
        ink = v;
        break;
      }
    }
    let paper = 255;
    let peak = 0;
    for (let v = t; v < 256; v++) {
      if (hist[v]! > peak) {
        peak = hist[v]!;
        paper = v;
      }
    }
    if (inkCount < total * 0.001 || paper - ink < 40) return grey;
    const whiteAt = paper - num(params, 'whiteFraction', 0.12) * (paper - ink);
    const blackAt = Math.min(ink, whiteAt - 20);
    const gamma = num(params, 'gamma', 1);
    const lut = new Uint8Array(256);
    for (let v = 0; v < 256; v++) {
      const u = Math.min(1, Math.max(0, (v - blackAt) / (whiteAt - blackAt)));
      lut[v] = Math.round(255 * Math.pow(u, gamma));
    }
    const out = createImage(grey.width, grey.height, 1);
    for (let i = 0; i < total; i++) out.data[i] = lut[grey.data[i]!]!;
    return out;
  },
};

export const repairStrokes: Step = {
  name: 'repair-strokes',
  kind: 'document',
  description:
    'Fills single-pixel drop-outs inside strokes (light pixels mostly surrounded by ink), never widening gaps',
  run(img, params) {
    const grey = toGrey(img, 'max');
    const { width, height } = grey;
    const threshold = Math.min(otsuThreshold(grey), 200);
    const need = num(params, 'neighbours', 6);
    const out = createImage(width, height, 1);
    out.data.set(grey.data);
    for (let pass = 0; pass < num(params, 'passes', 1); pass++) {
      const src = out.data.slice();
      for (let y = 1; y < height - 1; y++) {
        for (let x = 1; x < width - 1; x++) {
          const i = y * width + x;
          if (src[i]! < threshold) continue;
          let dark = 0;
          let sum = 0;
          for (let dy = -1; dy <= 1; dy++) {
            for (let dx = -1; dx <= 1; dx++) {
              if (dx === 0 && dy === 0) continue;
              const v = src[i + dy * width + dx]!;
              if (v < threshold) {
                dark++;
                sum += v;
              }
            }
          }
          if (dark >= need) out.data[i] = Math.round(sum / dark);
        }
      }
    }
    return out;
  },
};

export const sharpenText: Step = {
  name: 'sharpen-text',
  kind: 'document',
  description: 'Mild unsharp mask for soft (defocused or motion-blurred) text',
  async run(img, params) {
    const sharpened = sharpOf(toGrey(img, 'max')).sharpen({
      sigma: num(params, 'sigma', 1.2),
      m1: 0.5,
      m2: num(params, 'amount', 1.5),
    });
    return sharpToRaw(sharpened, 1);
  },
};

export const removeMotionBlur: Step = {
  name: 'remove-motion-blur',
  kind: 'document',
  description:
    "Motion-blurred text: Wiener deconvolution with the straight smear the page's cepstrum measured (angle, length)",
  run: (img, params) => deblurMotion.run(img, params),
};

export const denoiseDocument: Step = {
  name: 'denoise-document',
  kind: 'document',
  description: 'Edge-preserving smoothing of strong scanner and sensor noise (median of 3×3)',
  run: median3x3,
};

export const smoothDocument: Step = {
  name: 'smooth-document',
  kind: 'document',
  description:
    'Light Gaussian blur (sigma 1 px at 150 DPI) against grainy camera or scanner noise on the paper',
  async run(img, params) {
    return sharpToRaw(sharpOf(toGrey(img, 'max')).blur(Math.max(0.3, scaleOf(params))), 1);
  },
};

export const upscaleDocument: Step = {
  name: 'upscale-document',
  kind: 'document',
  description:
    'Enlarges low-resolution text (Lanczos, then a light unsharp mask) so small print keeps its shapes',
  async run(img, params) {
    const grey = toGrey(img, 'max');
    const scale = num(params, 'scale', 2);
    const enlarged = sharpOf(grey)
      .resize({
        width: Math.round(grey.width * scale),
        height: Math.round(grey.height * scale),
        kernel: 'lanczos3',
      })
      .sharpen({ sigma: 1, m1: 0.5, m2: 1 });
    return sharpToRaw(enlarged, 1);
  },
};

/**
 * Local ink depth (255 minus the darkest level) around every pixel: block minimum, widened over about two text
 * lines, smoothed. Paper-only areas read near 0.
 */
export function localInkDepth(grey: Grey, dpi: number): Float32Array {
  const factor = Math.max(2, Math.round((4 * dpi) / 150));
  const inverted = new Uint8Array(grey.data.length);
  for (let i = 0; i < inverted.length; i++) inverted[i] = 255 - grey.data[i]!;
  const small = reduce(inverted, grey.width, grey.height, factor, 'max');
  const radius = Math.max(2, Math.round((20 * dpi) / 150 / factor));
  const widened = rankFilter(small.data, small.width, small.height, radius, true);
  const smooth = boxMean(widened, small.width, small.height, radius);
  return enlarge(smooth, small.width, small.height, grey.width, grey.height, factor);
}

export const restoreInkContrast: Step = {
  name: 'restore-ink-contrast',
  kind: 'document',
  description:
    'Darkens faded ink where it is locally paler than full-strength ink; paler marks (bleed-through) stay as they are',
  run(img, params) {
    const grey = toGrey(img, 'max');
    const depth = localInkDepth(grey, num(params, 'dpi', 150));
    // Ink at least this far below the paper counts as full strength; a neighbourhood whose darkest ink is
    // shallower than 40 % of it holds no text (bleed-through, stain rims) and is left alone.
    const full = 200;
    const floor = 0.4 * full;
    const maxGain = 2.5;
    const out = createImage(grey.width, grey.height, 1);
    for (let i = 0; i < out.data.length; i++) {
      const d = depth[i]!;
      const v = grey.data[i]!;
      if (d < floor || d >= full) {
        out.data[i] = v;
        continue;
      }
      // Full gain for the darker half of the local range (the ink), none below 15 % of it (paper, faint
      // bleed-through), a ramp between so that stroke edges keep their shape.
      const share = Math.min(1, Math.max(0, ((255 - v) / d - 0.15) / 0.35));
      const gain = 1 + (Math.min(maxGain, full / d) - 1) * share;
      out.data[i] = Math.max(0, 255 - (255 - v) * gain);
    }
    return out;
  },
};

/**
 * Scratch marks on a flattened page: the pixels of thin, long, pale lines that keep clear of the ink (more than two
 * pixels from any dark stroke), curved or slanted. Text is safe four ways: its pale edge pixels all lie next to
 * dark strokes; pale print forms glyph-sized or thick blobs, not long thin ones; straight rules (form lines,
 * underlines) run along the page's axes and are left alone, like folds; and a line with anything standing up from it (pale
 * letters touching a rule) is not a scratch. Returns the scratch mask (1 = scratch).
 */
export function findScratches(grey: Grey, dpi: number): Uint8Array {
  const { width, height, data } = grey;
  const s = dpi / 150;
  const core = new Uint8Array(width * height);
  for (let i = 0; i < core.length; i++) core[i] = data[i]! < 90 ? 1 : 0;
  const nearInk = rankFilter(core, width, height, Math.max(2, Math.round(2 * s)), true);
  const pale = new Uint8Array(width * height);
  for (let i = 0; i < pale.length; i++) pale[i] = data[i]! < 235 && !nearInk[i] ? 1 : 0;
  const { labels, areas, boxes } = labelComponents(pale, width, height);
  // At least 0.4 inch long, at most about 2.5 px thick on average, and slanted by more than 8° from both axes:
  // rules run along the axes, and so do folds and creases, which cross the text and need a repair of their own.
  const minLength = 0.4 * dpi;
  const minSlope = Math.tan((8 * Math.PI) / 180);
  const scratch = Array.from(areas, (area, id) => {
    const b = boxes[id]!;
    const w = b.x1 - b.x0 + 1;
    const h = b.y1 - b.y0 + 1;
    const length = Math.hypot(w, h);
    return (
      length >= minLength &&
      area <= 2.5 * s * length &&
      Math.min(w, h) > 4 * s &&
      Math.min(w, h) > minSlope * Math.max(w, h)
    );
  });
  // A scratch is a curve: across its length, every slice (column of a flat one, row of a steep one) holds only a
  // few pixels. A pale rule with pale letters touching it fails here: the letters stand up from the line.
  const maxSlice = Math.max(3, Math.round(3 * s));
  const slices = new Map<number, Uint16Array>();
  scratch.forEach((ok, id) => {
    const b = boxes[id]!;
    if (ok) slices.set(id, new Uint16Array(Math.max(b.x1 - b.x0, b.y1 - b.y0) + 1));
  });
  for (let i = 0; i < labels.length; i++) {
    const id = labels[i]!;
    const counts = id >= 0 ? slices.get(id) : undefined;
    if (!counts) continue;
    const b = boxes[id]!;
    const x = i % width;
    const y = (i - x) / width;
    const k = b.x1 - b.x0 >= b.y1 - b.y0 ? x - b.x0 : y - b.y0;
    if (++counts[k]! > maxSlice) scratch[id] = false;
  }
  const mask = new Uint8Array(width * height);
  for (let i = 0; i < mask.length; i++) if (labels[i]! >= 0 && scratch[labels[i]!]) mask[i] = 1;
  return mask;
}

export const removeScratches: Step = {
  name: 'remove-scratches',
  kind: 'document',
  description:
    'Whitens thin, long, pale scratch lines that keep clear of the ink (curved or slanted; straight rules stay)',
  run(img, params) {
    const grey = toGrey(img, 'max');
    const mask = findScratches(grey, num(params, 'dpi', 150));
    const out = createImage(grey.width, grey.height, 1);
    for (let i = 0; i < out.data.length; i++) out.data[i] = mask[i] ? 255 : grey.data[i]!;
    return out;
  },
};

export const documentSteps: Step[] = [
  whitenPaper,
  cleanBorders,
  flattenBackground,
  clearEdgeMarks,
  removeSaltPepper,
  removeSpeckles,
  removeScratches,
  repairCreasesStep,
  removeStreaksStep,
  deskew,
  stretchContrast,
  restoreInkContrast,
  repairStrokes,
  sharpenText,
  removeMotionBlur,
  denoiseDocument,
  smoothDocument,
  upscaleDocument,
];
