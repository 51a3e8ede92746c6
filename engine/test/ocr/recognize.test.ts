// OCR of a clean page crop from the public eval set against its ground-truth text, with both Tesseract back-ends:
// the system's binary (Debian's "fast" model, the default) and tesseract.js (the fallback when it is absent).
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  nativeOcrAvailable,
  ocrBackend,
  OcrError,
  OcrTimeoutError,
  recognizeWords,
  recognizeWordsNative,
  recognizeWordsTesseract,
  terminateOcr,
  toPnm,
  type Recognizer,
} from '../../src/ocr/index.js';
import { engineDir } from '../helpers.js';
import { blankPaper, cer, greyCrop, textLines, withAlpha } from './helpers.js';

afterAll(async () => {
  await terminateOcr();
});

/** A Tesseract program that does not exist: the fallback path. */
const MISSING = path.join(engineDir, 'no-such-dir', 'tesseract');

describe.each<[string, Recognizer]>([
  ['native Tesseract', recognizeWordsNative],
  ['tesseract.js', recognizeWordsTesseract],
])('recognizeWords (%s)', (_name, recognize) => {
  it('reads a clean 150 DPI crop with a low character error rate and word boxes on the page', async () => {
    // doc_005, the title down to "6.5% per year.": the first ten lines of text.txt
    const img = await greyCrop('doc_005', 100, 140, 1050, 440);
    const result = await recognize(img, { dpi: 150 });
    const reference = (await textLines('doc_005')).slice(0, 10).join('\n');
    expect(cer(result.text, reference)).toBeLessThan(0.02);
    expect(result.lines).toHaveLength(10);
    expect(result.lines[0]!.text).toBe('Circular on the Complete Council');
    const september = result.words.find((w) => w.text === 'September');
    expect(september).toBeDefined();
    expect(september!.confidence).toBeGreaterThan(85);
    // "September" on the ninth line, right of its middle (x 540-700 of 1050 at 150 DPI in this crop).
    expect(september!.y0).toBeGreaterThan(result.lines[7]!.y1);
    expect(september!.x0).toBeGreaterThan(400);
    for (const w of result.words) {
      expect(w.x0).toBeGreaterThanOrEqual(0);
      expect(w.x1).toBeLessThanOrEqual(img.width);
      expect(w.y1).toBeLessThanOrEqual(img.height);
      expect(w.x1).toBeGreaterThan(w.x0);
    }
  }, 60_000);

  it('reads colour and alpha images the same as grey', async () => {
    const grey = await greyCrop('doc_005', 140, 150, 760, 60);
    const [a, b] = [await recognize(grey), await recognize(withAlpha(grey))];
    expect(a.text.trim()).toBe('Circular on the Complete Council');
    expect(b.text).toBe(a.text);
  }, 30_000);

  it('finds no words on blank paper', async () => {
    const blank = blankPaper(300, 200, 250);
    expect((await recognize(blank, { dpi: 150 })).words).toEqual([]);
  });

  it('rejects a buffer that does not match its size', async () => {
    await expect(recognize({ width: 5, height: 5, channels: 1, data: new Uint8Array(3) })).rejects.toThrow(
      RangeError,
    );
  });
});

describe('choosing the back-end', () => {
  it('finds the installed binary with English, and not a missing one', async () => {
    expect(await nativeOcrAvailable('tesseract')).toBe(true);
    expect(await nativeOcrAvailable(MISSING)).toBe(false);
  });

  it('falls back to tesseract.js when the binary is absent, and reads the same text', async () => {
    const crop = await greyCrop('doc_005', 140, 150, 760, 60);
    const fallback = await ocrBackend('auto', MISSING)(crop, { dpi: 150 });
    expect(fallback).toEqual(await recognizeWordsTesseract(crop, { dpi: 150 }));
    expect(fallback.text.trim()).toBe('Circular on the Complete Council');
    // The default finds the installed binary: its confidences are Tesseract's own, not tesseract.js's.
    expect(await recognizeWords(crop, { dpi: 150 })).toEqual(await recognizeWordsNative(crop, { dpi: 150 }));
  }, 60_000);

  it("'native' with a missing binary fails with a clear OcrError", async () => {
    const crop = await greyCrop('doc_005', 140, 150, 760, 60);
    const failure = ocrBackend('native', MISSING)(crop);
    await expect(failure).rejects.toThrow(OcrError);
    await expect(failure).rejects.toThrow(/could not start/);
  });

  it('stops a Tesseract run past its time limit with OcrTimeoutError', async () => {
    const page = await greyCrop('doc_005', 0, 0, 1200, 1600);
    await expect(recognizeWordsNative(page, { timeoutMs: 1 })).rejects.toThrow(OcrTimeoutError);
  });
});

it('writes binary PNM for Tesseract', () => {
  const pnm = toPnm({ width: 2, height: 1, channels: 3, data: new Uint8Array([1, 2, 3, 4, 5, 6]) });
  expect(pnm.toString('latin1', 0, 11)).toBe('P6\n2 1\n255\n');
  expect([...pnm.subarray(11)]).toEqual([1, 2, 3, 4, 5, 6]);
});
