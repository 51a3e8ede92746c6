// A page's guard reads its input once for all the candidates it checks, and reads everything else as asked; a page
// shown as it came takes its text layer from that reading; a line read as two pieces side by side puts the reading
// order in doubt.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RawImage } from '../../src/image.js';
import { decodePage } from '../../src/io/decode.js';
import { OcrTimeoutError, type OcrResult, type Recognizer } from '../../src/ocr/index.js';
import { RESTORATION_UNREAD, restorePageInThread } from '../../src/pipeline/page.js';
import {
  columnChanges,
  columnsInPieces,
  columnsJoined,
  linesMended,
  movesOnCutLines,
  orderDisowned,
  readingInputOnce,
  splitLines,
  threadServices,
} from '../../src/pipeline/thread-services.js';
import { pageReadsBetter } from '../../src/guard/never-worse.js';
import { readingOrder, readsOutOfOrder } from '../../src/guard/quality.js';
import type { OcrWord } from '../../src/io/encode.js';
import { reading } from '../helpers.js';
import { createDefaultRegistry } from '../../src/steps/index.js';
import { docOf, textPage } from '../pages.js';
import { pixelSum, wrappedTesseract } from '../ocr/helpers.js';

const image = (): RawImage => ({ width: 2, height: 2, channels: 1, data: new Uint8Array(4) });
const result = (text: string): OcrResult => ({ text, words: [], lines: [] });

/** A recognizer that counts its reads and fails the first `failures` of them. */
function counting(failures = 0): { recognize: Recognizer; reads: () => number } {
  let reads = 0;
  return {
    recognize: (_img, opts) => {
      reads += 1;
      if (reads <= failures) return Promise.reject(new Error('time limit'));
      return Promise.resolve(result(`read ${reads} at ${opts?.dpi ?? '?'}`));
    },
    reads: () => reads,
  };
}

describe('readingInputOnce', () => {
  it('reads the input once per set of options and every other image each time', async () => {
    const input = image();
    const other = image();
    const { recognize, reads } = counting();
    const guarded = readingInputOnce(recognize, input);
    const first = await guarded(input, { dpi: 150 });
    expect(await guarded(input, { dpi: 150 })).toBe(first);
    expect(reads()).toBe(1);
    expect((await guarded(input, { dpi: 300 })).text).toBe('read 2 at 300');
    await guarded(other, { dpi: 150 });
    await guarded(other, { dpi: 150 });
    expect(reads()).toBe(4);
  });

  it('tries a failed read of the input again', async () => {
    const input = image();
    const { recognize, reads } = counting(1);
    const guarded = readingInputOnce(recognize, input);
    await expect(guarded(input, { dpi: 150 })).rejects.toThrow('time limit');
    expect((await guarded(input, { dpi: 150 })).text).toBe('read 2 at 150');
    expect(reads()).toBe(2);
  });

  it('does not read the input again once the OCR ran past its time limit on it', async () => {
    const input = image();
    let reads = 0;
    const outOfTime: Recognizer = () => {
      reads += 1;
      return Promise.reject(new OcrTimeoutError(60_000));
    };
    const guarded = readingInputOnce(outOfTime, input);
    await expect(guarded(input, { dpi: 150 })).rejects.toThrow(OcrTimeoutError);
    await expect(guarded(input, { dpi: 150 })).rejects.toThrow(OcrTimeoutError);
    expect(reads).toBe(1);
  });
});

describe('splitLines', () => {
  const line = (x0: number, x1: number, y0 = 100, y1 = 130) => ({ x0, y0, x1, y1 });

  it('finds one line read as two pieces side by side, not columns or lines above each other', () => {
    // A paragraph's line cut by a white scratch: a word space between the two pieces.
    expect(splitLines([line(100, 480), line(492, 900)])).toBe(true);
    // Two columns: a gutter wider than a line height.
    expect(splitLines([line(100, 480), line(540, 900)])).toBe(false);
    // Lines above each other, or overlapping by less than half their height.
    expect(splitLines([line(100, 900), line(100, 900, 140, 170)])).toBe(false);
    expect(splitLines([line(100, 480), line(492, 900, 118, 148)])).toBe(false);
  });
});

