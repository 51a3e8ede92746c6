// OCR of a clean page crop from the public eval set against its ground-truth text.
import { afterAll, describe, expect, it } from 'vitest';
import { recognizeWords, terminateOcr, toPnm } from '../../src/ocr/index.js';
import { cer, greyCrop, textLines, withAlpha } from './helpers.js';

afterAll(async () => {
  await terminateOcr();
});

describe('recognizeWords (tesseract.js)', () => {
  it('reads a clean 150 DPI crop with a low character error rate and word boxes on the page', async () => {
    // doc_005, the title down to "6.5% per year.": the first ten lines of text.txt
    const img = await greyCrop('doc_005', 100, 140, 1050, 440);
    const result = await recognizeWords(img, { dpi: 150 });
    const reference = (await textLines('doc_005')).slice(0, 10).join('\n');
    expect(cer(result.text, reference)).toBeLessThan(0.02);
    expect(result.lines).toHaveLength(10);
    const september = result.words.find((w) => w.text === 'September');
    expect(september).toBeDefined();
    expect(september!.confidence).toBeGreaterThan(85);
    for (const w of result.words) {
      expect(w.x0).toBeGreaterThanOrEqual(0);
      expect(w.x1).toBeLessThanOrEqual(img.width);
      expect(w.y1).toBeLessThanOrEqual(img.height);
      expect(w.x1).toBeGreaterThan(w.x0);
    }
  }, 60_000);

  it('reads colour and alpha images the same as grey', async () => {
    const grey = await greyCrop('doc_005', 140, 150, 760, 60);
    const [a, b] = [await recognizeWords(grey), await recognizeWords(withAlpha(grey))];
    expect(a.text.trim()).toBe('Circular on the Complete Council');
    expect(b.text).toBe(a.text);
  }, 30_000);

  it('writes binary PNM for Tesseract', () => {
    const pnm = toPnm({ width: 2, height: 1, channels: 3, data: new Uint8Array([1, 2, 3, 4, 5, 6]) });
    expect(pnm.toString('latin1', 0, 11)).toBe('P6\n2 1\n255\n');
    expect([...pnm.subarray(11)]).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('rejects a buffer that does not match its size', async () => {
    await expect(
      recognizeWords({ width: 5, height: 5, channels: 1, data: new Uint8Array(3) }),
    ).rejects.toThrow(RangeError);
  });
});
