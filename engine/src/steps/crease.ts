// Fold and crease repair. A crease is a straight line across the whole sheet, close to one of the page's axes:
// a thin dark ridge with the paper shaded beside it. Rules and table lines are straight too, but they stop short
// of the page edges and have white paper right beside them, so they are left alone. Along a crease the paper's
// level is estimated at every distance from the line (a high percentile along short stretches of it, so text
// crossing the line does not count) and the band is divided by it: the ridge and the shading go back to paper,
// and text strokes crossing the crease stay as dark as they were.
import { num, type Step } from './registry.js';
import { toGrey, type Grey } from '../pixels/index.js';
import {
  isCrease,
  mendAlongLines,
  lineRows,
  paperProfile,
  ridgeHalfWidth,
  ridgeLines,
  transpose,
  type AxisLine,
  type Profile,
} from '../pixels/axis-lines.js';

/** A fold or crease: a line near an axis with shaded paper beside it. */
export type Crease = AxisLine;

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
  return mendAlongLines(grey, creases, (g, line) => flattenAlong(g, line, paperProfile(g, line, dpi), dpi));
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