describe('movesOnCutLines', () => {
  /** A line of `n` words from x0 to x1. */
  const line = (x0: number, x1: number, y0: number, n: number) => ({
    text: '',
    confidence: 95,
    x0,
    y0,
    x1,
    y1: y0 + 25,
    words: Array.from({ length: n }, (_, i) => ({
      text: 'word',
      confidence: 95,
      x0: x0 + i,
      y0,
      x1: x0 + i + 1,
      y1: y0 + 25,
    })),
  });
  // Twenty lines of ten words; two of them read by the input as two halves of five words side by side.
  const whole = Array.from({ length: 20 }, (_, i) => line(100, 900, 100 + 30 * i, 10));
  const cut = whole.flatMap((l, i) =>
    i === 4 || i === 11 ? [line(100, 480, l.y0, 5), line(492, 900, l.y0, 5)] : [l],
  );
  const moved = (n: number, gained = 0) => ({ kept: 1 - n / 200, moved: n, gained });

  it('excuses the moves of the words on the few lines the input cut and the output reads whole, and of words read anew', () => {
    expect(movesOnCutLines(cut, whole, moved(12))).toBe(true);
    expect(movesOnCutLines(cut, whole, moved(20))).toBe(true);
    expect(movesOnCutLines(cut, whole, moved(30, 10))).toBe(true);
  });

  it('does not excuse more moves than stand on those lines, or an output that cuts as many', () => {
    // Fresh seed 947394 pdf_003 page 4: the input cut 2 lines; the network's page read two columns across, 88 moved.
    expect(movesOnCutLines(cut, whole, moved(88, 14))).toBe(false);
    expect(movesOnCutLines(cut, whole, moved(21))).toBe(false);
    expect(movesOnCutLines(cut, whole, moved(31, 10))).toBe(false);
    expect(movesOnCutLines(cut, cut, moved(12))).toBe(false);
    expect(movesOnCutLines(whole, whole, moved(5))).toBe(false);
  });
});

/** `n` lines 30 px apart down the page, from x0 to x1. */
const linesDown = (n: number, x0: number, x1: number) =>
  Array.from({ length: n }, (_, i) => ({ x0, y0: 100 + 30 * i, x1, y1: 125 + 30 * i }));
/** Each line read as two pieces: up to `end` and from `start`. */
const cutAt = (lines: ReturnType<typeof linesDown>, end: number, start: number) =>
  lines.flatMap((l) => [
    { ...l, x1: end },
    { ...l, x0: start },
  ]);

describe('linesMended', () => {
  // Lines 30 px apart down one column (100-900), or each cut in two by a fold at 480-492.
  const whole = (n: number) => linesDown(n, 100, 900);
  const cut = (n: number) => cutAt(whole(n), 480, 492);

  it("finds an output reading whole the lines the input's reading cut in two, or most of them", () => {
    expect(linesMended([...cut(3), ...whole(20)], whole(23))).toBe(true);
    // Dev3 seed 9903 doc_002 as the guard read it: two folds down a letter, 30 lines cut; the classical page cuts 11.
    expect(linesMended(cut(30), [...cut(11), ...whole(19)])).toBe(true);
    expect(linesMended(cut(20), [...cut(1), ...whole(19)])).toBe(true);
    expect(linesMended([...cut(3), ...whole(20)], [...cut(1), ...whole(22)])).toBe(true);
  });

  it('does not where the output cuts more than half as many lines, or the input cut fewer than three', () => {
    expect(linesMended(cut(30), [...cut(17), ...whole(13)])).toBe(false);
    expect(linesMended([...cut(3), ...whole(20)], [...cut(2), ...whole(21)])).toBe(false);
    expect(linesMended([...cut(2), ...whole(20)], whole(22))).toBe(false);
    expect(linesMended(whole(20), whole(20))).toBe(false);
  });

  it('makes an output with mended lines read clearly better, unless it reads worse by words', () => {
    const verdict = (output: ReturnType<typeof reading>, mended: boolean) => ({
      accept: true,
      badLines: [],
      badWords: [],
      checkedLines: 20,
      frame: 'output' as const,
      lostWords: [],
      input: { data: new Uint8Array(1), width: 1, height: 1, channels: 1 as const },
      reading: { input: reading(581, 92), output, mended },
    });
    expect(pageReadsBetter(verdict(reading(583, 92), false))).toBe(false);
    expect(pageReadsBetter(verdict(reading(583, 92), true))).toBe(true);
    expect(pageReadsBetter(verdict(reading(560, 92), true))).toBe(false);
  });
});

