// Routing by text lines and the rule that a damaged page is never returned unchanged, on generated pages.
import { describe, expect, it } from 'vitest';
import { planPage } from '../../src/analysis/plan.js';
import {
  documentDamageMeasured,
  LOW_CONTRAST_RANGE,
  NOISY_PAGE,
  paperOffWhite,
  stainedShare,
  untouchedDamage,
} from '../../src/analysis/damage.js';
import type { RawImage } from '../../src/image.js';
import { runSteps } from '../../src/pipeline/page.js';
import { createDefaultRegistry } from '../../src/steps/index.js';
import { toGrey } from '../../src/pixels/index.js';
import { findTextLines, textLineCount } from '../../src/pixels/text-lines.js';
import { greyPicture, textPage, tinted } from '../pages.js';
import { onBusyDesk, textPage as letterPage } from './pages.js';
import { withNoise } from '../steps/helpers.js';
import { classifyPage, pageFeatures } from '../../src/analysis/measure.js';
import type { Quad } from '../../src/pixels/geometry.js';

/** The page yellowed in blotches: the yellow's strength varies across the page, not with the grey level. */
function mottled(page: RawImage): RawImage {
  const out = tinted(page, [1, 1, 1]);
  for (let y = 0; y < page.height; y++) {
    for (let x = 0; x < page.width; x++) {
      // Smooth blotches about a fifth of the page across, from a light cream to a deep yellow.
      const field = 0.5 + 0.25 * Math.sin(x / 37) * Math.cos(y / 53) + 0.25 * Math.sin((x + y) / 71);
      const i = (y * page.width + x) * 3;
      out.data[i + 1] = Math.round(out.data[i + 1]! * (1 - 0.18 * field));
      out.data[i + 2] = Math.round(out.data[i + 2]! * (1 - 0.65 * field));
    }
  }
  return out;
}

