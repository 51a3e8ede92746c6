// Straight lines across the page close to one of its axes, found as a Hough vote of thin dark ridges: the lines a
// fold or crease leaves (steps/crease.ts) and a sheet feeder's streak (pixels/streaks.ts), and the paper's level
// beside such a line.
import { createImage } from '../image.js';
import type { Grey } from './index.js';

/** A line near an axis of the page. */
export interface AxisLine {
  /** A line along the rows (false: along the columns). */
  horizontal: boolean;
  /** Angle from the axis, in radians (at most a few degrees). */
  angle: number;
  /** Position across the axis (row or column) where the line crosses the middle of the page. */
  offset: number;
}

/** The widest angle from the page's axes a line is searched at (folds and creases lie within it). */
export const MAX_ANGLE_DEG = 4;
const ANGLE_STEP_DEG = 0.1;

/** About half a crease ridge's width (3 px at 150 DPI): how far from the line the ridge itself reaches. */
export const ridgeHalfWidth = (dpi: number) => Math.max(2, Math.round((3 * dpi) / 150));

/** Rows and columns swapped: lines along the columns are then found and repaired like lines along the rows. */
export function transpose(g: Grey): Grey {
  const out = createImage(g.height, g.width, 1) as Grey;
  for (let y = 0; y < g.height; y++)
    for (let x = 0; x < g.width; x++) out.data[x * g.height + y] = g.data[y * g.width + x]!;
  return out;
}

/**
 * Candidate lines along the rows: a Hough vote of the pixels that are a thin dark ridge across the rows (darker
 * than the pixels `reach` rows above and below), kept when the ridge shows in both outer strips of the page (edge
 * to edge, unlike a rule) and runs over half the width. Only the strips vote (a third of the page); the few lines
 * that pass there are then counted along their whole length. One line per crease (the best count nearby wins).
 * Options: `spread` rows either side of a line count for it too (a one-pixel line whose slope falls between two of
 * the angles tried steps a row off the fitted line along its length); `maxAngleDeg` bounds the angles tried.
 */
export function ridgeLines(
  g: Grey,
  dpi: number,
  { spread = 0, maxAngleDeg = MAX_ANGLE_DEG }: { spread?: number; maxAngleDeg?: number } = {},
): { angle: number; offset: number }[] {
  const { width: w, height: h, data } = g;
  const s = dpi / 150;
  const reach = ridgeHalfWidth(dpi);
  const ridge = new Uint8Array(w * h);
  for (let y = reach; y < h - reach; y++) {
    for (let x = 0; x < w; x++) {
      const v = data[y * w + x]!;
      if (v > 235) continue;
      const around = Math.min(data[(y - reach) * w + x]!, data[(y + reach) * w + x]!);
      if (around - v >= 12) ridge[y * w + x] = 1;
    }
  }
  const steps = Math.round(maxAngleDeg / ANGLE_STEP_DEG);
  const tans = Array.from({ length: 2 * steps + 1 }, (_, k) =>
    Math.tan(((k - steps) * ANGLE_STEP_DEG * Math.PI) / 180),
  );
  const pad = Math.ceil((w / 2) * Math.abs(tans[0]!)) + 1;
  const rows = h + 2 * pad;
  const left = new Uint16Array(tans.length * rows);
  const right = new Uint16Array(tans.length * rows);
  const strip = Math.round(0.15 * w);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (x === strip) x = w - strip;
      if (!ridge[y * w + x]) continue;
      const votes = x < strip ? left : right;
      const cx = x - w / 2;
      for (let k = 0; k < tans.length; k++) votes[k * rows + Math.round(y - cx * tans[k]!) + pad]!++;
    }
  }
  const found: { angle: number; offset: number; score: number }[] = [];
  const minStrip = 0.3 * strip;
  const edge = Math.round(0.06 * h);
  for (let k = 0; k < tans.length; k++) {
    for (let r = spread; r < rows - spread; r++) {
      let inLeft = 0;
      let inRight = 0;
      for (let d = -spread; d <= spread; d++) {
        inLeft += left[k * rows + r + d]!;
        inRight += right[k * rows + r + d]!;
      }
      if (inLeft < minStrip || inRight < minStrip) continue;
      // Not along the page's own edges, where scanner shadows and border remnants lie.
      const offset = r - pad;
      if (offset < edge || offset > h - edge) continue;
      // The ridge pixels this line's vote would hold: in each column, the row y with round(y − cx·tan) = offset.
      let score = 0;
      for (let x = 0; x < w; x++) {
        const y = Math.ceil(offset + (x - w / 2) * tans[k]! - 0.5);
        for (let d = -spread; d <= spread; d++) {
          if (y + d >= 0 && y + d < h && ridge[(y + d) * w + x]) {
            score++;
            break;
          }
        }
      }
      if (score >= 0.5 * w) found.push({ angle: Math.atan(tans[k]!), offset, score });
    }
  }
  found.sort((a, b) => b.score - a.score);
  const kept: typeof found = [];
  for (const line of found) {
    if (kept.some((k) => Math.abs(k.offset - line.offset) < 12 * s)) continue;
    kept.push(line);
  }
  return kept.map(({ angle, offset }) => ({ angle, offset }));
}