describe('columnsJoined', () => {
  const gutter = { x0: 610, x1: 660 };
  // Lines 30 px apart down the page: across both columns (100-1170), or one column each.
  const across = (n: number) => linesDown(n, 100, 1170);
  const apart = (n: number) => cutAt(across(n), 600, 670);

  it("finds an input read across a gutter line by line where the output's reading keeps the columns apart", () => {
    expect(columnsJoined(across(30), apart(30), [gutter])).toBe(true);
    // A heading across the columns and a few joined lines do not make the output's reading join them.
    expect(columnsJoined(across(30), [...across(3), ...apart(27)], [gutter])).toBe(true);
  });

  it('does not where the output reads across as well, where too few lines cross, or where the page has no gutter', () => {
    expect(columnsJoined(across(30), across(30), [gutter])).toBe(false);
    expect(columnsJoined([...across(4), ...apart(26)], apart(30), [gutter])).toBe(false);
    expect(columnsJoined(across(30), apart(30), [])).toBe(false);
    // Lines that end before the gutter or start after it do not cross it.
    expect(columnsJoined(apart(30), apart(30), [gutter])).toBe(false);
  });
});

describe('columnsInPieces', () => {
  const gutter = { x0: 610, x1: 660 };
  // Read lines of one column, `n` of them 30 px apart from `top` down: left (100-600) or right (670-1170).
  const column = (side: 'left' | 'right', n: number, top: number, confidence = 90) =>
    Array.from({ length: n }, (_, i) => ({
      text: 'a line',
      confidence,
      x0: side === 'left' ? 100 : 670,
      x1: side === 'left' ? 600 : 1170,
      y0: top + 30 * i,
      y1: top + 30 * i + 25,
      words: [],
    }));
  const heading = { ...column('left', 1, 40)[0]!, x0: 300, x1: 900 };
  // Each column read through, or cut in two by a crease at y = 700: both tops, then both bottoms.
  const through = [heading, ...column('left', 40, 100), ...column('right', 40, 100)];
  const inPieces = [
    heading,
    ...column('left', 20, 100),
    ...column('right', 20, 100),
    ...column('left', 20, 720),
    ...column('right', 20, 720),
  ];

  it('counts the passes from column to column, leaving out headings across the gutter and lines read unsure', () => {
    expect(columnChanges(through, [gutter])).toBe(1);
    expect(columnChanges(inPieces, [gutter])).toBe(3);
    expect(columnChanges([...through, ...column('left', 1, 1400, 30)], [gutter])).toBe(1);
  });

  it("finds an input that reads the columns in pieces where the output's reading takes each column through", () => {
    expect(columnsInPieces(inPieces, through, [gutter])).toBe(true);
  });

  it('does not where both read alike, where the output reads in pieces, where lines run across, or without a gutter', () => {
    expect(columnsInPieces(through, through, [gutter])).toBe(false);
    expect(columnsInPieces(through, inPieces, [gutter])).toBe(false);
    expect(columnsInPieces(inPieces, through, [])).toBe(false);
    // A table read row by row runs its lines across its gutters: its order is judged as it is.
    const rows = Array.from({ length: 20 }, (_, i) => ({ ...heading, x0: 100, x1: 1170, y0: 100 + 30 * i }));
    expect(columnsInPieces([...rows, ...inPieces], through, [gutter])).toBe(false);
  });
});

