// Scanner streaks. A speck of dust on a sheet feeder's glass draws one thin dark line along the whole sheet, in the
// direction it was fed, through margins and text alike. Tesseract takes such a line for a column rule and reads the
// text on either side of it as two columns (fresh seed 583117 doc_027, a letter: CER 0.001 clean, 0.662 with the
// streak). A streak is told from the page's own lines by what it does: it runs the sheet's length (a rule, a table's
// line or a frame stops short of it), it has white paper beside it (a crease has shaded paper, and repair-creases
// takes it), and it crosses letters on its way (a frame crosses none). Where it runs over paper it is painted out
// (steps/streak.ts); where a stroke crosses it the stroke stays whole. Levels are taken against the paper beside
// the line, so a page works as it came (before the trained network, which would darken a streak into a rule) as
// well as flattened. The network's page shows the same kind of line where a crease was: the network takes the
// crease's shading and leaves its ridge, so there it is searched at a crease's angles too (analysis/plan.ts).
import type { Grey } from './index.js';
import {
  isCrease,
  lineRows,
  paperProfile,
  ridgeLines,
  transpose,
  type AxisLine,
  type Profile,
} from './axis-lines.js';

/** A streak: along one of the page's axes, at a small angle from it. */
export type Streak = AxisLine;

/** Darker than this share of the paper's level is ink or streak; paper and a streak's soft rim are lighter. */
const DARK = 0.78;
/** Widest run across the line painted out, in pixels at 150 DPI: a feeder streak is a pixel or two wide. */
const MAX_WIDTH = 3;
/** Share of the sheet's length the line shows along (strokes crossing it count): rules and frames stop short. */
const MIN_COVER = 0.85;
/**
 * Share of the length where it shows as a bare thin line. Text covers a line crossing it only in places, but a line
 * that runs along a text line, through its letters, is covered over most of the text's width (fresh seed 641437
 * doc_015: a crease along a line of both columns, bare over 42 % of the sheet). The cover, the bare ends and the
 * crossings tell a streak from rules and frames.
 */
const MIN_BARE = 0.3;
/**
 * Share of each end tenth of the length where it shows bare: it runs out to the sheet's ends, across the margins,
 * where a table's rule, even one that a shadow prolongs, stops.
 */
const MIN_BARE_AT_ENDS = 0.3;
/**
 * A one-pixel line needs a row either side counted when the candidate lines are searched. A feeder's streak runs
 * along the scan's axis (the feeder drags the sheet straight past the speck), so by default only small angles are
 * tried.
 */
const SPREAD = 1;
export const FEEDER_STREAK_MAX_ANGLE_DEG = 1;
/** Strokes it crosses away from its ends: a frame's line meets the frame only at its corners. */
const MIN_CROSSINGS = 3;

/** The paper's level a little way off the line (a high percentile along each stretch of it), per column. */
function paperBeside(p: Profile, w: number, dpi: number): Float32Array {
  const off = Math.max(6, Math.round((8 * dpi) / 150));
  return Float32Array.from({ length: w }, (_, x) => {
    const level = p.levels[Math.min(p.levels.length - 1, Math.floor(x / p.stretch))]!;
    return Math.max(level[p.band - off]!, level[p.band + off]!);
  });
}

/**
 * Where the line (along the rows of `g`) is a thin dark run across it: per column, the run's first and last row, or
 * -1 where the line is not bare there (paper, or a stroke crossing or lying along it). `crossed` marks the columns
 * where dark ink wider than a streak covers the line.
 */
