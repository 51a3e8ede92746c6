// The input reading a page's candidates are measured against: one reading for all of them once the input was read
// whole, and a whole reading where a masked crop of the input reads clearly fewer words than the output there.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RawImage } from '../../src/image.js';
import { guardPage, readingQuality, readsWorse, type GuardResult } from '../../src/guard/index.js';
import { pageReadsWorse } from '../../src/guard/never-worse.js';
import { OcrTimeoutError, recognizeWords, terminateOcr, type Recognizer } from '../../src/ocr/index.js';
import { threadServices } from '../../src/pipeline/thread-services.js';
import { agreementCrop, copyImage, median3, pixelSum, skewedCrop, wrappedTesseract } from '../ocr/helpers.js';
import { estimateSkew } from '../../src/analysis/measure.js';
import { deskew } from '../../src/steps/document.js';
import { toGrey } from '../../src/pixels/index.js';
import { textPage } from '../pages.js';

afterAll(async () => {
  await terminateOcr();
});

/** The page moved `dx` pixels to the right (white comes in on the left). */
function shifted(img: RawImage, dx: number): RawImage {
  const out = copyImage(img);
  for (let y = 0; y < img.height; y++)
    for (let x = 0; x < img.width; x++)
      out.data[y * img.width + x] = x < dx ? 255 : img.data[y * img.width + x - dx]!;
  return out;
}

/**
 * A Tesseract program for `threadServices` that reads every image but `wholeImages` (given as their pixels) with each
 * word twice, the second time at confidence 70 (read, but too unsure for the word guard to check): a re-read crop of
 * the input that seems to read more words than the page it comes from.
 */
function doublingTesseract(dir: string, wholeImages: RawImage[]): string {
  const whole = wholeImages.map((img) => `[ "$sum" = ${pixelSum(img)} ]`).join(' || ');
  return wrappedTesseract(
    dir,
    'doubling',
    (real) =>
      `if ${whole}; then ${real} "$f" "$@"; ` +
      `else ${real} "$f" "$@" | awk -F'\\t' -v OFS='\\t' '{ print } $1 == 5 { $11 = 70; print }'; fi`,
  );
}