describe('orderDisowned', () => {
  const words = (texts: string[]): OcrWord[] =>
    texts.map((text, i) => ({ text, confidence: 95, x0: i, y0: 0, x1: i + 1, y1: 1 }));
  const left = Array.from({ length: 30 }, (_, i) => `left${i}`);
  const right = Array.from({ length: 30 }, (_, i) => `right${i}`);
  // The page's text, and the input's reading of it scrambled: its columns read across, five words at a time.
  const page = words([...left, ...right]);
  const scrambled = words(
    Array.from({ length: 6 }, (_, line) => [
      ...left.slice(line * 5, line * 5 + 5),
      ...right.slice(line * 5, line * 5 + 5),
    ]).flat(),
  );
  // Each candidate read clearly better than the input (more words), unless `same`.
  const candidate = (read: OcrWord[], lines = linesDown(20, 100, 900), same = false) => ({
    words: read,
    lines,
    reading: {
      input: reading(300, 80, 40),
      output: same ? reading(300, 80, 40) : reading(340, 90, 10),
      order: readingOrder(scrambled, read),
    },
  });

  it("disowns the input's order where two candidates read out of it in one order of their own", () => {
    const net = candidate(page);
    const classical = candidate(words([...left.slice(0, 29), 'garbage', ...right]));
    expect(readsOutOfOrder(net.reading.order)).toBeDefined();
    expect(orderDisowned([net, classical])).toEqual([net, classical]);
    // A third candidate in the input's order keeps its order.
    const third = candidate(scrambled);
    expect(orderDisowned([net, third, classical])).toEqual([net, classical]);
    // One of the two reading clearly better than the input is enough.
    const noBetter = candidate(page, undefined, true);
    expect(orderDisowned([net, noBetter])).toEqual([net, noBetter]);
  });

  it('does not for one candidate alone, for candidates that disagree or read no better, or for lines cut in two', () => {
    expect(orderDisowned([candidate(page)])).toEqual([]);
    // A step that moves blocks of text moves them alike in every restoration, and reads no better for it.
    expect(orderDisowned([candidate(page, undefined, true), candidate(page, undefined, true)])).toEqual([]);
    const other = candidate(words([...right, ...left]));
    expect(readsOutOfOrder(other.reading.order)).toBeDefined();
    expect(orderDisowned([candidate(page), other])).toEqual([]);
    // A cleaned fold cutting the lines in two: that candidate's reading is no witness.
    const cut = candidate(page, cutAt(linesDown(20, 100, 900), 480, 492));
    expect(orderDisowned([candidate(page), cut])).toEqual([]);
  });
});

/**
 * A Tesseract program for `threadServices`: a script that notes the checksum (md5) of every image it is given and
 * hands it to the real one, except where it stalls: on the image whose checksum is `never`, or on every image but
 * the one whose checksum is `only`, it sleeps past any time limit.
 */
function loggingTesseract(
  dir: string,
  name: string,
  stalls?: { never: string } | { only: string },
): { tesseract: string; reads: () => string[] } {
  const log = path.join(dir, `reads-${name}.log`);
  const stalled = !stalls ? '' : 'never' in stalls ? `"$sum" = ${stalls.never}` : `"$sum" != ${stalls.only}`;
  const sleep = stalled ? `if [ ${stalled} ]; then rm -f "$f"; exec sleep 60; fi\n` : '';
  const tesseract = wrappedTesseract(dir, name, (real) => `echo $sum >> ${log}\n${sleep}${real} "$f" "$@"`);
  return { tesseract, reads: () => readFileSync(log, 'utf8').trim().split('\n') };
}

/** A text page of 12 lines as a document, and the checksum (md5) of its pixels as the Tesseract script gets them. */
async function twelveLinePage(): Promise<{ doc: Awaited<ReturnType<typeof docOf>>; inputSum: string }> {
  const doc = await docOf(await textPage({ lines: 12 }));
  const { image } = await decodePage(doc, 0);
  return { doc, inputSum: pixelSum(image) };
}

