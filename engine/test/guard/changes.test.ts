// Where the output's ink differs from the input's, and the guard that re-reads the input only there: real eval
// crops, with words erased, rewritten or cut by hand.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { estimateSkew } from '../../src/analysis/measure.js';
import type { RawImage } from '../../src/image.js';
import { recognizeWords, terminateOcr, type OcrResult, type Recognizer } from '../../src/ocr/index.js';
import { guardPage, inkChanges, unreadInk, type Box } from '../../src/guard/index.js';
import { deskew } from '../../src/steps/document.js';
import {
  agreementCrop,
  copyImage,
  fillBox,
  findWord,
  greyCrop,
  median3,
  pasteBox,
  skewedCrop,
} from '../ocr/helpers.js';

let page: RawImage;
let pageOcr: OcrResult;

/** The box's ink faded towards white paper, to `depth` of its darkness. */
function fadeBox(img: RawImage, box: Box, depth: number): void {
  for (let y = Math.floor(box.y0); y < Math.ceil(box.y1); y++)
    for (let x = Math.floor(box.x0); x < Math.ceil(box.x1); x++) {
      const i = y * img.width + x;
      img.data[i] = Math.round(255 - depth * (255 - img.data[i]!));
    }
}

function overlaps(a: Box, b: Box): boolean {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

beforeAll(async () => {
  page = await agreementCrop();
  pageOcr = await recognizeWords(page);
}, 30_000);

afterAll(async () => {
  await terminateOcr();
});

describe('inkChanges', () => {
  it('finds nothing on an identical or mildly smoothed page', async () => {
    expect((await inkChanges(page, copyImage(page), { dpi: 150 })).boxes).toEqual([]);
    expect((await inkChanges(page, await median3(page), { dpi: 150 })).boxes).toEqual([]);
    expect((await inkChanges(page, copyImage(page), { dpi: 150 })).darkened).toEqual([]);
    expect((await inkChanges(page, await median3(page), { dpi: 150 })).darkened).toEqual([]);
  });

  it('finds an erased word and a rewritten one where they were', async () => {
    const erased = copyImage(page);
    fillBox(erased, findWord(pageOcr, 'warehouse'), 255);
    const a = await inkChanges(page, erased, { dpi: 150 });
    expect(a.boxes.length).toBeGreaterThan(0);
    expect(a.boxes.every((b) => overlaps(b, findWord(pageOcr, 'warehouse')))).toBe(true);

    const rewritten = copyImage(page);
    pasteBox(rewritten, findWord(pageOcr, 'separately'), findWord(pageOcr, 'prepared'));
    const b = await inkChanges(page, rewritten, { dpi: 150 });
    expect(b.boxes.some((box) => overlaps(box, findWord(pageOcr, 'prepared')))).toBe(true);
  });

  it('finds one cut digit', async () => {
    const cut = copyImage(page);
    const year = findWord(pageOcr, '2011;');
    fillBox(cut, { ...year, x0: Math.round(year.x0 + ((year.x1 - year.x0) * 3) / 5) }, 255);
    const { boxes } = await inkChanges(page, cut, { dpi: 150 });
    expect(boxes.some((b) => overlaps(b, year))).toBe(true);
  });

  it('asks for the places a cleaned page border covered, not for its whole bounding box', async () => {
    // doc_005, upper half; the input has a dark scanner frame around it, the output has it cleaned away.
    const clean = await greyCrop('doc_005', 0, 0, 1275, 800);
    const framed = copyImage(clean);
    const edge = 8;
    fillBox(framed, { x0: 0, y0: 0, x1: clean.width, y1: edge }, 20);
    fillBox(framed, { x0: 0, y0: clean.height - edge, x1: clean.width, y1: clean.height }, 20);
    fillBox(framed, { x0: 0, y0: 0, x1: edge, y1: clean.height }, 20);
    fillBox(framed, { x0: clean.width - edge, y0: 0, x1: clean.width, y1: clean.height }, 20);
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
    const skewed = await skewedCrop();
    const skew = estimateSkew(skewed);
    expect(Math.abs(skew)).toBeGreaterThan(1);
    const straight = await deskew.run(skewed, { angle: skew });
    const changes = await inkChanges(skewed, straight, { dpi: 150 });
    expect(changes.angle).toBe(skew);
    expect(changes.boxes).toEqual([]);
  }, 30_000);

  it('finds a word erased from a deskewed page where the output shows it, also when the whole input is read', async () => {
    const skewed = await skewedCrop();
    const straight = await deskew.run(skewed, { angle: estimateSkew(skewed) });
    // The clearly read long word (once on the page) farthest from the middle across: there, turning moves it most
    // up or down.
    const middle = straight.width / 2;
    const { words } = await recognizeWords(straight);
    const far = words
      .filter((w) => w.confidence >= 95 && /^[a-z]{7,}$/.test(w.text))
      .filter(
        (w) => words.filter((o) => o.text.replace(/[^a-z]/gi, '').toLowerCase() === w.text).length === 1,
      )
      .sort((a, b) => Math.abs(b.x0 + b.x1 - 2 * middle) - Math.abs(a.x0 + a.x1 - 2 * middle))[0]!;
    const erased = copyImage(straight);
    fillBox(erased, far, 255);
    // maxRereadShare 0: the whole input is read, as it came (not turned), as on a page the restoration changed
    // nearly everywhere.
    const result = await guardPage(skewed, erased, { inputRead: 'changed', maxRereadShare: 0, dpi: 150 });
    expect(result.reread?.full).toBe(true);
    expect(result.reread?.angle).not.toBe(0);
    expect(result.lostWords).toContain(far.text);
    expect(result.frame).toBe('output');
    // Its box is where the output showed it, so a patch puts it back in its place.
    const bad = result.regions.flatMap((r) => r.badWords).find((w) => w.text === far.text)!;
    const w = Math.min(bad.x1, far.x1) - Math.max(bad.x0, far.x0);
    const h = Math.min(bad.y1, far.y1) - Math.max(bad.y0, far.y0);
    expect((w * h) / ((far.x1 - far.x0) * (far.y1 - far.y0))).toBeGreaterThan(0.7);
    // And its lines are straight like the output's, not the slanted lines' boxes turned (those take in the lines
    // beside them, which the text layer then reads again).
    const middleHeight = (boxes: readonly Box[]) =>
      boxes.map((b) => b.y1 - b.y0).sort((a, b) => a - b)[boxes.length >> 1]!;
    expect(middleHeight(result.regions)).toBeLessThan(1.3 * middleHeight(result.outputOcr.lines));
  }, 60_000);
});

describe('unreadInk', () => {
  it('points at a word the reading left out, and at nothing when every word was read', async () => {
    const mask = (await inkChanges(page, page, { dpi: 150 })).inputInk;
    expect(unreadInk(mask, pageOcr.words, page.width, page.height, 150)).toEqual([]);
    const skipped = findWord(pageOcr, 'warehouse');
    const rest = pageOcr.words.filter((w) => w !== skipped);
    const found = unreadInk(mask, rest, page.width, page.height, 150);
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((b) => overlaps(b, skipped))).toBe(true);
  });
});

