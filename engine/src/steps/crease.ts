// Fold and crease repair. A crease is a straight line across the whole sheet, close to one of the page's axes:
// a thin dark ridge with the paper shaded beside it. Rules and table lines are straight too, but they stop short
// of the page edges and have white paper right beside them, so they are left alone. Along a crease the paper's
// level is estimated at every distance from the line (a high percentile along short stretches of it, so text
// crossing the line does not count) and the band is divided by it: the ridge and the shading go back to paper,
// and text strokes crossing the crease stay as dark as they were.
import { createImage } from '../image.js';
import { num, type Step } from './registry.js';
import { toGrey, type Grey } from '../pixels/index.js';

export interface Crease {
  /** A line along the rows (false: along the columns). */
  horizontal: boolean;
  /** Angle from the axis, in radians (at most a few degrees). */
  angle: number;
  /** Position across the axis (row or column) where the line crosses the middle of the page. */
  offset: number;
}

const MAX_ANGLE_DEG = 4;
const ANGLE_STEP_DEG = 0.1;

/** About half a crease ridge's width (3 px at 150 DPI): how far from the line the ridge itself reaches. */
const ridgeHalfWidth = (dpi: number) => Math.max(2, Math.round((3 * dpi) / 150));

/** Rows and columns swapped: lines along the columns are then found and repaired like lines along the rows. */
function transpose(g: Grey): Grey {
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
 */
function ridgeLines(g: Grey, dpi: number): { angle: number; offset: number }[] {
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
  const steps = Math.round(MAX_ANGLE_DEG / ANGLE_STEP_DEG);
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
    for (let r = 0; r < rows; r++) {
      if (left[k * rows + r]! < minStrip || right[k * rows + r]! < minStrip) continue;
      // Not along the page's own edges, where scanner shadows and border remnants lie.
      const offset = r - pad;
      if (offset < edge || offset > h - edge) continue;
      // The ridge pixels this line's vote would hold: in each column, the row y with round(y − cx·tan) = offset.
      let score = 0;
      for (let x = 0; x < w; x++) {
        const y = Math.ceil(offset + (x - w / 2) * tans[k]! - 0.5);
        if (y >= 0 && y < h && ridge[y * w + x]) score++;
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
interface Profile {
  band: number;
  stretch: number;
  /** levels[stretch][d + band] */
  levels: Float32Array[];
}

/** The line's row in each column (rounded), computed once per line for the loops across its band. */
function lineRows(w: number, line: { angle: number; offset: number }): Int32Array {
  const tan = Math.tan(line.angle);
  return Int32Array.from({ length: w }, (_, x) => Math.round(line.offset + (x - w / 2) * tan));
}

function paperProfile(g: Grey, line: { angle: number; offset: number }, dpi: number): Profile {
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

/**
 * A crease, not a rule: the paper itself is shaded beside the ridge (a rule has white paper right next to it),
 * and the ridge is dark all along the line.
 */
function isCrease(p: Profile, dpi: number): boolean {
  const core = ridgeHalfWidth(dpi);
  const shaded = (level: Float32Array) => {
    let darkest = 255;
    for (let d = core + 2; d <= p.band * 0.6; d++)
      darkest = Math.min(darkest, level[p.band + d]!, level[p.band - d]!);
    return darkest;
  };
  const ridge = (level: Float32Array) => Math.min(...level.subarray(p.band - core, p.band + core + 1));
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return median(p.levels.map(shaded)) < 245 && median(p.levels.map(ridge)) < 235;
}

/**
 * Divides the band around the line by its paper profile (interpolated along the line), fading out at its edge;
 * then what is left of the ridge (where the line wanders off the fitted one by a pixel) is painted with the
 * paper on either side of it, except where a stroke crosses (dark on both sides) or lies along it (dark).
 */
function flattenAlong(g: Grey, line: { angle: number; offset: number }, p: Profile, dpi: number): void {
  const { width: w, height: h, data } = g;
  const core = ridgeHalfWidth(dpi);
  const reach = core + 2;
  const n = p.levels.length;
  const rows = lineRows(w, line);
  for (let x = 0; x < w; x++) {
    // Between the centres of the two nearest stretches.
    const t = Math.min(n - 1, Math.max(0, (x - p.stretch / 2) / p.stretch));
    const i0 = Math.floor(t);
    const i1 = Math.min(n - 1, i0 + 1);
    const f = t - i0;
    const base = rows[x]!;
    for (let d = -p.band; d <= p.band; d++) {
      const y = base + d;
      if (y < 0 || y >= h) continue;
      const level = p.levels[i0]![d + p.band]! * (1 - f) + p.levels[i1]![d + p.band]! * f;
      const fade = Math.min(1, (p.band - Math.abs(d)) / (0.2 * p.band));
      const paper = 255 + (level - 255) * fade;
      const i = y * w + x;
      data[i] = Math.min(255, Math.round((data[i]! * 255) / Math.max(1, paper)));
    }
  }
  for (let x = 0; x < w; x++) {
    const base = rows[x]!;
    for (let d = -core - 1; d <= core + 1; d++) {
      const y = base + d;
      if (y - reach < 0 || y + reach >= h) continue;
      const above = data[(y - reach) * w + x]!;
      const below = data[(y + reach) * w + x]!;
      const i = y * w + x;
      // The ridge's rest is pale after the division; a text stroke lying along the crease is dark and stays.
      if (above > 200 && below > 200 && data[i]! > 110) data[i] = Math.max(data[i]!, Math.min(above, below));
    }
  }
}

/** The creases of a grey page with white paper (after flatten-background). */
export function findCreases(grey: Grey, dpi: number): Crease[] {
  const creases: Crease[] = [];
  for (const horizontal of [true, false]) {
    const g = horizontal ? grey : transpose(grey);
    for (const line of ridgeLines(g, dpi))
      if (isCrease(paperProfile(g, line, dpi), dpi)) creases.push({ horizontal, ...line });
  }
  return creases;
}

/** The page with every crease flattened into the paper. */
export function repairCreases(grey: Grey, creases: readonly Crease[], dpi: number): Grey {
  let along = createImage(grey.width, grey.height, 1) as Grey;
  along.data.set(grey.data);
  for (const horizontal of [true, false]) {
    const lines = creases.filter((c) => c.horizontal === horizontal);
    if (lines.length === 0) continue;
    const g = horizontal ? along : transpose(along);
    for (const line of lines) flattenAlong(g, line, paperProfile(g, line, dpi), dpi);
    along = horizontal ? g : transpose(g);
  }
  return along;
}

export const repairCreasesStep: Step = {
  name: 'repair-creases',
  kind: 'document',
  description:
    'Flattens fold and crease lines that run edge to edge near an axis (ridge and shading) into the paper; rules stay',
  run(img, params) {
    const dpi = num(params, 'dpi', 150);
    const grey = toGrey(img, 'max');
    const creases = findCreases(grey, dpi);
    return creases.length > 0 ? repairCreases(grey, creases, dpi) : grey;
  },
};