describe('a page shown as it came', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'folio-reads-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(['changed', 'full'] as const)(
    'takes its text layer from the reading the guard made of its input, not from a second one (guard reads %s)',
    async (guardRead) => {
      // Tesseract behind a script that notes a checksum of every image it is given.
      const { tesseract, reads: readSums } = loggingTesseract(dir, guardRead);
      const { doc, inputSum } = await twelveLinePage();
      // Every restoration whitens the page: each reads worse than the input, which the page then shows.
      const registry = createDefaultRegistry().register({
        name: 'flatten-background',
        kind: 'document',
        description: 'paints the page white (test)',
        run: (img: RawImage) => ({ ...img, data: new Uint8Array(img.data.length).fill(255) }),
      });
      const services = threadServices({ ocr: 'native', tesseract, guardRead });
      const restored = await restorePageInThread(doc, 0, { ocr: true, pageNet: false }, registry, services);
      expect(restored.steps).toEqual([]);
      expect(restored.words.map((w) => w.text)).toContain('treasurer');
      const reads = readSums();
      // The whitened candidates were read, and the input once: by the guard, whose reading the text layer reuses.
      expect(reads.length).toBeGreaterThan(1);
      expect(reads.filter((sum) => sum === inputSum)).toHaveLength(1);
    },
    120_000,
  );
});

/**
 * The default steps, with flatten-background moving the page 3 px to the right: every line's ink changes, so the
 * guard reads the input whole.
 */
const movingRegistry = () =>
  createDefaultRegistry().register({
    name: 'flatten-background',
    kind: 'document',
    description: 'moves the page 3 px to the right (test)',
    run: (img: RawImage) => {
      const out = new Uint8Array(img.data.length).fill(255);
      for (let y = 0; y < img.height; y++)
        out.set(img.data.subarray(y * img.width, (y + 1) * img.width - 3), y * img.width + 3);
      return { ...img, data: out };
    },
  });

describe('a page whose input the OCR cannot read within its time limit', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'folio-unread-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(['changed', 'full'] as const)(
    'is restored and judged on its output, its input read once (guard reads %s)',
    async (guardRead) => {
      const { doc, inputSum } = await twelveLinePage();
      // Tesseract behind a script that notes every image it is given and never finishes reading the input (as on a
      // page of thousands of specks), so the engine stops it at its time limit.
      const { tesseract, reads: readSums } = loggingTesseract(dir, guardRead, { never: inputSum });
      const registry = movingRegistry();
      const services = threadServices({ ocr: 'native', tesseract, guardRead, ocrTimeoutMs: 8_000 });
      const restored = await restorePageInThread(doc, 0, { ocr: true, pageNet: false }, registry, services);
      expect(restored.steps).toContain('flatten-background');
      expect(restored.fallback).toBeUndefined();
      expect(restored.words.map((w) => w.text)).toContain('treasurer');
      const reads = readSums();
      expect(reads.filter((sum) => sum === inputSum)).toHaveLength(1);
    },
    120_000,
  );
});

describe('a page whose restorations the OCR cannot read within its time limit', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'folio-unread-output-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(['changed', 'full'] as const)(
    'shows its input with the reason, not a failed page, and takes its text layer from the input (guard reads %s)',
    async (guardRead) => {
      const { doc, inputSum } = await twelveLinePage();
      // Tesseract behind a script that reads the input and never finishes reading anything else.
      const { tesseract, reads: readSums } = loggingTesseract(dir, `output-${guardRead}`, { only: inputSum });
      const registry = movingRegistry();
      // A limit the input's own reading keeps well within while other test files share the two cores: at 5 s, in one
      // full engine run, the page came back without the input's words.
      const services = threadServices({ ocr: 'native', tesseract, guardRead, ocrTimeoutMs: 10_000 });
      const restored = await restorePageInThread(doc, 0, { ocr: true, pageNet: false }, registry, services);
      expect(restored.fallback?.reason).toBe(RESTORATION_UNREAD);
      expect(restored.steps).toEqual([]);
      expect(restored.asInput).toBe(true);
      expect(restored.words.map((w) => w.text)).toContain('treasurer');
      // The restoration and its conservative fallback were both tried.
      expect(readSums().filter((sum) => sum !== inputSum).length).toBeGreaterThanOrEqual(2);
    },
    120_000,
  );
});
