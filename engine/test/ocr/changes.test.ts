// Where the output's ink differs from the input's, and the guard that re-reads the input only there: real eval
// crops, with words erased, rewritten or cut by hand.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { estimateSkew } from '../../src/analysis/measure.js';
import type { RawImage } from '../../src/image.js';
import {
  guardPage,
  inkChanges,
  recognizeWords,
  terminateOcr,
  unreadInk,
  type Box,
  type OcrResult,
  type OcrWord,
} from '../../src/ocr/index.js';
import { deskew } from '../../src/steps/document.js';
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

function fill(img: RawImage, box: Box, value: number): void {
  for (let y = box.y0; y < box.y1; y++) img.data.fill(value, y * img.width + box.x0, y * img.width + box.x1);
}

function paste(img: RawImage, from: Box, to: Box): void {
  fill(img, to, 255);
  const w = Math.min(from.x1 - from.x0, to.x1 - to.x0);
  const h = Math.min(from.y1 - from.y0, to.y1 - to.y0);
  for (let y = 0; y < h; y++) {
    const src = (from.y0 + y) * img.width + from.x0;
    img.data.set(img.data.slice(src, src + w), (to.y0 + y) * img.width + to.x0);
  }
}

function overlaps(a: Box, b: Box): boolean {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

async function median3(img: RawImage): Promise<RawImage> {
  const data = await sharp(Buffer.from(img.data), {
    raw: { width: img.width, height: img.height, channels: 1 },
  })
    .median(3)
    .toColourspace('b-w')
    .raw()
    .toBuffer();
  return { ...img, data: new Uint8Array(data) };
}

beforeAll(async () => {
  // doc_005: "- It was agreed that the warehouse …" down to "6.5% per year." (four lines, 15 checkable words)
  page = await greyCrop('doc_005', 100, 435, 1050, 140);
  pageOcr = await recognizeWords(page);
}, 30_000);

afterAll(async () => {
  await terminateOcr();
});

describe('inkChanges', () => {
  it('finds nothing on an identical or mildly smoothed page', async () => {
    expect((await inkChanges(page, copy(page), { dpi: 150 })).boxes).toEqual([]);
    expect((await inkChanges(page, await median3(page), { dpi: 150 })).boxes).toEqual([]);
  });

  it('finds an erased word and a rewritten one where they were', async () => {
    const erased = copy(page);
    fill(erased, word('warehouse'), 255);
    const a = await inkChanges(page, erased, { dpi: 150 });
    expect(a.boxes.length).toBeGreaterThan(0);
    expect(a.boxes.every((b) => overlaps(b, word('warehouse')))).toBe(true);

    const rewritten = copy(page);
    paste(rewritten, word('separately'), word('prepared'));
    const b = await inkChanges(page, rewritten, { dpi: 150 });
    expect(b.boxes.some((box) => overlaps(box, word('prepared')))).toBe(true);
  });

  it('finds one cut digit', async () => {
    const cut = copy(page);
    const year = word('2011;');
    fill(cut, { ...year, x0: Math.round(year.x0 + ((year.x1 - year.x0) * 3) / 5) }, 255);
    const { boxes } = await inkChanges(page, cut, { dpi: 150 });
    expect(boxes.some((b) => overlaps(b, year))).toBe(true);
  });

  it('asks for the places a cleaned page border covered, not for its whole bounding box', async () => {
    // doc_005, upper half; the input has a dark scanner frame around it, the output has it cleaned away.
    const clean = await greyCrop('doc_005', 0, 0, 1275, 800);
    const framed = copy(clean);
    const edge = 8;
    fill(framed, { x0: 0, y0: 0, x1: clean.width, y1: edge }, 20);
    fill(framed, { x0: 0, y0: clean.height - edge, x1: clean.width, y1: clean.height }, 20);
    fill(framed, { x0: 0, y0: 0, x1: edge, y1: clean.height }, 20);
    fill(framed, { x0: clean.width - edge, y0: 0, x1: clean.width, y1: clean.height }, 20);
    const { boxes } = await inkChanges(framed, clean, { dpi: 150 });
    const tile = Math.round(150 / 4);
    expect(boxes.length).toBeGreaterThan(4);
    expect(boxes.every((b) => b.x1 - b.x0 <= tile && b.y1 - b.y0 <= tile)).toBe(true);
    const inner = { x0: tile, y0: tile, x1: clean.width - tile, y1: clean.height - tile };
    expect(
      boxes.some((b) => b.x0 >= inner.x0 && b.x1 <= inner.x1 && b.y0 >= inner.y0 && b.y1 <= inner.y1),
    ).toBe(false);
  });

  it('aligns a skewed input with its deskewed output', async () => {
    // A taller crop (doc_011, two columns) turned by 1.5°, then deskewed by the engine's own step.
    const flat = await greyCrop('doc_011', 0, 200, 1275, 800);
    const turned = await sharp(Buffer.from(flat.data), {
      raw: { width: flat.width, height: flat.height, channels: 1 },
    })
      .rotate(1.5, { background: '#ffffff' })
      .extract({ left: 10, top: 10, width: 1255, height: 780 })
      .toColourspace('b-w')
      .raw()
      .toBuffer({ resolveWithObject: true });
    const skewed: RawImage = { data: new Uint8Array(turned.data), width: 1255, height: 780, channels: 1 };
    const skew = estimateSkew(skewed as RawImage & { channels: 1 });
    expect(Math.abs(skew)).toBeGreaterThan(1);
    const straight = await deskew.run(skewed, { angle: skew });
    const changes = await inkChanges(skewed, straight, { dpi: 150 });
    expect(changes.angle).toBe(skew);
    expect(changes.boxes).toEqual([]);
  }, 30_000);
});

describe('unreadInk', () => {
  it('points at a word the reading left out, and at nothing when every word was read', async () => {
    const mask = (await inkChanges(page, page, { dpi: 150 })).inputInk;
    expect(unreadInk(mask, pageOcr.words, page.width, page.height, 150)).toEqual([]);
    const skipped = word('warehouse');
    const rest = pageOcr.words.filter((w) => w !== skipped);
    const found = unreadInk(mask, rest, page.width, page.height, 150);
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((b) => overlaps(b, skipped))).toBe(true);
  });
});

