// The guard on a real page crop: it must pass honest restorations and catch erased or rewritten words.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RawImage } from '../../src/image.js';
import {
  guardPage,
  recognizeWords,
  terminateOcr,
  type OcrResult,
  type OcrWord,
} from '../../src/ocr/index.js';
import { greyCrop } from './helpers.js';

let page: RawImage;
let pageOcr: OcrResult;

function word(text: string): OcrWord {
  const found = pageOcr.words.find((w) => w.text === text);
  if (!found) throw new Error(`test crop no longer contains "${text}"`);
  return found;
}

function copy(img: RawImage): RawImage {
  return { ...img, data: Uint8Array.from(img.data) };
}

function fill(img: RawImage, box: OcrWord, value: number): void {
  for (let y = box.y0; y < box.y1; y++) img.data.fill(value, y * img.width + box.x0, y * img.width + box.x1);
}

/** Pastes the pixels of one word over another (same top-left; clipped to the target box). */
function paste(img: RawImage, from: OcrWord, to: OcrWord): void {
  fill(img, to, 255);
  const w = Math.min(from.x1 - from.x0, to.x1 - to.x0);
  const h = Math.min(from.y1 - from.y0, to.y1 - to.y0);
  for (let y = 0; y < h; y++) {
    const src = (from.y0 + y) * img.width + from.x0;
    img.data.set(img.data.slice(src, src + w), (to.y0 + y) * img.width + to.x0);
  }
}

beforeAll(async () => {
  // doc_005: "- It was agreed that the warehouse …" down to "6.5% per year." (four lines, 15 checkable words)
  page = await greyCrop('doc_005', 100, 435, 1050, 140);
  pageOcr = await recognizeWords(page);
}, 30_000);

afterAll(async () => {
  await terminateOcr();
});

describe('guardPage', () => {
  it('accepts an identical page', async () => {
    const result = await guardPage(page, copy(page), { inputOcr: pageOcr });
    expect(result.accept).toBe(true);
    expect(result.inputWords).toBeGreaterThan(10);
    expect(result.keptWords).toBe(result.inputWords);
    expect(result.lostWords).toEqual([]);
  });

  it('accepts a mildly smoothed page, and a 2x upscaled one', async () => {
    const smooth = await sharp(Buffer.from(page.data), {
      raw: { width: page.width, height: page.height, channels: 1 },
    })
      .median(3)
      .toColourspace('b-w')
      .raw()
      .toBuffer();
    const denoised = await guardPage(page, { ...page, data: new Uint8Array(smooth) }, { inputOcr: pageOcr });
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

    const w = word('balance');
    fill(upscaled, { ...w, x0: w.x0 * 2, x1: w.x1 * 2, y0: w.y0 * 2, y1: w.y1 * 2 }, 255);
    const erased = await guardPage(page, upscaled, { inputOcr: pageOcr, ocrOutputAtInputSize: true });
    expect(erased.accept).toBe(false);
    expect(erased.lostWords).toContain('balance');
  }, 30_000);

  it('rejects a page where a word was painted out, and names it', async () => {
    const damaged = copy(page);
    fill(damaged, word('warehouse'), 255);
    const result = await guardPage(page, damaged, { inputOcr: pageOcr });
    expect(result.accept).toBe(false);
    expect(result.lostWords).toContain('warehouse');
    const line = result.regions.find((r) => r.lostWords.includes('warehouse'));
    expect(line?.accept).toBe(false);
    // The lost word's own box, for the pipeline to patch that word only.
    const { x0, y0, x1, y1 } = word('warehouse');
    expect(line?.badWords).toContainEqual(expect.objectContaining({ x0, y0, x1, y1 }));
    expect(result.regions.filter((r) => r.accept).length).toBeGreaterThan(0);
  });

  it('rejects a page where a word was rewritten', async () => {
    const damaged = copy(page);
    paste(damaged, word('separately'), word('prepared'));
    const result = await guardPage(page, damaged, { inputOcr: pageOcr });
    expect(result.accept).toBe(false);
    expect(result.changedWords.map((c) => c.input)).toContain('prepared');
  });

  it('rejects a changed number even when the share of words is small', async () => {
    const damaged = copy(page);
    const year = word('2011;');
    // Erase the last digit only: "2011" becomes "201"
    fill(damaged, { ...year, x0: Math.round(year.x0 + ((year.x1 - year.x0) * 3) / 5) }, 255);
    const result = await guardPage(page, damaged, { inputOcr: pageOcr, maxLostShare: 0.5 });
    expect(result.accept).toBe(false);
    expect(result.reason).toMatch(/digits/);
  });
});