export function bareRuns(g: Grey, line: { angle: number; offset: number }, p: Profile, dpi: number) {
  const { width: w, height: h, data } = g;
  const s = dpi / 150;
  const search = Math.max(2, Math.round(2 * s));
  const maxWidth = Math.max(MAX_WIDTH, Math.round(MAX_WIDTH * s));
  const rows = lineRows(w, line);
  const paper = paperBeside(p, w, dpi);
  const first = new Int32Array(w).fill(-1);
  const last = new Int32Array(w).fill(-1);
  const crossed = new Uint8Array(w);
  // Where the streak was last seen bare, against the fitted line: it wanders off the line by a pixel or so.
  let shift = 0;
  let seen = -w;
  for (let x = 0; x < w; x++) {
    const dark = DARK * paper[x]!;
    // The dark pixel nearest to where the streak runs (a letter's stroke a little off it is not the streak).
    const expected = rows[x]! + (x - seen <= search * 10 ? shift : 0);
    let y = -1;
    for (let step = 0; step <= 2 * search && y < 0; step++) {
      const r = expected + (step % 2 === 0 ? step / 2 : -(step + 1) / 2);
      if (r >= 0 && r < h && Math.abs(r - rows[x]!) <= search && data[r * w + x]! < dark) y = r;
    }
    if (y < 0) continue;
    let a = y;
    let b = y;
    while (a > 0 && data[(a - 1) * w + x]! < dark && b - a < maxWidth) a--;
    while (b < h - 1 && data[(b + 1) * w + x]! < dark && b - a < maxWidth) b++;
    const closed = a > 0 && b < h - 1 && data[(a - 1) * w + x]! >= dark && data[(b + 1) * w + x]! >= dark;
    if (closed && b - a + 1 <= maxWidth) {
      first[x] = a;
      last[x] = b;
      shift = Math.round((a + b) / 2) - rows[x]!;
      seen = x;
    } else crossed[x] = 1;
  }
  // The streak's own width is what it shows most often; a run wider than that is the streak beside a letter's stem,
  // which stays.
  const widths = new Uint32Array(maxWidth + 1);
  for (let x = 0; x < w; x++) if (first[x]! >= 0) widths[last[x]! - first[x]! + 1]!++;
  let usual = 1;
  for (let k = 2; k <= maxWidth; k++) if (widths[k]! > widths[usual]!) usual = k;
  for (let x = 0; x < w; x++) {
    if (first[x]! >= 0 && last[x]! - first[x]! + 1 > usual) {
      first[x] = -1;
      crossed[x] = 1;
    }
  }
  return { first, last, crossed };
}

/** Whether the line along the rows of `g` is a streak: long, mostly bare, crossing strokes, not a crease. */
function isStreak(g: Grey, line: { angle: number; offset: number }, dpi: number): boolean {
  const w = g.width;
  const profile = paperProfile(g, line, dpi);
  const { first, crossed } = bareRuns(g, line, profile, dpi);
  let bare = 0;
  let shown = 0;
  let crossings = 0;
  const end = Math.round(0.1 * w);
  let bareAtStart = 0;
  let bareAtEnd = 0;
  for (let x = 0; x < w; x++) {
    if (first[x]! >= 0) {
      bare++;
      if (x < end) bareAtStart++;
      if (x >= w - end) bareAtEnd++;
    }
    if (first[x]! >= 0 || crossed[x]) shown++;
    // A crossing starts here, away from the line's ends.
    if (crossed[x] && !crossed[x - 1] && x > 0.1 * w && x < 0.9 * w) crossings++;
  }
  return (
    shown >= MIN_COVER * w &&
    bare >= MIN_BARE * w &&
    Math.min(bareAtStart, bareAtEnd) >= MIN_BARE_AT_ENDS * end &&
    crossings >= MIN_CROSSINGS &&
    !isCrease(profile, dpi)
  );
}

/** The streaks of a grey page, along either axis, within `maxAngleDeg` of it. */
export function findStreaks(grey: Grey, dpi: number, maxAngleDeg = FEEDER_STREAK_MAX_ANGLE_DEG): Streak[] {
  const streaks: Streak[] = [];
  for (const horizontal of [true, false]) {
    const g = horizontal ? grey : transpose(grey);
    for (const line of ridgeLines(g, dpi, { spread: SPREAD, maxAngleDeg }))
      if (isStreak(g, line, dpi)) streaks.push({ horizontal, ...line });
  }
  return streaks;
}
