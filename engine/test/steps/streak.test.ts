// Scanner streaks: a thin dark line down the whole sheet, through the text, found and painted out; the page's own
// lines (tables, forms, creases, a shadow's edge) left alone.
import { describe, expect, it } from 'vitest';
import { planPage } from '../../src/analysis/plan.js';
import type { RawImage } from '../../src/image.js';
import { toGrey } from '../../src/pixels/index.js';
import { findStreaks } from '../../src/pixels/streaks.js';
import { removeStreaks } from '../../src/steps/streak.js';
import { TEXT_TOP, textPage, tinted } from '../pages.js';
import { crop } from './helpers.js';

const WHOLE = { left: 0, top: 0, width: 1275, height: 1650 };
const STREAK_X = 500;
/** A feeder's streak drifts a little across the page: two pixels over its height here. */
const DRIFT = 0.0012;

/** The streak's column on row y. */
const streakX = (y: number) => Math.round(STREAK_X + DRIFT * y);

/** A grey page with a one-pixel dark line from its top edge to its bottom edge, over paper and ink alike. */
function streaked(page: RawImage, level = 80): RawImage {
  const data = new Uint8Array(page.data);
  for (let y = 0; y < page.height; y++) {
    const i = y * page.width + streakX(y);
    data[i] = Math.min(data[i]!, level);
  }
  return { ...page, data };
}

describe('remove-streaks', () => {
  it('finds a feeder streak down a page of text and paints it out, keeping the strokes it crosses', async () => {
    const clean = await textPage();
    const page = toGrey(streaked(clean), 'max');
    const streaks = findStreaks(page, 150);
    expect(streaks).toHaveLength(1);
    expect(streaks[0]!.horizontal).toBe(false);
    expect(Math.abs(streaks[0]!.offset - streakX(page.height / 2))).toBeLessThanOrEqual(2);

    const out = removeStreaks(page, streaks, 150);
    let streakLeft = 0;
    let streakOnPaper = 0;
    let leftInMargins = 0;
    let inkLost = 0;
    let ink = 0;
    for (let y = 0; y < page.height; y++) {
      for (let x = STREAK_X - 8; x <= STREAK_X + 8; x++) {
        const i = y * page.width + x;
        const before = clean.data[i]!;
        if (x === streakX(y) && before > 200) {
          streakOnPaper++;
          if (out.data[i]! < 200) {
            streakLeft++;
            // Above the first line of text, below the last.
            if (y < TEXT_TOP - 30 || y > TEXT_TOP + 30 * 22 * 1.6) leftInMargins++;
          }
        }
        // The letters' strokes beside the line, and those crossing it, stay ink.
        if (before < 128 && x !== streakX(y)) {
          ink++;
          if (out.data[i]! >= 128) inkLost++;
        }
      }
    }
    expect(streakOnPaper).toBeGreaterThan(1300);
    // Bits of it stay where it touches a letter (the run across it is then wider than a streak): 6 % here.
    expect(streakLeft).toBeLessThan(0.1 * streakOnPaper);
    expect(leftInMargins).toBe(0);
    expect(ink).toBeGreaterThan(1000);
    expect(inkLost).toBe(0);
    // Nothing away from the line changes.
    let changedAway = 0;
    for (let i = 0; i < out.data.length; i++) {
      const x = i % page.width;
      if (Math.abs(x - STREAK_X) > 8 && out.data[i] !== page.data[i]) changedAway++;
    }
    expect(changedAway).toBe(0);
  });

  it('finds the streak on a yellowed page as it came, and plans its removal before the network', async () => {
    const clean = await textPage();
    const yellowed = tinted(streaked(clean, 60), [0.93, 0.86, 0.68]);
    expect(findStreaks(toGrey(yellowed, 'max'), 150)).toHaveLength(1);
    const plan = planPage(yellowed, 150, 'auto');
    expect(plan.route).toBe('document');
    expect(plan.beforeNetwork.map((c) => c.name)).toContain('remove-streaks');
    expect(plan.steps[0]).toEqual(plan.beforeNetwork[0]);
    expect(planPage(tinted(clean, [0.93, 0.86, 0.68]), 150, 'auto').beforeNetwork).toEqual([]);
  });

  it("finds none on the public pages, clean or damaged: tables, forms, creases, shadows, a streak's pale kin", async () => {
    const found: string[] = [];
    for (let k = 1; k <= 30; k++) {
      const sample = `doc_${String(k).padStart(3, '0')}`;
      for (const file of ['clean.png', 'degraded.png']) {
        const page = toGrey(await crop(sample, file, WHOLE), 'max');
        if (findStreaks(page, 150).length > 0) found.push(`${sample}/${file}`);
      }
    }
    expect(found).toEqual([]);
  });
});
