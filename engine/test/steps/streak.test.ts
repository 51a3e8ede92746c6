// Scanner streaks: a thin dark line down the whole sheet, through the text, found and painted out; the page's own
// lines (tables, forms, creases, a shadow's edge) left alone.
import { describe, expect, it } from 'vitest';
import { planDocumentSteps, planPage } from '../../src/analysis/plan.js';
import type { RawImage } from '../../src/image.js';
import { toGrey } from '../../src/pixels/index.js';
import { findStreaks } from '../../src/pixels/streaks.js';
import { removeStreaks } from '../../src/steps/streak.js';
import { MAX_ANGLE_DEG } from '../../src/pixels/axis-lines.js';
import { createDefaultRegistry } from '../../src/steps/index.js';
import { TEXT_TOP, textPage, tinted } from '../pages.js';
import { crop } from './helpers.js';

const WHOLE = { left: 0, top: 0, width: 1275, height: 1650 };
const STREAK_X = 500;
/** A feeder's streak drifts a little across the page: two pixels over its height here. */
const DRIFT = 0.0012;

/** The streak's column on row y. */
const streakX = (y: number) => Math.round(STREAK_X + DRIFT * y);

/**
 * A grey page with a one-pixel dark line from its left edge to its right edge, crossing the page's middle at `row`
 * at `degrees` from the rows, over paper and ink alike: the ridge of a crease whose shading the network took away.
 */
function ridged(page: RawImage, row: number, degrees: number, level = 70) {
  const data = new Uint8Array(page.data);
  const tan = Math.tan((degrees * Math.PI) / 180);
  const rowAt = (x: number) => Math.round(row + (x - page.width / 2) * tan);
  for (let x = 0; x < page.width; x++) {
    const i = rowAt(x) * page.width + x;
    data[i] = Math.min(data[i]!, level);
  }
  return { page: toGrey({ ...page, data }, 'max'), rowAt };
}

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

  it("finds a crease's bare ridge at a crease's angle through a line of text, and plans that search on the network's page after deskew", async () => {
    const clean = await textPage();
    // Through the tenth line's letters.
    const { page, rowAt } = ridged(clean, TEXT_TOP + 9 * 22 * 1.6 - 7, 2.5);
    // A feeder's streak runs along the scan: the default search does not look this far off the rows.
    expect(findStreaks(page, 150)).toEqual([]);
    const streaks = findStreaks(page, 150, MAX_ANGLE_DEG);
    expect(streaks).toHaveLength(1);
    expect(streaks[0]!.horizontal).toBe(true);
    expect(Math.abs(streaks[0]!.offset - rowAt(page.width / 2))).toBeLessThanOrEqual(2);
    const out = toGrey(
      await createDefaultRegistry().get('remove-streaks').run(page, { dpi: 150, maxAngleDeg: MAX_ANGLE_DEG }),
      'max',
    );
    let onPaper = 0;
    let left = 0;
    for (let x = 0; x < page.width; x++) {
      const i = rowAt(x) * page.width + x;
      if (clean.data[i]! > 200) {
        onPaper++;
        if (out.data[i]! < 200) left++;
      }
    }
    expect(onPaper).toBeGreaterThan(1000);
    expect(left).toBeLessThan(0.1 * onPaper);

    const names = (img: RawImage, cleaned: boolean) =>
      planDocumentSteps(img, 150, undefined, cleaned).steps.map((c) => c.name);
    // The page skewed by 2 degrees, as a scan lies.
    const skewed = await createDefaultRegistry().get('deskew').run(page, { angle: 2 });
    const planned = names(skewed, true);
    expect(planned).toContain('deskew');
    expect(planned.indexOf('remove-streaks')).toBeGreaterThan(planned.indexOf('deskew'));
    // The page as it came keeps a crease's shading, which repair-creases takes.
    expect(names(skewed, false)).not.toContain('remove-streaks');
  });

  it("finds a ridge that runs along a line's baseline, where the letters' feet cover half its length", async () => {
    const fontSize = 30;
    const clean = await textPage({ left: 40, fontSize });
    const { page } = ridged(clean, TEXT_TOP + 9 * fontSize * 1.6 - 1, 0);
    expect(findStreaks(page, 150)).toHaveLength(1);
    expect(findStreaks(toGrey(clean, 'max'), 150)).toEqual([]);
  });

  it("finds none on the public pages, clean or damaged: tables, forms, creases, shadows, a streak's pale kin", async () => {
    const found: string[] = [];
    for (let k = 1; k <= 30; k++) {
      const sample = `doc_${String(k).padStart(3, '0')}`;
      for (const file of ['clean.png', 'degraded.png']) {
        const page = toGrey(await crop(sample, file, WHOLE), 'max');
        // At a feeder's angles, and at a crease's (the search on the network's page).
        for (const angle of [undefined, MAX_ANGLE_DEG])
          if (findStreaks(page, 150, angle).length > 0) found.push(`${sample}/${file} ${angle ?? 'feeder'}`);
      }
    }
    expect(found).toEqual([]);
  });
});
