// A page turn the glyph vote plans is kept only where the page reads clearly better turned than as it came.
import { afterAll, describe, expect, it } from 'vitest';
import { planPage } from '../../src/analysis/plan.js';
import { decodePage } from '../../src/io/decode.js';
import { terminateOcr } from '../../src/ocr/index.js';
import { turnImage } from '../../src/pixels/geometry.js';
import { restorePageInThread } from '../../src/pipeline/page.js';
import { threadServices } from '../../src/pipeline/thread-services.js';
import { createDefaultRegistry } from '../../src/steps/index.js';
import { docOf, textPage } from '../pages.js';

afterAll(async () => {
  await terminateOcr();
});

/** The page's plan, as the pipeline makes it from the decoded page, and the steps its restoration shows. */
async function plannedAndShown(page: Awaited<ReturnType<typeof textPage>>) {
  const doc = await docOf(page);
  const { image, dpi } = await decodePage(doc, 0);
  const planned = planPage(image, dpi, 'auto').geometry.map((c) => c.name);
  const restored = await restorePageInThread(
    doc,
    0,
    { pageNet: false },
    createDefaultRegistry(),
    threadServices(),
  );
  return { planned, shown: restored.steps };
}

describe('a planned page turn', () => {
  it('is kept where the page reads clearly better turned: a page scanned upside down', async () => {
    const { planned, shown } = await plannedAndShown(turnImage(await textPage({ lines: 20 }), 2));
    expect(planned).toContain('turn-page');
    expect(shown).toContain('turn-page');
  }, 120_000);

  it('is dropped where the page reads no better turned: upright words with descenders and no ascenders', async () => {
    // Every letter sits on the x-height band or drops below it, so the glyph vote finds the page upside down.
    const text =
      'our summary program was a grassy survey of young swans morning essays groups your messages carry a very poor energy';
    const { planned, shown } = await plannedAndShown(await textPage({ lines: 20, text }));
    expect(planned).toContain('turn-page');
    expect(shown).not.toContain('turn-page');
  }, 120_000);
});