/** Six blocks of distinct hues over the right 65 % of the page: a colour picture beside text. */
function withColourPicture(page: RawImage): RawImage {
  const out = tinted(page, [1, 1, 1]);
  const hues: Array<[number, number, number]> = [
    [200, 40, 40],
    [40, 160, 40],
    [40, 60, 200],
    [210, 190, 30],
    [160, 40, 170],
    [30, 170, 180],
  ];
  const left = Math.round(page.width * 0.35);
  for (let y = 0; y < page.height; y++) {
    for (let x = left; x < page.width; x++) {
      const hue =
        hues[
          (Math.floor(y / (page.height / 3)) * 2 + Math.floor(((x - left) * 2) / (page.width - left))) % 6
        ]!;
      const shade = 0.75 + 0.25 * Math.sin(x / 9 + y / 13);
      const i = (y * page.width + x) * 3;
      for (let c = 0; c < 3; c++) out.data[i + c] = Math.round(hue[c]! * shade);
    }
  }
  return out;
}

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

  it('measures a page whose paper is far from white as damaged, so that it is not shown as it came', async () => {
    // Fresh seed 13479 doc_013, a form under water damage: paper at (249, 244, 221), dark ink, no other damage the plan
    // measures. Its restoration read as well as the input and no better, and the page was shown as it came (CER 0.562;
    // the restoration 0.086).
    const page = await textPage({ lines: 14, paper: 255 });
    const yellowed = tinted(page, [0.976, 0.957, 0.867]);
    expect(paperOffWhite(yellowed)).toBe(34);
    expect(documentDamageMeasured(planPage(yellowed, 150, 'auto'))).toBe(true);
    // Paper lightly off white (a scanner's grey, light yellowing) and white paper are no such damage.
    const light = tinted(page, [0.98, 0.96, 0.92]);
    expect(paperOffWhite(light)).toBe(20);
    expect(documentDamageMeasured(planPage(light, 150, 'auto'))).toBe(false);
    expect(paperOffWhite(page)).toBe(0);
    expect(documentDamageMeasured(planPage(page, 150, 'auto'))).toBe(false);
  });

  it('measures white paper with a stain on part of it as damaged, and grey fills as no stain', async () => {
    // A water stain over a fifth of a white page: the page as a whole stays white (paperOffWhite 0, its 75th
    // percentile is paper), so before stainedShare the page was clean to the rule above, and a stain-only page whose
    // restoration read as well as the input was shown as it came (seed 20261204 doc_005: CER 0.012; restored 0.002).
    const page = tinted(await textPage({ lines: 14, paper: 255 }), [1, 1, 1]);
    const stained = { ...page, data: Uint8Array.from(page.data) };
    const [cx, cy, r] = [800, 700, 260];
    for (let y = cy - r; y < cy + r; y++) {
      for (let x = cx - r; x < cx + r; x++) {
        if ((x - cx) ** 2 + (y - cy) ** 2 > r * r) continue;
        const i = (y * page.width + x) * 3;
        stained.data[i + 1] = Math.round(stained.data[i + 1]! * 0.94);
        stained.data[i + 2] = Math.round(stained.data[i + 2]! * 0.82);
      }
    }
    expect(paperOffWhite(stained)).toBe(0);
    expect(stainedShare(stained, 150)).toBeGreaterThan(0.05);
    expect(documentDamageMeasured(planPage(stained, 150, 'auto'))).toBe(true);
    expect(stainedShare(page, 150)).toBe(0);
    expect(documentDamageMeasured(planPage(page, 150, 'auto'))).toBe(false);
    // The same patch in grey (a form's shaded band, a grey scan's shadow) tints nothing.
    const shaded = { ...page, data: Uint8Array.from(page.data) };
    for (let y = cy - r; y < cy + r; y++)
      for (let x = cx - r; x < cx + r; x++)
        for (let c = 0; c < 3; c++) shaded.data[(y * page.width + x) * 3 + c]! *= 0.85;
    expect(stainedShare(shaded, 150)).toBe(0);
  });

  it('measures a page under light grain as damaged, though too light for the denoiser', async () => {
    // Public doc_027 (light Gaussian noise) and doc_026 (sensor noise) measure 4.4 and 3.8; no step but the network
    // was planned for their grain, their restorations read as well as the inputs and no better, and both were
    // shown as they came.
    const page = await textPage({ lines: 14, paper: 255 });
    // Gaussian grain of σ 6, clipped at white as a scanner clips it.
    const grainy = withNoise(page, 6);
    const plan = planPage(grainy, 150, 'auto');
    expect(plan.measures.noise).toBeGreaterThanOrEqual(NOISY_PAGE);
    expect(plan.steps.map((s) => s.name)).not.toContain('denoise-document');
    expect(documentDamageMeasured(plan)).toBe(true);
    expect(planPage(page, 150, 'auto').measures.noise).toBe(0);
    expect(documentDamageMeasured(planPage(page, 150, 'auto'))).toBe(false);
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

  it('leaves the colours of a picture that reaches black: its narrow blue range is its colour, not a fade', () => {
    // A retina-like photograph: a red-orange disc on black, blue never above about 130.
    const [width, height] = [480, 480];
    const picture: RawImage = { data: new Uint8Array(width * height * 3), width, height, channels: 3 };
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const r = Math.hypot(x - width / 2, y - height / 2) / (width * 0.45);
        if (r > 1) continue;
        const shade = (1 - 0.5 * r * r) * (0.85 + 0.15 * Math.sin(x / 13) * Math.cos(y / 17));
        const i = (y * width + x) * 3;
        [250, 190, 130].forEach((top, c) => (picture.data[i + c] = Math.round(top * shade)));
      }
    }
    expect(planPage(picture, 150, 'auto').route).toBe('photo');
    const measures: Record<string, number> = {};
    expect(untouchedDamage(picture, measures)).toEqual([]);
    expect(measures.range).toBeLessThan(LOW_CONTRAST_RANGE);
    // The same picture veiled (its blacks lifted to 40) is faded, and gets its levels stretched.
    const veiled = { ...picture, data: picture.data.map((v) => 40 + Math.round(v * 0.8)) };
    expect(untouchedDamage(veiled, {}).map((s) => s.name)).toEqual(['correct-levels']);
  });

  it('gives a text page with mottled yellowing the document plan: one hue in many strengths is a stain', async () => {
    const page = mottled(await textPage({ ink: 60, paper: 235, lines: 14 }));
    const plan = planPage(page, 150, 'auto');
    expect(plan.features.colourfulShare).toBeGreaterThan(0.3);
    expect(plan.route).toBe('document');
  });

  it('gives a short text on mottled yellow paper the document plan: mixed by its tint alone, it needs a document’s lines', async () => {
    // Dev5 seed 20261211 doc_018, a thermal-fax form: 4 of its 25 lines found under noise, routed to the photo plan.
    const page = mottled(await textPage({ ink: 60, paper: 235, lines: 5 }));
    const plan = planPage(page, 150, 'auto');
    expect(plan.kind).toBe('mixed');
    expect(plan.measures.textLines).toBeGreaterThanOrEqual(3);
    expect(plan.measures.textLines).toBeLessThan(8);
    expect(plan.route).toBe('document');
  });

  it('finds the lines of ink faded on yellowed paper and gives the page the document plan', async () => {
    // Ink at 205 on paper at 250, mottled: nowhere darker than four fifths of its paper (a water-damaged letter).
    const page = mottled(await textPage({ ink: 205, paper: 250, lines: 14 }));
    expect(textLineCount(findTextLines(page, 150))).toBeLessThan(3);
    const plan = planPage(page, 150, 'auto');
    expect(plan.measures.textLines).toBeGreaterThanOrEqual(8);
    expect(plan.route).toBe('document');
    expect(plan.steps.map((s) => s.name)).toContain('restore-ink-contrast');
  });

  it("finds them too where a scanner's black border along the top holds the page's darkest tones", async () => {
    // Dev5 profile seed 5501 doc_010, a typed letter faded on mottled paper under a scanner border: the border alone
    // set the tones' low end, so stretching them over the whole page brought out no line.
    const page = mottled(await textPage({ ink: 205, paper: 250, lines: 14 }));
    page.data.fill(0, 0, 14 * page.width * page.channels);
    const plan = planPage(page, 150, 'auto');
    expect(plan.measures.textLines).toBeGreaterThanOrEqual(8);
    expect(plan.route).toBe('document');
  });

  it('keeps a page of text beside a colour picture on the photo plan', async () => {
    const page = withColourPicture(await textPage({ ink: 60, paper: 235, lines: 14 }));
    const plan = planPage(page, 150, 'auto');
    expect(plan.measures.textLines).toBeGreaterThanOrEqual(8);
    expect(plan.route).toBe('photo');
  });

  it('measures a photographed page cut out and rectified: a short letter on a busy desk gets the document plan', () => {
    // Five lines: too few for a mixed picture (8), enough for a page of paper (3). The photo as a whole measures
    // as mixed (the desk's grain), the page cut out of it as a document.
    const quad: Quad = [
      { x: 120, y: 80 },
      { x: 860, y: 100 },
      { x: 840, y: 1030 },
      { x: 130, y: 1020 },
    ];
    const photo = onBusyDesk(letterPage({ width: 700, height: 900, lines: 5 }), quad, 1000, 1100);
    expect(classifyPage(pageFeatures(photo))).toBe('mixed');
    const plan = planPage(photo, 150, 'auto');
    expect(plan.measures.textLines).toBeLessThan(8);
    expect(plan.route).toBe('document');
    expect(plan.kind).toBe('document');
    expect(plan.geometry.map((c) => c.name)).toEqual(['rectify-perspective']);
    expect(plan.measures.rectifiedTextLines).toBe(5);
  });

  it('keeps a plain text page on the document plan', async () => {
    const plan = planPage(await textPage(), 150, 'auto');
    expect(plan.kind).toBe('document');
    expect(plan.steps.map((s) => s.name)).toContain('flatten-background');
  });
});
