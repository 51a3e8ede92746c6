// The network is credited only where it reads clearly better: the classical plan's page is read beside the network's,
// and the page keeps the better reading. Deliberately weak stand-ins for the network (one thins every stroke, one drops
// lines) and real OCR.
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
import { docOf, TEXT_TOP, textPage } from '../pages.js';
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

/** Salt and pepper: a `share` of the pixels turned black or white, drawn by a fixed linear congruential sequence. */
function saltAndPepper(img: RawImage, share: number): RawImage {
  const data = Uint8Array.from(img.data);
  let state = 12345;
  const next = () => (state = (state * 1103515245 + 12345) >>> 0) / 2 ** 32;
  for (let i = 0; i < data.length; i++) if (next() < share) data[i] = next() < 0.5 ? 0 : 255;
  return { ...img, data };
}

describe('the network against the classical plan', () => {
  it('calls a reading clearly better only with more words read or surer ones', () => {
    expect(readsBetter(reading(100, 80), reading(100, 80))).toBe(false);
    expect(readsBetter(reading(101, 80), reading(100, 80))).toBe(false);
    expect(readsBetter(reading(104, 78), reading(100, 80))).toBe(true);
    expect(readsBetter(reading(100, 84), reading(100, 80))).toBe(true);
    expect(readsBetter(reading(99, 90), reading(100, 80))).toBe(false);
  });

  it("reads the classical page beside a network's that reads better than the input, and shows the better", async () => {
    // A stand-in network that takes the salt and pepper away and drops the last lines of text: its page reads more
    // words than the speckled input, whose words the OCR reads too unsure for the word guard to miss, so its page reads
    // as proven. The classical plan's median keeps every line, and its page reads more words still.
    const lines = 16;
    const fontSize = 22;
    const noisy = saltAndPepper(await textPage({ lines, fontSize }), 0.12);
    const registry = createDefaultRegistry();
    const median = registry.get('remove-salt-pepper');
    const cut = Math.round(TEXT_TOP + (lines - 5) * fontSize * 1.6 - fontSize);
    registry.register({
      name: 'restore-page-net',
      kind: 'document',
      description: 'a network that drops lines (test): the median, then the last five lines painted over',
      run: async (img) => {
        const out = toGrey(await median.run(img, {}), 'max');
        out.data.fill(255, cut * out.width);
        return out;
      },
    });
    const restored = await restorePageInThread(
      await docOf(noisy),
      0,
      { ocr: true, pageNet: true },
      registry,
      threadServices(),
    );
    expect(restored.steps).toContain('remove-salt-pepper');
    expect(restored.steps).not.toContain('restore-page-net');
  }, 120_000);

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
