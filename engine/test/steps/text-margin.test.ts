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

describe('clear-edge-marks and a table joined to the page edge', () => {
  const lines = 16;
  const ROW = 60;
  const base = (i: number) => TEXT_TOP + i * ROW;
  const ruleY = (i: number) => base(i) + 25;
  /** Text lines spaced as a table's rows (a rule fits between them), on white paper. */
  const tablePage = async () => {
    const page = await textPage({ lines, fontSize: FONT, paper: 255 });
    const rows = { ...page, data: new Uint8Array(page.data.length).fill(255) };
    for (let i = 0; i < lines; i++) {
      const from = Math.round(TEXT_TOP + i * FONT * 1.6) - FONT;
      const to = base(i) - FONT;
      rows.data.set(page.data.subarray(from * page.width, (from + FONT + 10) * page.width), to * page.width);
    }
    return rows;
  };
  const hline = (page: RawImage, y: number, x0: number, x1: number) => {
    for (const yy of [y, y + 1]) page.data.fill(0, yy * page.width + x0, yy * page.width + x1);
  };
  const dark = (page: RawImage, x: number, y: number) =>
    Math.min(page.data[y * page.width + x]!, page.data[(y + 1) * page.width + x]!) < 128;

  it('keeps the rules of a table that a crease joins to both edges, and whitens the crease in the margins', async () => {
    const table = await tablePage();
    // A grid: a rule under every row, two side rules; one rule runs on to both edges (a crease along it).
    for (let i = 0; i < lines; i++) hline(table, ruleY(i), 140, 1100);
    for (const x of [140, 1100])
      for (let y = ruleY(0); y < ruleY(lines - 1); y++)
        table.data.fill(0, y * table.width + x, y * table.width + x + 2);
    hline(table, ruleY(7), 0, table.width);
    const out = await clearEdgeMarks.run(table, { dpi: 150 });
    // The rules inside the text block stay...
    for (const i of [2, 7, 12]) expect(dark(out, 600, ruleY(i)), `rule ${i + 1}`).toBe(true);
    // ...the crease's ends in the margins go.
    expect(dark(out, 20, ruleY(7))).toBe(false);
    expect(dark(out, table.width - 20, ruleY(7))).toBe(false);
  });

  it('still whitens a scratch that runs from edge to edge between the lines', async () => {
    const scratched = await tablePage();
    hline(scratched, ruleY(7), 0, scratched.width);
    expect(dark(scratched, 600, ruleY(7))).toBe(true);
    const out = await clearEdgeMarks.run(scratched, { dpi: 150 });
    expect(dark(out, 600, ruleY(7))).toBe(false);
    expect(dark(out, 20, ruleY(7))).toBe(false);
  });
});