describe("guardPage reading the input only where it changed (inputRead: 'changed')", () => {
  it('accepts an identical page and a mildly smoothed one without re-reading everything', async () => {
    const same = await guardPage(page, copy(page), { inputRead: 'changed', dpi: 150 });
    expect(same.accept).toBe(true);
    expect(same.inputWords).toBeGreaterThan(10);
    expect(same.reread?.full).toBe(false);
    const smooth = await guardPage(page, await median3(page), { inputRead: 'changed', dpi: 150 });
    expect(smooth.accept).toBe(true);
    expect(smooth.reread!.share).toBeLessThan(0.8);
  }, 30_000);

  it('rejects a page where a word was painted out, and names it', async () => {
    const damaged = copy(page);
    fill(damaged, word('warehouse'), 255);
    const result = await guardPage(page, damaged, { inputRead: 'changed', dpi: 150 });
    expect(result.accept).toBe(false);
    expect(result.lostWords).toContain('warehouse');
    expect(result.reread?.full).toBe(false);
  }, 30_000);

  it('rejects a page where a word was rewritten', async () => {
    const damaged = copy(page);
    paste(damaged, word('separately'), word('prepared'));
    const result = await guardPage(page, damaged, { inputRead: 'changed', dpi: 150 });
    expect(result.accept).toBe(false);
    expect(result.changedWords.map((c) => c.input)).toContain('prepared');
  }, 30_000);

  it('rejects a changed number even when the share of words is small', async () => {
    const damaged = copy(page);
    const year = word('2011;');
    fill(damaged, { ...year, x0: Math.round(year.x0 + ((year.x1 - year.x0) * 3) / 5) }, 255);
    const result = await guardPage(page, damaged, { inputRead: 'changed', dpi: 150, maxLostShare: 0.5 });
    expect(result.accept).toBe(false);
    expect(result.reason).toMatch(/digits/);
  }, 30_000);

  it('still catches an erased word in an upscaled output read at the input size', async () => {
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
    const w = word('balance');
    fill(upscaled, { x0: w.x0 * 2, x1: w.x1 * 2, y0: w.y0 * 2, y1: w.y1 * 2 }, 255);
    const result = await guardPage(page, upscaled, {
      inputRead: 'changed',
      dpi: 150,
      ocrOutputAtInputSize: true,
    });
    expect(result.accept).toBe(false);
    expect(result.lostWords).toContain('balance');
    expect(result.outputScale).toEqual({ x: 2, y: 2 });
  }, 30_000);
});
