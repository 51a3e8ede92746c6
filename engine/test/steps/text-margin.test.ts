// Border and edge cleaning stop where text lines reach: a page whose left margin lies in a deep shadow (a book
// page photographed open) keeps the first letters of its lines.
import { describe, expect, it } from 'vitest';
import { planPage } from '../../src/analysis/plan.js';
import type { RawImage } from '../../src/image.js';
import { runSteps } from '../../src/pipeline/page.js';
import { cleanBorders, clearEdgeMarks } from '../../src/steps/document.js';
import { createDefaultRegistry } from '../../src/steps/index.js';
import { toGrey } from '../../src/pixels/index.js';
import { leftShadow, TEXT_TOP, textPage } from '../pages.js';

const FONT = 22;
const LEFT = 60;

/** Dark pixels (< 128) in the left half of the first letter of each line (an L's stem, an a's bowl). */
function firstLetterInk(img: RawImage, lines: number): number[] {
  const grey = toGrey(img, 'max');
  const counts: number[] = [];
  for (let i = 0; i < lines; i++) {
    const base = Math.round(TEXT_TOP + i * FONT * 1.6);
    let dark = 0;
    for (let y = base - Math.round(FONT * 0.8); y < base + Math.round(FONT * 0.25); y++) {
      for (let x = LEFT - 2; x < LEFT + Math.round(FONT * 0.3); x++)
        if (grey.data[y * grey.width + x]! < 128) dark++;
    }
    counts.push(dark);
  }
  return counts;
}

describe('cleaning near a shadowed margin', () => {
  const lines = 30;
  const pages = async () => {
    const clean = await textPage({ left: LEFT, lines, fontSize: FONT });
    // Shadow from 0.3 at the left edge to 1 over 15 % of the width; the text starts at 5 % of it.
    return { clean, shadowed: leftShadow(clean, 0.3, 0.15) };
  };

  it('clean-borders leaves the first letters of every line in the shadow', async () => {
    const { clean, shadowed } = await pages();
    const expected = firstLetterInk(clean, lines);
    const after = firstLetterInk(await cleanBorders.run(shadowed, { dpi: 150 }), lines);
    after.forEach((n, i) => expect(n, `line ${i + 1}`).toBeGreaterThanOrEqual(expected[i]! * 0.9));
  });

  it('the whole document plan keeps the first letters of every line', async () => {
    const { clean, shadowed } = await pages();
    const plan = planPage(shadowed, 150, 'auto');
    expect(plan.steps.map((s) => s.name)).toEqual(
      expect.arrayContaining(['clean-borders', 'clear-edge-marks']),
    );
    const out = await runSteps(shadowed, plan.steps, createDefaultRegistry());
    const expected = firstLetterInk(clean, lines);
    const after = firstLetterInk(out, lines);
    after.forEach((n, i) => expect(n, `line ${i + 1}`).toBeGreaterThanOrEqual(expected[i]! * 0.9));
    // ...and none of the ink is left dark grey paper: the letters' surroundings come out near white.
    const conservative = await runSteps(shadowed, plan.conservative, createDefaultRegistry());
    expect(firstLetterInk(conservative, lines).every((n, i) => n >= expected[i]! * 0.9)).toBe(true);
  });

  it('clear-edge-marks removes a dark edge bar but not the first letters it runs into', async () => {
    // A flattened page with a black bar along the left edge that overlaps the first letters by 2 px.
    const lines = 12;
    const left = 24;
    const page = await textPage({ left, lines, fontSize: FONT });
    const barred = { ...page, data: Uint8Array.from(page.data) };
    for (let y = 0; y < page.height; y++) barred.data.fill(0, y * page.width, y * page.width + left + 2);
    const out = await clearEdgeMarks.run(barred, { dpi: 150 });
    // The bar is gone where no text line reaches...
    expect(out.data[10 * page.width + 5]).toBe(255);
    expect(out.data[(page.height - 10) * page.width + 5]).toBe(255);
    // ...and the first letters it touched keep their ink right of it.
    for (let i = 0; i < lines; i++) {
      const base = Math.round(TEXT_TOP + i * FONT * 1.6);
      let kept = 0;
      let before = 0;
      for (let y = base - Math.round(FONT * 0.8); y < base + Math.round(FONT * 0.25); y++) {
        for (let x = left + 3; x < left + Math.round(FONT * 0.55); x++) {
          if (page.data[y * page.width + x]! < 128) before++;
          if (out.data[y * page.width + x]! < 128) kept++;
        }
      }
      expect(kept, `line ${i + 1}`).toBeGreaterThanOrEqual(before * 0.9);
    }
  });
});
