// remove-streaks: a sheet feeder's streaks (pixels/streaks.ts) painted with the paper beside them where they run
// bare; strokes that cross them stay whole.
import { createImage } from '../image.js';
import { toGrey, type Grey } from '../pixels/index.js';
import { paperProfile, transpose } from '../pixels/axis-lines.js';
import { bareRuns, findStreaks, type Streak } from '../pixels/streaks.js';
import { num, type Step } from './registry.js';

/** The page with the bare stretches of every streak painted with the paper beside them. */
export function removeStreaks(grey: Grey, streaks: readonly Streak[], dpi: number): Grey {
  let along = createImage(grey.width, grey.height, 1) as Grey;
  along.data.set(grey.data);
  for (const horizontal of [true, false]) {
    const lines = streaks.filter((c) => c.horizontal === horizontal);
    if (lines.length === 0) continue;
    const g = horizontal ? along : transpose(along);
    const w = g.width;
    for (const line of lines) {
      const { first, last } = bareRuns(g, line, paperProfile(g, line, dpi), dpi);
      for (let x = 0; x < w; x++) {
        const a = first[x]!;
        if (a < 0) continue;
        const b = last[x]!;
        const paper = Math.min(g.data[(a - 1) * w + x]!, g.data[(b + 1) * w + x]!);
        for (let y = a; y <= b; y++) g.data[y * w + x] = paper;
      }
    }
    along = horizontal ? g : transpose(g);
  }
  return along;
}

export const removeStreaksStep: Step = {
  name: 'remove-streaks',
  kind: 'document',
  description:
    'Paints out scanner streaks: thin dark lines along the whole sheet that cross the text (rules, frames and creases stay)',
  run(img, params) {
    const dpi = num(params, 'dpi', 150);
    const grey = toGrey(img, 'max');
    const streaks = findStreaks(grey, dpi);
    return streaks.length > 0 ? removeStreaks(grey, streaks, dpi) : grey;
  },
};