describe("the input's reading the guard measures a page's candidates on", () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'folio-input-reading-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is read whole before a candidate is called worse on a reading merged from re-read places', async () => {
    const page = await agreementCrop();
    const output = await median3(page);
    const results: GuardResult[] = [];
    const tesseract = doublingTesseract(dir, [page, output]);
    const services = threadServices({ ocr: 'native', tesseract, guardRead: 'changed' }, (r) =>
      results.push(r),
    );
    const verdict = await services.startGuard!(page, 150).check(output);
    // The input was re-read in a few places, whose crop reads each word twice: on that merged reading the output
    // reads worse.
    expect(results[0]!.reread?.full).toBe(false);
    expect(results[0]!.reread?.boxes.length).toBeGreaterThan(0);
    const merged = readingQuality(results[0]!.inputOcr.words);
    expect(readsWorse(merged, readingQuality(results[0]!.outputOcr.words))).toMatch(/words read against/);
    // Before that verdict the input is read whole, and the candidate is measured on that reading.
    expect(verdict.reading!.input).toEqual(readingQuality((await recognizeWords(page, { dpi: 150 })).words));
    expect(pageReadsWorse(verdict)).toBeUndefined();
  }, 60_000);

  it('is the whole reading for every candidate once one candidate had the input read whole', async () => {
    const page = await agreementCrop();
    const results: GuardResult[] = [];
    const services = threadServices({ ocr: 'native', tesseract: 'tesseract', guardRead: 'changed' }, (r) =>
      results.push(r),
    );
    const guard = services.startGuard!(page, 150);
    // A smoothed page changes a few places: the input is re-read there, the output's words stand in elsewhere.
    const smoothed = await guard.check(await median3(page));
    const merged = { ...smoothed.reading!.input };
    // A page moved by 3 pixels changed all its ink: the input is read whole.
    const moved = await guard.check(shifted(page, 3));
    expect(results.map((r) => r.reread?.full)).toEqual([false, true]);
    expect(moved.badLines).toEqual([]);
    expect(moved.reading!.input).toEqual(readingQuality((await recognizeWords(page, { dpi: 150 })).words));
    // The first candidate is now measured on the same reading of the input as the second.
    expect(smoothed.reading!.input).not.toEqual(merged);
    expect(smoothed.reading!.input).toEqual(moved.reading!.input);
  }, 60_000);

  it('is read whole where a masked crop of the input reads clearly fewer words than the output there', async () => {
    const page = await agreementCrop();
    const output = await median3(page);
    const reads: string[] = [];
    // Tesseract's layout analysis drops some of the small islands of text a masked crop leaves; here two words of
    // three in the crop go unread.
    const islandsDropped: Recognizer = async (img, opts) => {
      const kind = img === page ? 'input' : img === output ? 'output' : 'crop';
      reads.push(kind);
      const read = await recognizeWords(img, opts);
      if (kind !== 'crop') return read;
      const kept = new Set(read.words.filter((_, i) => i % 3 === 0));
      return {
        ...read,
        words: [...kept],
        lines: read.lines.map((l) => ({ ...l, words: l.words.filter((w) => kept.has(w)) })),
      };
    };
    const result = await guardPage(page, output, {
      inputRead: 'changed',
      dpi: 150,
      minConfidence: 95,
      recognize: islandsDropped,
    });
    expect(reads).toEqual(['output', 'crop', 'input']);
    expect(result.reread?.full).toBe(true);
    expect(result.inputOcr.words.length).toBeGreaterThan(25);
    // A crop that reads its words is trusted: the input is not read whole.
    const honest = await guardPage(page, output, {
      inputRead: 'changed',
      dpi: 150,
      minConfidence: 95,
      recognize: recognizeWords,
    });
    expect(honest.reread?.full).toBe(false);
  }, 60_000);

  it("counts the input's words a deskewed output reads less surely, same letters, as neither lost nor added marks", async () => {
    const skewed = await skewedCrop();
    const straight = await deskew.run(skewed, { angle: estimateSkew(skewed) });
    const moved = shifted(skewed, 3);
    // Every twelfth word of an output read at confidence 55 (as a straightened table's cells can read).
    const tesseract = wrappedTesseract(
      dir,
      'less-sure',
      (real) =>
        `if [ "$sum" = ${pixelSum(skewed)} ]; then ${real} "$f" "$@"; ` +
        `else ${real} "$f" "$@" | awk -F'\\t' -v OFS='\\t' '$1 == 5 && ++n % 12 == 0 { $11 = 55 } { print }'; fi`,
    );
    const services = threadServices({ ocr: 'native', tesseract, guardRead: 'changed' });
    const turned = await services.startGuard!(skewed, 150).check(straight);
    const reading = turned.reading!;
    expect(reading.input.words).toBeGreaterThan(50);
    expect(reading.lessSure).toBeGreaterThanOrEqual(reading.input.words - reading.output.words);
    expect(readsWorse(reading.input, reading.output)).toMatch(/words read against/);
    expect(pageReadsWorse(turned)).toBeUndefined();
    // On a page not turned, a word read less surely at its place is a word whose ink got worse: it counts as lost.
    const notTurned = await services.startGuard!(skewed, 150).check(moved);
    expect(notTurned.reading!.lessSure).toBe(0);
    expect(pageReadsWorse(notTurned)).toMatch(/words read against/);
  }, 60_000);

  it.each([
    ['whole', 3],
    ['in a crop', 0],
  ])(
    'is no words where the OCR runs past its time limit on the input (read %s), and the output is judged on its own reading',
    async (_how, dx) => {
      const page = await agreementCrop();
      // Moved by 3 pixels, every line changed and the input is read whole; smoothed, a few places are read in a crop.
      const output = dx > 0 ? shifted(page, dx) : await median3(page);
      const reads: string[] = [];
      const outOfTime: Recognizer = (img, opts) => {
        reads.push(img === output ? 'output' : img === page ? 'input' : 'crop');
        return img === output ? recognizeWords(img, opts) : Promise.reject(new OcrTimeoutError(60_000));
      };
      const result = await guardPage(page, output, {
        inputRead: 'changed',
        dpi: 150,
        minConfidence: 95,
        recognize: outOfTime,
      });
      expect(reads).toEqual(dx > 0 ? ['output', 'input'] : ['output', 'crop']);
      expect(result.inputUnread).toBe(true);
      expect(result.accept).toBe(true);
      expect(result.outputOcr.words.length).toBeGreaterThan(25);
      // Read whole, the input reads nothing; read in a crop, nothing in the crop and the output's words elsewhere.
      if (dx > 0) expect(result.inputOcr.words).toEqual([]);
      else expect(result.inputOcr.words.length).toBeLessThan(result.outputOcr.words.length);
      // Any other failure of the OCR still fails the check.
      const broken: Recognizer = (img, opts) =>
        img === output ? recognizeWords(img, opts) : Promise.reject(new Error('the OCR program failed'));
      await expect(
        guardPage(page, output, { inputRead: 'changed', dpi: 150, minConfidence: 95, recognize: broken }),
      ).rejects.toThrow('the OCR program failed');
    },
    60_000,
  );
});

describe("the guard's count of an output's lines read in pieces", () => {
  it('counts the lines a white band down the text cuts in two side by side, none on the page whole', async () => {
    const page = toGrey(await textPage(), 'max');
    // A band 12 px wide down the middle of every line: each reads as two pieces a word space apart.
    const data = Uint8Array.from(page.data);
    for (let y = 0; y < page.height; y++) data.fill(255, y * page.width + 600, y * page.width + 612);
    const banded = { ...page, data };
    const guard = threadServices({ ocr: 'native', tesseract: 'tesseract', guardRead: 'changed' }).startGuard!(
      page,
      150,
    );
    expect((await guard.check(copyImage(page))).reading!.cutLines).toBe(0);
    expect((await guard.check(banded)).reading!.cutLines).toBeGreaterThanOrEqual(3);
  }, 60_000);
});