/** Paper level along a line: per stretch of it, per distance from it, a high percentile of the pixels there. */
export interface Profile {
  band: number;
  stretch: number;
  /** levels[stretch][d + band] */
  levels: Float32Array[];
}

/** The line's row in each column (rounded), computed once per line for the loops across its band. */
export function lineRows(w: number, line: { angle: number; offset: number }): Int32Array {
  const tan = Math.tan(line.angle);
  return Int32Array.from({ length: w }, (_, x) => Math.round(line.offset + (x - w / 2) * tan));
}

export function paperProfile(g: Grey, line: { angle: number; offset: number }, dpi: number): Profile {
  const { width: w, height: h, data } = g;
  const s = dpi / 150;
  const band = Math.round(50 * s);
  const stretch = Math.round(100 * s);
  const levels: Float32Array[] = [];
  const values: number[] = [];
  const rows = lineRows(w, line);
  for (let x0 = 0; x0 < w; x0 += stretch) {
    const level = new Float32Array(2 * band + 1).fill(255);
    for (let d = -band; d <= band; d++) {
      values.length = 0;
      for (let x = x0; x < Math.min(w, x0 + stretch); x++) {
        const y = rows[x]! + d;
        if (y >= 0 && y < h) values.push(data[y * w + x]!);
      }
      if (values.length < stretch / 4) continue;
      values.sort((a, b) => a - b);
      level[d + band] = values[Math.floor(values.length * 0.9)]!;
    }
    levels.push(level);
  }
  return { band, stretch, levels };
}

/** The paper's level at the far edges of the profile's band (white on a flattened page). */
export function farPaper(p: Profile): number {
  const far = p.levels.map((level) => Math.max(level[0]!, level[2 * p.band]!)).sort((a, b) => a - b);
  return far[Math.floor(far.length / 2)]!;
}

/**
 * A crease, not a rule: the paper itself is shaded beside the ridge (a rule has paper as light as the page's right
 * next to it), and the ridge is dark all along the line. Both are measured against the paper away from the line
 * (farPaper): on a page whose grain no step took away, the paper beside any line is that grey, and a table's rules
 * were repaired as creases, with grey bands left along them (phone5 profile seed 5502 doc_024, an invoice photographed
 * with a phone: CER 0.169 before repair-creases, 0.572 after).
 */
export function isCrease(p: Profile, dpi: number): boolean {
  const paper = farPaper(p);
  const core = ridgeHalfWidth(dpi);
  const shaded = (level: Float32Array) => {
    let darkest = 255;
    for (let d = core + 2; d <= 3 * core + 2; d++)
      darkest = Math.min(darkest, level[p.band + d]!, level[p.band - d]!);
    return darkest;
  };
  const ridge = (level: Float32Array) => Math.min(...level.subarray(p.band - core, p.band + core + 1));
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return median(p.levels.map(shaded)) < paper - 10 && median(p.levels.map(ridge)) < paper - 20;
}

/**
 * A copy of the page with `mend` applied to it along each line, the page transposed for the lines along the columns:
 * `mend` works on lines along the rows of the page it gets, in place.
 */
export function mendAlongLines(
  grey: Grey,
  lines: readonly AxisLine[],
  mend: (g: Grey, line: AxisLine) => void,
): Grey {
  let along = createImage(grey.width, grey.height, 1) as Grey;
  along.data.set(grey.data);
  for (const horizontal of [true, false]) {
    const these = lines.filter((l) => l.horizontal === horizontal);
    if (these.length === 0) continue;
    const g = horizontal ? along : transpose(along);
    for (const line of these) mend(g, line);
    along = horizontal ? g : transpose(g);
  }
  return along;
}
