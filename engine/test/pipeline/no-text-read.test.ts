// Routing by text lines is checked by the OCR: a picture whose texture lines up like text, and which the OCR reads not
// one word in, as it came or restored, is restored as a photo (real plan, real network where its weights are, real OCR).
import { afterAll, describe, expect, it } from 'vitest';
import { planPage } from '../../src/analysis/plan.js';
import { terminateOcr } from '../../src/ocr/index.js';
import { restorePageInThread } from '../../src/pipeline/page.js';
import { threadServices } from '../../src/pipeline/thread-services.js';
import { createDefaultRegistry } from '../../src/steps/index.js';
import { docOf, greyPicture } from '../pages.js';
import { jpegRoundTrip } from '../steps/helpers.js';

afterAll(async () => {
  await terminateOcr();
});

describe('a picture the OCR reads no word in', () => {
  it('is restored as a photo, though its noise in JPEG blocks lines up as text lines', async () => {
    // Strong grain at 100 DPI broken into 8 × 8 blocks: rows of blobs on the blocks' grid, aligned like glyphs.
    const picture = await jpegRoundTrip(greyPicture(900, 600, 40, 220, 100), 20);
    const plan = planPage(picture, 100, 'auto');
    expect(plan.kind).toBe('photo');
    expect(plan.route).toBe('document');

    const registry = createDefaultRegistry();
    const restored = await restorePageInThread(await docOf(picture, 100), 0, {}, registry, threadServices());
    expect(restored.steps.filter((name) => registry.get(name).kind === 'document')).toEqual([]);
    expect(restored.steps.length).toBeGreaterThan(0);
    expect(restored.measures.noWordsRead).toBe(1);
  }, 120_000);
});
