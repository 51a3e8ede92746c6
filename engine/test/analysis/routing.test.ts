// Routing by text lines and the rule that a damaged page is never returned unchanged, on generated pages.
import { describe, expect, it } from 'vitest';
import { planPage } from '../../src/analysis/plan.js';
import type { RawImage } from '../../src/image.js';
import { runSteps } from '../../src/pipeline/page.js';
import { createDefaultRegistry } from '../../src/steps/index.js';
import { toGrey } from '../../src/steps/pixels.js';
import { greyPicture, textPage, tinted } from '../pages.js';

const registry = createDefaultRegistry();
const documentSteps = (names: string[]) => names.filter((n) => registry.get(n).kind === 'document');

function meanAbsDiff(a: RawImage, b: RawImage): number {
  const ga = toGrey(a, 'luma');
  const gb = toGrey(b, 'luma');
  let sum = 0;
  for (let i = 0; i < ga.data.length; i++) sum += Math.abs(ga.data[i]! - gb.data[i]!);
  return sum / ga.data.length;
}

/** Median grey level (brightest channel) of the page: its paper. */
function paperLevel(img: RawImage): number {
  const grey = toGrey(img, 'max');
  return [...grey.data].sort((a, b) => a - b)[grey.data.length >> 1]!;
}

describe('routing and the no-unchanged rule', () => {
  it('gives a yellowed, low-contrast form the document steps, and changes it', async () => {
    // Ink at 120 on paper at 235, yellowed (blue at 66 %): tinted all over and colourful by chroma.
    const form = tinted(await textPage({ ink: 120, paper: 235, lines: 14 }), [1, 0.88, 0.66]);
    const plan = planPage(form, 150, 'auto');
    const names = plan.steps.map((s) => s.name);
    expect(plan.measures.textLines).toBeGreaterThanOrEqual(8);
    expect(names).toEqual(expect.arrayContaining(['whiten-paper', 'flatten-background']));
    const out = await runSteps(form, plan.steps, registry);
    expect(meanAbsDiff(form, out)).toBeGreaterThan(10);
    expect(paperLevel(out)).toBeGreaterThanOrEqual(250);
  });

  it('darkens faint ink on dim paper (low ink contrast, not only light ink)', async () => {
    // Ink at 129, paper at 228: ink below 140, but within 57 % of the paper.
    const page = tinted(await textPage({ ink: 90, paper: 220, lines: 14 }), [1, 0.88, 0.66], 60);
    const names = planPage(page, 150, 'auto').steps.map((s) => s.name);
    expect(names).toContain('restore-ink-contrast');
  });

  it('never gives a grey, low-contrast picture without text the document steps, nor returns it unchanged', async () => {
    const picture = greyPicture();
    const plan = planPage(picture, 150, 'auto');
    const names = plan.steps.map((s) => s.name);
    expect(plan.measures.textLines).toBeLessThan(3);
    expect(documentSteps(names)).toEqual([]);
    expect(names.length).toBeGreaterThan(0);
    const out = await runSteps(picture, plan.steps, registry);
    expect(meanAbsDiff(picture, out)).toBeGreaterThan(5);
  });

  it('keeps a plain text page on the document plan', async () => {
    const plan = planPage(await textPage(), 150, 'auto');
    expect(plan.kind).toBe('document');
    expect(plan.steps.map((s) => s.name)).toContain('flatten-background');
  });
});
