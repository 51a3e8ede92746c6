// The word guard inside the page pipeline, on a real eval crop: an honest restoration is kept and its OCR
// becomes the text layer; a restoration that erases text falls back to the conservative steps.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planPage } from '../../src/analysis/plan.js';
import type { RawImage } from '../../src/image.js';
import { decodePage, loadDocument, type Doc } from '../../src/io/decode.js';
import { terminateOcr } from '../../src/ocr/index.js';
import { restorePageInThread } from '../../src/pipeline/page.js';
import { threadServices } from '../../src/pipeline/thread-services.js';
import { createDefaultRegistry } from '../../src/steps/index.js';
import type { GuardResult } from '../../src/ocr/index.js';
import { evalFile } from '../helpers.js';

let doc: Doc;

beforeAll(async () => {
  // doc_005 (light scratches), the upper part of the page: a title, a heading and two paragraphs.
  const crop = await sharp(evalFile('doc_005', 'degraded.png'))
    .extract({ left: 0, top: 100, width: 1275, height: 560 })
    .withMetadata({ density: 150 })
    .png()
    .toBuffer();
  doc = await loadDocument(crop);
});

afterAll(async () => {
  await terminateOcr();
});

/** Whitens the middle third of the page's rows: words there are gone. */
function eraseMiddle(img: RawImage): RawImage {
  const data = Uint8Array.from(img.data);
  const row = img.width * img.channels;
  data.fill(255, Math.floor(img.height / 3) * row, Math.floor((2 * img.height) / 3) * row);
  return { ...img, data };
}

describe('the word guard in the page pipeline', () => {
  it('keeps an honest restoration and reuses its OCR words for the text layer', async () => {
    const page = await restorePageInThread(doc, 0, { ocr: true }, createDefaultRegistry(), threadServices());
    expect(page.fallback).toBeUndefined();
    expect(page.words.map((w) => w.text)).toContain('warehouse');
  }, 120_000);

  it('falls back to the conservative steps when a step erases words, and names the lost words', async () => {
    const { image, dpi } = await decodePage(doc, 0);
    const plan = planPage(image, dpi, 'auto');
    const conservative = new Set(plan.conservative.map((c) => c.name));
    const bold = plan.steps.find((c) => !conservative.has(c.name));
    expect(bold, 'the plan has a step beyond the conservative ones').toBeDefined();
    const registry = createDefaultRegistry().register({
      name: bold!.name,
      kind: 'any',
      description: 'deliberately erases text (test)',
      run: eraseMiddle,
    });
    const page = await restorePageInThread(doc, 0, { ocr: true }, registry, threadServices());
    expect(page.fallback).toBeDefined();
    expect(page.fallback!.lostWords.length).toBeGreaterThan(5);
    expect(page.steps).toEqual(plan.conservative.map((c) => c.name));
    // The text layer comes from the conservative output, which still shows the erased words.
    expect(page.words.map((w) => w.text)).toContain('warehouse');
  }, 120_000);

  it('reading the whole input (FOLIO_ENGINE_GUARD=full) falls back on the same erasing step', async () => {
    const { image, dpi } = await decodePage(doc, 0);
    const plan = planPage(image, dpi, 'auto');
    const conservative = new Set(plan.conservative.map((c) => c.name));
    const bold = plan.steps.find((c) => !conservative.has(c.name))!;
    const registry = createDefaultRegistry().register({
      name: bold.name,
      kind: 'any',
      description: 'deliberately erases text (test)',
      run: eraseMiddle,
    });
    const page = await restorePageInThread(
      doc,
      0,
      { ocr: true },
      registry,
      threadServices(undefined, 'full'),
    );
    expect(page.fallback).toBeDefined();
    expect(page.fallback!.lostWords.length).toBeGreaterThan(5);
  }, 120_000);

  it('on a deskewed page, re-reads the input only where the output changed or is unsure', async () => {
    // doc_016 (two columns, scanned 1.5° askew), upper half: the plan deskews it.
    const crop = await sharp(evalFile('doc_016', 'degraded.png'))
      .extract({ left: 0, top: 0, width: 1275, height: 900 })
      .withMetadata({ density: 150 })
      .png()
      .toBuffer();
    const skewed = await loadDocument(crop);
    const { image, dpi } = await decodePage(skewed, 0);
    expect(planPage(image, dpi, 'auto').steps.map((c) => c.name)).toContain('deskew');
    let seen: GuardResult | undefined;
    const services = threadServices(undefined, 'changed', (r) => {
      seen = r;
    });
    const page = await restorePageInThread(skewed, 0, { ocr: true }, createDefaultRegistry(), services);
    expect(page.fallback).toBeUndefined();
    expect(seen?.reread?.angle).not.toBe(0);
    expect(seen?.reread?.full).toBe(false);
    expect(seen!.reread!.share).toBeLessThan(0.3);
    expect(seen!.inputWords).toBeGreaterThan(100);
  }, 120_000);

  it('can be turned off', () => {
    expect(threadServices('off')).toEqual({});
  });
});