describe("guardPage reading the input only where it changed (inputRead: 'changed')", () => {
  it('accepts an identical page and a mildly smoothed one without re-reading everything', async () => {
    const same = await guardPage(page, copyImage(page), { inputRead: 'changed', dpi: 150 });
    expect(same.accept).toBe(true);
    expect(same.inputWords).toBeGreaterThan(10);
    expect(same.reread?.full).toBe(false);
    const smooth = await guardPage(page, await median3(page), { inputRead: 'changed', dpi: 150 });
    expect(smooth.accept).toBe(true);
    expect(smooth.reread!.share).toBeLessThan(0.8);
  }, 30_000);

  it('reads the input whole where the output draws faint ink solid, and only there', async () => {
    // Two words faded to a third of their depth, as print under a stain; the output shows them as printed.
    const faded = copyImage(page);
    for (const word of ['warehouse', 'prepared']) fadeBox(faded, findWord(pageOcr, word), 0.35);
    const changes = await inkChanges(faded, page, { dpi: 150 });
    expect(changes.darkened.length).toBeGreaterThan(0);
    for (const box of changes.darkened)
      expect(['warehouse', 'prepared'].some((w) => overlaps(box, findWord(pageOcr, w)))).toBe(true);
    const result = await guardPage(faded, page, { inputRead: 'changed', dpi: 150 });
    expect(result.reread?.triggers.inkDarkened).toBeGreaterThan(0);
    expect(result.reread?.full).toBe(true);
    // The other way round, the output's ink is fainter than the input's: nothing darkened, read in part.
    const paled = await guardPage(page, faded, { inputRead: 'changed', dpi: 150 });
    expect(paled.reread?.triggers.inkDarkened).toBe(0);
  }, 30_000);

  it('rejects a page where a word was painted out, and names it', async () => {
    const damaged = copyImage(page);
    fillBox(damaged, findWord(pageOcr, 'warehouse'), 255);
    const result = await guardPage(page, damaged, { inputRead: 'changed', dpi: 150 });
    expect(result.accept).toBe(false);
    expect(result.lostWords).toContain('warehouse');
    expect(result.reread?.full).toBe(false);
  }, 30_000);

  it("takes the changed places from the input's whole reading when one is given, reading only the output", async () => {
    const damaged = copyImage(page);
    fillBox(damaged, findWord(pageOcr, 'warehouse'), 255);
    let reads = 0;
    const counted: Recognizer = (img, opts) => {
      reads += 1;
      return recognizeWords(img, opts);
    };
    const result = await guardPage(page, damaged, {
      inputRead: 'changed',
      dpi: 150,
      recognize: counted,
      wholeInputOcr: pageOcr,
    });
    expect(reads).toBe(1);
    expect(result.reread?.full).toBe(false);
    expect(result.accept).toBe(false);
    expect(result.lostWords).toContain('warehouse');
  }, 30_000);

  it('rejects a page where a word was rewritten', async () => {
    const damaged = copyImage(page);
    pasteBox(damaged, findWord(pageOcr, 'separately'), findWord(pageOcr, 'prepared'));
    const result = await guardPage(page, damaged, { inputRead: 'changed', dpi: 150 });
    expect(result.accept).toBe(false);
    expect(result.changedWords.map((c) => c.input)).toContain('prepared');
  }, 30_000);

  it('rejects a changed number even when the share of words is small', async () => {
    const damaged = copyImage(page);
    const year = findWord(pageOcr, '2011;');
    fillBox(damaged, { ...year, x0: Math.round(year.x0 + ((year.x1 - year.x0) * 3) / 5) }, 255);
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
    const w = findWord(pageOcr, 'balance');
    fillBox(upscaled, { x0: w.x0 * 2, x1: w.x1 * 2, y0: w.y0 * 2, y1: w.y1 * 2 }, 255);
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
