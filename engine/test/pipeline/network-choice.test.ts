// The network is credited only where it reads clearly better: on a page it does not read clearly better than the
// input, the classical plan is read too and the page keeps the better reading. A deliberately weak stand-in for the
// network (it thins every stroke) and real OCR.
import { afterAll, describe, expect, it } from 'vitest';
import { planPage } from '../../src/analysis/plan.js';
import type { RawImage } from '../../src/image.js';
import { readsBetter } from '../../src/guard/index.js';
import { terminateOcr } from '../../src/ocr/index.js';
import { restorePageInThread } from '../../src/pipeline/page.js';
import { threadServices } from '../../src/pipeline/thread-services.js';
import { createDefaultRegistry } from '../../src/steps/index.js';
import { toGrey } from '../../src/pixels/index.js';
import { documentDamageMeasured } from '../../src/analysis/damage.js';
import { decodePage, loadDocument } from '../../src/io/decode.js';
import { docOf, textPage } from '../pages.js';
import { evalFile, reading } from '../helpers.js';

afterAll(async () => {
  await terminateOcr();
});

/** Every pixel the brightest of its 3×3 window: strokes lose a pixel on each side. */
function thinStrokes(img: RawImage): RawImage {
  const grey = toGrey(img, 'max');
  const { width, height, data } = grey;
  const out = new Uint8Array(data.length);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      let max = 0;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const yy = Math.min(height - 1, Math.max(0, y + dy));
          const xx = Math.min(width - 1, Math.max(0, x + dx));
          max = Math.max(max, data[yy * width + xx]!);
        }
      out[y * width + x] = max;
    }
  return { ...grey, data: out };
}

describe('the network against the classical plan', () => {
  it('calls a reading clearly better only with more words read or surer ones', () => {
    expect(readsBetter(reading(100, 80), reading(100, 80))).toBe(false);
    expect(readsBetter(reading(101, 80), reading(100, 80))).toBe(false);
    expect(readsBetter(reading(104, 78), reading(100, 80))).toBe(true);
    expect(readsBetter(reading(100, 84), reading(100, 80))).toBe(true);
    expect(readsBetter(reading(99, 90), reading(100, 80))).toBe(false);
  });

  it('shows neither the network nor the classical plan when neither reads better than the input', async () => {
    const page = await textPage({ ink: 70, paper: 225, lines: 14, fontSize: 18 });
    const doc = await docOf(page);
    const registry = createDefaultRegistry().register({
      name: 'restore-page-net',
      kind: 'document',
      description: 'a weak network (test): thins every stroke',
      run: thinStrokes,
    });
    const restored = await restorePageInThread(
      doc,
      0,
      { ocr: true, pageNet: true },
      registry,
      threadServices(),
    );
    expect(restored.steps).not.toContain('restore-page-net');
    const { image } = await decodePage(doc, 0);
    // The clean grey page reads as well before the classical plan as after it: the conservative steps are shown.
    expect(restored.steps).toEqual(planPage(image, 150, 'auto').conservative.map((s) => s.name));
    // Chosen because nothing read better, not as a fallback from a page that read worse.
    expect(restored.fallback).toBeUndefined();
  }, 120_000);

  it('shows a damaged page restored, not as it came, when its restoration reads as well as the input', async () => {
    // Public doc_011: skewed 1.7 degrees, noisy, JPEG. The engine's OCR reads it as well as the restoration, and no
    // fallback reads as well as both; a clean page in that place is shown as it came (test above).
    const doc = await loadDocument(evalFile('doc_011', 'degraded.png'));
    const { image, dpi } = await decodePage(doc, 0);
    expect(documentDamageMeasured(planPage(image, dpi, 'auto'))).toBe(true);
    const clean = await decodePage(await loadDocument(evalFile('doc_011', 'clean.png')), 0);
    expect(documentDamageMeasured(planPage(clean.image, clean.dpi, 'auto'))).toBe(false);
    const restored = await restorePageInThread(
      doc,
      0,
      { ocr: true, pageNet: true },
      createDefaultRegistry(),
      threadServices(),
    );
    expect(restored.asInput).toBeUndefined();
    expect(restored.steps).toContain('deskew');
  }, 120_000);
});
