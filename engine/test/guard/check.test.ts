// The guard on a real page crop: it must pass honest restorations and catch erased or rewritten words.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RawImage } from '../../src/image.js';
import { recognizeWords, terminateOcr, type OcrResult } from '../../src/ocr/index.js';
import { guardPage } from '../../src/guard/index.js';
import { agreementCrop, copyImage, fillBox, findWord, median3, pasteBox } from '../ocr/helpers.js';

let page: RawImage;
let pageOcr: OcrResult;

beforeAll(async () => {
  page = await agreementCrop();
  pageOcr = await recognizeWords(page);
}, 30_000);

afterAll(async () => {
  await terminateOcr();
});

describe('guardPage', () => {
  it('accepts an identical page', async () => {
    const result = await guardPage(page, copyImage(page), { inputOcr: pageOcr });
    expect(result.accept).toBe(true);
    expect(result.inputWords).toBeGreaterThan(10);
    expect(result.keptWords).toBe(result.inputWords);
    expect(result.lostWords).toEqual([]);
  });

  it('accepts a mildly smoothed page, and a 2x upscaled one', async () => {
    const denoised = await guardPage(page, await median3(page), { inputOcr: pageOcr });
    expect(denoised.accept).toBe(true);

    const big = await sharp(Buffer.from(page.data), {
      raw: { width: page.width, height: page.height, channels: 1 },
    })
      .resize(page.width * 2, page.height * 2, { kernel: 'cubic' })
      .toColourspace('b-w')
      .raw()
      .toBuffer();
    const upscaled = await guardPage(
      page,
      { width: page.width * 2, height: page.height * 2, channels: 1, data: new Uint8Array(big) },
      { inputOcr: pageOcr },
    );
    expect(upscaled.accept).toBe(true);
  }, 30_000);

  it('reads an upscaled output at the input size when asked, and still catches an erased word', async () => {
    const big = await sharp(Buffer.from(page.data), {
      raw: { width: page.width, height: page.height, channels: 1 },
    })
      .resize(page.width * 2, page.height * 2, { kernel: 'cubic' })
      .toColourspace('b-w')
      .raw()
      .toBuffer();
    const upscaled: RawImage = {
      width: page.width * 2,
      height: page.height * 2,
      channels: 1,
      data: new Uint8Array(big),
    };
    const fast = await guardPage(page, upscaled, { inputOcr: pageOcr, ocrOutputAtInputSize: true });
    expect(fast.accept).toBe(true);
    expect(fast.keptWords).toBe(fast.inputWords);

    const w = findWord(pageOcr, 'balance');
    fillBox(upscaled, { ...w, x0: w.x0 * 2, x1: w.x1 * 2, y0: w.y0 * 2, y1: w.y1 * 2 }, 255);
    const erased = await guardPage(page, upscaled, { inputOcr: pageOcr, ocrOutputAtInputSize: true });
    expect(erased.accept).toBe(false);
    expect(erased.lostWords).toContain('balance');
  }, 30_000);

  it('rejects a page where a word was painted out, and names it', async () => {
    const damaged = copyImage(page);
    fillBox(damaged, findWord(pageOcr, 'warehouse'), 255);
    const result = await guardPage(page, damaged, { inputOcr: pageOcr });
    expect(result.accept).toBe(false);
    expect(result.lostWords).toContain('warehouse');
    const line = result.regions.find((r) => r.lostWords.includes('warehouse'));
    expect(line?.accept).toBe(false);
    // The lost word's own box, for the pipeline to patch that word only.
    const { x0, y0, x1, y1 } = findWord(pageOcr, 'warehouse');
    expect(line?.badWords).toContainEqual(expect.objectContaining({ x0, y0, x1, y1 }));
    expect(result.regions.filter((r) => r.accept).length).toBeGreaterThan(0);
  });

  it('rejects a page where a word was rewritten', async () => {
    const damaged = copyImage(page);
    pasteBox(damaged, findWord(pageOcr, 'separately'), findWord(pageOcr, 'prepared'));
    const result = await guardPage(page, damaged, { inputOcr: pageOcr });
    expect(result.accept).toBe(false);
    expect(result.changedWords.map((c) => c.input)).toContain('prepared');
  });

  it('rejects a changed number even when the share of words is small', async () => {
    const damaged = copyImage(page);
    const year = findWord(pageOcr, '2011;');
    // Erase the last digit only: "2011" becomes "201"
    fillBox(damaged, { ...year, x0: Math.round(year.x0 + ((year.x1 - year.x0) * 3) / 5) }, 255);
    const result = await guardPage(page, damaged, { inputOcr: pageOcr, maxLostShare: 0.5 });
    expect(result.accept).toBe(false);
    expect(result.reason).toMatch(/digits/);
  });
});
