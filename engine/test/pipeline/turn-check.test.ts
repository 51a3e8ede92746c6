// A page turn the glyph vote plans is kept only where the page reads clearly better turned than as it came; where the
// glyphs do not vote, Tesseract's orientation detection is asked, and its turn is checked the same way.
import { afterAll, describe, expect, it } from 'vitest';
import { planPage } from '../../src/analysis/plan.js';
import { decodePage, loadDocument } from '../../src/io/decode.js';
import { terminateOcr } from '../../src/ocr/index.js';
import { turnImage } from '../../src/pixels/geometry.js';
import {
  pageNetCleaner,
  restorePageInThread,
  settledTurn,
  type PageOptions,
} from '../../src/pipeline/page.js';
import { threadServices } from '../../src/pipeline/thread-services.js';
import { createDefaultRegistry } from '../../src/steps/index.js';
import { evalFile } from '../helpers.js';
import { docOf, textPage } from '../pages.js';

afterAll(async () => {
  await terminateOcr();
});

/** The page's plan, as the pipeline makes it from the decoded page, and the steps its restoration shows. */
async function plannedAndShown(
  page: Awaited<ReturnType<typeof textPage>>,
  services = threadServices(),
  opts: PageOptions = { pageNet: false },
) {
  const doc = await docOf(page);
  const { image, dpi } = await decodePage(doc, 0);
  const planned = planPage(image, dpi, 'auto').geometry.map((c) => c.name);
  const restored = await restorePageInThread(doc, 0, opts, createDefaultRegistry(), services);
  return { planned, shown: restored.steps, restored };
}

/** Capitals only: no letter rises above or drops below the others, so the glyph vote has nothing to count. */
const CAPITALS =
  'LET THE COMMITTEE NOTE THAT EVERY MEMBER AGREED TO THE REVISED SCHEDULE BEFORE THE MEETING CLOSED AND THAT ' +
  'THE TREASURER WILL REPORT ON THE ACCOUNTS';

describe('a planned page turn', () => {
  it('is kept where the page reads clearly better turned: a page scanned upside down', async () => {
    const { planned, shown } = await plannedAndShown(turnImage(await textPage({ lines: 20 }), 2));
    expect(planned).toContain('turn-page');
    expect(shown).toContain('turn-page');
  }, 120_000);

  it('is kept for a page scanned a quarter turn either way, though the OCR reads one of them as well as upright', async () => {
    // Tesseract reads lines standing vertical as text turned a quarter clockwise: that page reads as well as its
    // upright self, only with its words running down the page.
    const upright = await textPage({ lines: 20 });
    for (const scanned of [1, 3] as const) {
      const { planned, shown, restored } = await plannedAndShown(
        turnImage(upright, scanned),
        threadServices(),
        {
          pageNet: false,
          ocr: true,
        },
      );
      expect(planned).toContain('turn-page');
      expect(shown).toContain('turn-page');
      expect([restored.width, restored.height]).toEqual([upright.width, upright.height]);
      expect(restored.words.map((w) => w.text)).toContain('committee');
    }
  }, 120_000);

  it('is dropped where the page reads no better turned: upright words with descenders and no ascenders', async () => {
    // Every letter sits on the x-height band or drops below it, so the glyph vote finds the page upside down.
    const text =
      'our summary program was a grassy survey of young swans morning essays groups your messages carry a very poor energy';
    const { planned, shown } = await plannedAndShown(await textPage({ lines: 20, text }));
    expect(planned).toContain('turn-page');
    expect(shown).not.toContain('turn-page');
  }, 120_000);

  it("is found by Tesseract's orientation detection where the glyphs do not vote: capitals scanned sideways", async () => {
    const upright = await textPage({ lines: 20, text: CAPITALS });
    // With OCR words for the text layer, read on the page as it comes out.
    const { planned, shown, restored } = await plannedAndShown(turnImage(upright, 1), threadServices(), {
      pageNet: false,
      ocr: true,
    });
    expect(planned).not.toContain('turn-page');
    expect(shown).toContain('turn-page');
    expect([restored.width, restored.height]).toEqual([upright.width, upright.height]);
    expect(restored.words.map((w) => w.text)).toContain('COMMITTEE');
  }, 120_000);

  it('is not made where there is no orientation detection: the same page stays as it came', async () => {
    const upright = await textPage({ lines: 20, text: CAPITALS });
    const { shown, restored } = await plannedAndShown(turnImage(upright, 1), {
      ...threadServices(),
      detectOrientation: undefined,
    });
    expect(shown).not.toContain('turn-page');
    expect([restored.width, restored.height]).toEqual([upright.height, upright.width]);
  }, 120_000);

  it('routes a page by the lines it shows standing when it shows few across: a short page scanned sideways', async () => {
    // Five lines turned a quarter show at most five glyphs in a row across, fewer than a text line has (six): too few
    // lines for the document plan as the page came. (Six lines put six first letters in a row along the margin, and
    // a row or two more, at that minimum.)
    const upright = await textPage({ lines: 5 });
    const { image, dpi } = await decodePage(await docOf(turnImage(upright, 1)), 0);
    const plan = planPage(image, dpi, 'auto');
    expect(plan.measures.textLines).toBeLessThan(3);
    expect(plan.route).toBe('document');
    expect(plan.geometry).toEqual([{ name: 'turn-page', params: { turns: 3 } }]);
  });

  it('leaves such a page on the photo plan while nothing tells which way to turn it, and turns it once something does', async () => {
    const sideways = turnImage(await textPage({ lines: 5, text: CAPITALS }), 1);
    const { image, dpi } = await decodePage(await docOf(sideways), 0);
    const plan = planPage(image, dpi, 'auto');
    expect([plan.route, plan.turnUnsure]).toEqual(['photo', true]);
    const unturned = await plannedAndShown(sideways, { ...threadServices(), detectOrientation: undefined });
    expect(unturned.shown).not.toContain('turn-page');
    expect(unturned.restored.kind).toBe('document');
    const turned = await plannedAndShown(sideways);
    expect(turned.shown).toContain('turn-page');
    expect(turned.shown).toContain('whiten-paper');
  }, 120_000);

  it('is found on the page cleaned by the trained network where damage hides the letters from the detection', async () => {
    // Public doc_003 (every damage at once) scanned a quarter turn anticlockwise: the glyphs do not vote, and the
    // detection answers nothing sure on the page as it came; on the network's clean page it does.
    const registry = createDefaultRegistry();
    const { image, dpi } = await decodePage(await loadDocument(evalFile('doc_003', 'degraded.png')), 0);
    const sideways = turnImage(image, 3);
    const plan = planPage(sideways, dpi, 'auto');
    expect(plan.turnUnsure).toBe(true);
    const services = threadServices();
    expect(await settledTurn(sideways, dpi, plan, registry, services)).toBeUndefined();
    const clean = pageNetCleaner(registry, dpi, true);
    expect(await settledTurn(sideways, dpi, plan, registry, services, clean)).toBe(1);
  }, 120_000);
});
