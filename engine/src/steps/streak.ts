// remove-streaks: a sheet feeder's streaks, and the bare ridges the network leaves of creases (pixels/streaks.ts),
// painted with the paper beside them where they run bare; strokes that cross them stay whole. `maxAngleDeg`: how far
// from the page's axes the lines are searched (a feeder's streak by default).
import { toGrey, type Grey } from '../pixels/index.js';
import { mendAlongLines, paperProfile } from '../pixels/axis-lines.js';
import { bareRuns, FEEDER_STREAK_MAX_ANGLE_DEG, findStreaks, type Streak } from '../pixels/streaks.js';
import { num, type Step } from './registry.js';

/** The page with the bare stretches of every streak painted with the paper beside them. */
export function removeStreaks(grey: Grey, streaks: readonly Streak[], dpi: number): Grey {
  return mendAlongLines(grey, streaks, (g, line) => {
    const w = g.width;
    const { first, last } = bareRuns(g, line, paperProfile(g, line, dpi), dpi);
    for (let x = 0; x < w; x++) {
      const a = first[x]!;
      if (a < 0) continue;
      const b = last[x]!;
      const paper = Math.min(g.data[(a - 1) * w + x]!, g.data[(b + 1) * w + x]!);
      for (let y = a; y <= b; y++) g.data[y * w + x] = paper;
    }
  });
}

export const removeStreaksStep: Step = {
  name: 'remove-streaks',
  kind: 'document',
  description:
    'Paints out scanner streaks: thin dark lines along the whole sheet that cross the text (rules, frames and creases stay)',
  run(img, params) {
    const dpi = num(params, 'dpi', 150);
    const grey = toGrey(img, 'max');
    const streaks = findStreaks(grey, dpi, num(params, 'maxAngleDeg', FEEDER_STREAK_MAX_ANGLE_DEG));
    return streaks.length > 0 ? removeStreaks(grey, streaks, dpi) : grey;
  },
};
