// PaddleOCR (the engine's alternative OCR back-end) on real crops of the public eval set against their ground truth.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RawImage } from '../../src/image.js';
import {
  recognizeWordsPaddle as recognizeWords,
  releasePaddle,
  type OcrResult,
} from '../../src/ocr/index.js';
import { blankPaper, cer, greyCrop, textLines, withAlpha } from './helpers.js';

// doc_005, the title down to "6.5% per year.": the first ten lines of text.txt
let img: RawImage;
let result: OcrResult;

beforeAll(async () => {
  img = await greyCrop('doc_005', 100, 140, 1050, 440);
  result = await recognizeWords(img, { dpi: 150 });
}, 60_000);

afterAll(async () => {
  await releasePaddle();
});

describe('recognizeWordsPaddle', () => {
  it('reads a clean 150 DPI crop with a low character error rate, word boxes and confidences', async () => {
    const reference = (await textLines('doc_005')).slice(0, 10).join('\n');
    expect(cer(result.text, reference)).toBeLessThan(0.02);
    expect(result.lines).toHaveLength(10);
    expect(result.lines.map((l) => l.words.map((w) => w.text).join(' '))).toEqual(result.text.split('\n'));
    const september = result.words.find((w) => w.text === 'September');
    expect(september).toBeDefined();
    expect(september!.confidence).toBeGreaterThan(90);
    for (const w of result.words) {
      expect(w.x0).toBeGreaterThanOrEqual(0);
      expect(w.y0).toBeGreaterThanOrEqual(0);
      expect(w.x1).toBeLessThanOrEqual(img.width);
      expect(w.y1).toBeLessThanOrEqual(img.height);
      expect(w.x1).toBeGreaterThan(w.x0);
      expect(w.confidence).toBeGreaterThan(0);
      expect(w.confidence).toBeLessThanOrEqual(100);
    }
    // Word boxes follow the words: on each line they run left to right without overlapping much.
    for (const line of result.lines) {
      for (let i = 1; i < line.words.length; i++) {
        expect(line.words[i]!.x0).toBeGreaterThanOrEqual(line.words[i - 1]!.x1 - 4);
      }
    }
  });

  it('puts a word box where the word is: a crop at that box reads the same word', async () => {
    const word = result.words.find((w) => w.text === 'September')!;
    const left = 100 + word.x0;
    const top = 140 + word.y0;
    const alone = await greyCrop('doc_005', left, top, word.x1 - word.x0, word.y1 - word.y0);
    expect((await recognizeWords(alone, { dpi: 150 })).text.trim()).toBe('September');
  }, 60_000);

  it('reads two columns column by column, like the eval ground truth', async () => {
    // doc_011 (two columns): the first lines of the left column come before those of the right one.
    const img = await greyCrop('doc_011', 100, 240, 1075, 130);
    const result = await recognizeWords(img, { dpi: 150 });
    const lines = result.lines.map((l) => l.text);
    const left = lines.findIndex((t) => t.startsWith('Walter Novak'));
    const right = lines.findIndex((t) => t.startsWith('suitable for input'));
    expect(left).toBeGreaterThanOrEqual(0);
    expect(right).toBeGreaterThan(left + 1);
  }, 60_000);

  it('reads colour and alpha images the same as grey', async () => {
    const grey = await greyCrop('doc_005', 140, 150, 760, 60);
    const [a, b] = [await recognizeWords(grey), await recognizeWords(withAlpha(grey))];
    expect(a.text.trim()).toBe('Circular on the Complete Council');
    expect(b.text).toBe(a.text);
  }, 30_000);

  it('finds nothing on a blank page', async () => {
    const blank = blankPaper(400, 300, 255);
    expect((await recognizeWords(blank)).words).toEqual([]);
  });

  it('rejects a buffer that does not match its size', async () => {
    await expect(
      recognizeWords({ width: 5, height: 5, channels: 1, data: new Uint8Array(3) }),
    ).rejects.toThrow(RangeError);
  });
});
