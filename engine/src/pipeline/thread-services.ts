// The services of this thread: OCR for the PDF text layer and the word guard (engine/src/ocr), on by default; which
// back-end reads and how the guard reads come from the engine's settings (src/settings.ts).
import {
  detectOrientationNative,
  nativeOcrAvailable,
  nativeOrientationAvailable,
  ocrBackend,
  OcrTimeoutError,
  type OcrLine,
  type OcrResult,
  type Recognizer,
} from '../ocr/index.js';
import {
  DEFAULT_GUARD_OPTIONS,
  guardPage,
  readWithinTimeLimit,
  NOTHING_READ,
  READ_CONFIDENCE,
  readingOrder,
  readsOutOfOrder,
  readingQuality,
  readLessSure,
  cutFarMore,
  clearWordsGained,
  readsBetter,
  pageReadingWorse,
  turned,
  type GuardResult,
  type Box,
  type ReadingOrder,
  type ReadingQuality,
  scaled,
} from '../guard/index.js';
import type { RawImage } from '../image.js';
import { toGrey } from '../pixels/index.js';
import { findGutters, type Gutter } from '../pixels/gutters.js';
import type { GuardVerdict, PageServices } from './services.js';
import type { OcrWord } from '../io/encode.js';
import { DEFAULT_OCR_TIMEOUT_MS, engineSettings, type EngineSettings } from '../settings.js';

/** The words whose centre lies in none of the boxes. */
function outside<W extends Box>(words: readonly W[], boxes: readonly Box[]): W[] {
  return words.filter((w) => {
    const cx = (w.x0 + w.x1) / 2;
    const cy = (w.y0 + w.y1) / 2;
    return !boxes.some((b) => cx >= b.x0 && cx <= b.x1 && cy >= b.y0 && cy <= b.y1);
  });
}

/**
 * Whether the OCR read one text line as two lines side by side: two lines at the same height with less than a line
 * height between them. Columns are set further apart; a white scratch or a cleaned fold through a paragraph can cut
 * its lines so, and the page then reads its halves one after the other (seed 55502 doc_025).
 */
export function splitLines(lines: readonly Box[]): boolean {
  return splitLineCount(lines) > 0;
}

/** Whether the OCR read `a` and `b` as the left and right halves of one line cut in two (see splitLines). */
function halvesOfALine(a: Box, b: Box): boolean {
  const height = Math.min(a.y1 - a.y0, b.y1 - b.y0);
  const overlap = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
  const gap = b.x0 - a.x1;
  return overlap > height / 2 && gap > 0 && gap < height;
}

/** How many lines the OCR read as the left half of a line cut in two (see splitLines). */
export function splitLineCount(lines: readonly Box[]): number {
  return lines.filter((a) => lines.some((b) => halvesOfALine(a, b))).length;
}

/**
 * Whether an output that reads whole some of the lines the input's reading cut in two (a line or two: more are
 * cutFarMore's) moves no more words than stand on the input's cut lines and than it reads anew: reading those lines
 * whole moves their words, a word read anew moves its neighbours (readsOutOfOrder), and neither proves anything of
 * the rest of the page's order. Public doc_021 (salt and pepper: a speck read as "/-" cut one line of 13 words): the
 * network's page moved 18 words and read 12 anew, CER 0.290 → 0.031.
 */
export function movesOnCutLines(
  inputLines: readonly OcrLine[],
  outputLines: readonly Box[],
  order: ReadingOrder,
): boolean {
  if (splitLineCount(outputLines) >= splitLineCount(inputLines)) return false;
  const onCutLines = inputLines
    .filter((a) => inputLines.some((b) => halvesOfALine(a, b) || halvesOfALine(b, a)))
    .reduce((n, l) => n + l.words.length, 0);
  return order.moved <= onCutLines + order.gained;
}

/**
 * Whether the output's reading mends the input's cut lines: the input's whole reading cuts at least three lines in
 * two side by side (a fold or a rule through a column: its halves are read one after the other) and the output's
 * cuts none, or at most half as many (cutFarMore). Dev-profile seed 582791 doc_008, a crease down the right column:
 * the input's reading cut 20 lines there, CER 0.290; the classical plan's page, fold repaired, read them whole (0.062)
 * with as many words as the input, so it read no better by words and was not shown. Dev3 seed 9903 doc_002, two
 * folds down a letter: the input's reading cut 30 lines (0.686), the classical plan's page 11 (0.164).
 */
export function linesMended(inputLines: readonly Box[], outputLines: readonly Box[]): boolean {
  return cutFarMore(splitLineCount(inputLines), splitLineCount(outputLines));
}

/** An input's reading joins columns where this many of its lines, and this share of them, run across a gutter. */
const MIN_JOINED_LINES = 5;
const MIN_JOINED_SHARE = 0.2;

/** How many of the lines run across a gutter, from its left side to its right. */
function linesAcross(lines: readonly Box[], gutters: readonly Gutter[]): number {
  return lines.filter((l) => gutters.some((g) => l.x0 < g.x0 && l.x1 > g.x1)).length;
}

/**
 * Whether the input's reading joins, line by line, the columns the output's reads apart: many of its lines run across
 * a gutter of the output page (a white river through all its lines, `findGutters`), and the output's lines half as
 * many or fewer. Specks in a damaged page's gutter lead the OCR to read two columns across as one (fresh seed 364185
 * pdf_001 page 2, CER 0.703; the network's page reads them apart, 0.084). A paragraph read as two half-width columns
 * (seed 55502 doc_025) has no gutter in its ink.
 */
export function columnsJoined(
  inputLines: readonly Box[],
  outputLines: readonly Box[],
  gutters: readonly Gutter[],
): boolean {
  const joined = linesAcross(inputLines, gutters);
  return (
    joined >= MIN_JOINED_LINES &&
    joined >= MIN_JOINED_SHARE * inputLines.length &&
    linesAcross(outputLines, gutters) * 2 <= joined
  );
}

/**
 * How many times a reading passes from one column of the page to another: its lines in reading order, each in the
 * column it lies in. Lines across or in a gutter (a heading over the columns) and lines read unsure (specks read as
 * marks) do not count.
 */
export function columnChanges(lines: readonly OcrLine[], gutters: readonly Gutter[]): number {
  let changes = 0;
  let last = -1;
  for (const l of lines) {
    if (l.confidence < READ_CONFIDENCE || gutters.some((g) => l.x0 < g.x1 && l.x1 > g.x0)) continue;
    const column = gutters.filter((g) => g.x1 <= l.x0).length;
    if (last >= 0 && column !== last) changes++;
    last = column;
  }
  return changes;
}

/** An input's reading takes its columns in pieces where it passes between them this many times more than the output's. */
const MIN_EXTRA_COLUMN_CHANGES = 2;

/**
 * Whether the input's reading takes the page's columns in pieces that the output's reads whole: neither reading runs
 * its lines across a gutter of the output page as a joined reading does (`columnsJoined`), and the input's passes
 * from column to column at least twice more (the top of each column, then the bottom of each). A crease across the
 * page reads as a rule that cuts every column in two (seed 9502 doc_010, two columns creased across: the input's
 * reading CER 0.230; the classical plan's page, crease repaired, reads each column through, 0.006, and moved 38 words
 * against the input's order). A table read row by row runs its lines across its gutters: never so.
 */
export function columnsInPieces(
  inputLines: readonly OcrLine[],
  outputLines: readonly OcrLine[],
  gutters: readonly Gutter[],
): boolean {
  if (gutters.length === 0) return false;
  if (
    linesAcross(inputLines, gutters) >= MIN_JOINED_LINES ||
    linesAcross(outputLines, gutters) >= MIN_JOINED_LINES
  )
    return false;
  return columnChanges(inputLines, gutters) >= columnChanges(outputLines, gutters) + MIN_EXTRA_COLUMN_CHANGES;
}

/**
 * The candidates whose reading order no longer counts against the input's: each reads out of order against the input
 * and another of the page's restorations reads in its order (neither cutting lines in two side by side). Two
 * restorations agreeing against the input say that the input's own reading is the scrambled one: specks, borders and
 * a light skew lead the OCR's layout analysis astray on the damaged page (fresh seed 455558 pdf_001 page 4, an office
 * scan: input CER 0.529; the network's page, 40 words moved against the input's reading, 0.031; the classical page,
 * 24 moved, 0.054; the conservative steps', 39 moved, 0.148; the page was shown as it came). One of the two must read
 * clearly better than the input, as a page whose damage scrambled its reading does once restored: the restorations
 * share steps, and a step that moves blocks of text moves them alike in both. A cleaned fold that cuts a paragraph's
 * lines in two (seed 55502 doc_025) is found by `splitLines` and stays judged by the input's order.
 */
export function orderDisowned<
  C extends {
    words: readonly OcrWord[];
    lines: readonly Box[];
    reading: { input: ReadingQuality; output: ReadingQuality; order?: ReadingOrder };
  },
>(candidates: readonly C[]): C[] {
  const outOfOrder = candidates.filter(
    (c) => c.reading.order && readsOutOfOrder(c.reading.order) && !splitLines(c.lines),
  );
  const better = (c: C) => readsBetter(c.reading.output, c.reading.input);
  return outOfOrder.filter((c) =>
    outOfOrder.some(
      (o) => o !== c && (better(c) || better(o)) && !readsOutOfOrder(readingOrder(o.words, c.words)),
    ),
  );
}

/**
 * The input's words the output reads only less surely (readLessSure), on an output turned against its input (deskewed):
 * the OCR's confidence moves with the page's layout, and a straightened page lays its words out anew. On a page not
 * turned a word read less surely at its place is a word whose ink got worse (fresh seed 462966 doc_017, two columns at
 * low resolution: the classical page reads 28 of the input's words only unsure, and counted as kept they let it be
 * shown, CER 0.039 -> 0.076).
 */
function lessSureWhereTurned(angle: number, input: readonly OcrWord[], output: readonly OcrWord[]): number {
  return angle === 0 ? 0 : readLessSure(input, output);
}

/**
 * `recognize`, reading `input` once per set of options: a page's guard checks several candidates (the network's
 * page, the classical plan's, the fallbacks) against the same input, and each may need all of it read.
 */
export function readingInputOnce(recognize: Recognizer, input: RawImage): Recognizer {
  const reads = new Map<string, Promise<OcrResult>>();
  return (img, opts) => {
    if (img !== input) return recognize(img, opts);
    const key = JSON.stringify(opts ?? {});
    let read = reads.get(key);
    if (!read) {
      read = recognize(img, opts);
      reads.set(key, read);
      // A read that failed otherwise is tried again by the next check; one past the OCR's time limit is not (it would
      // only run out of time again).
      read.catch((error: unknown) => {
        if (!(error instanceof OcrTimeoutError)) reads.delete(key);
      });
    }
    return read;
  };
}

/** The OCR and word guard of the engine's settings ('off': none, the classical pipeline alone). */
export function threadServices(
  settings: Pick<EngineSettings, 'ocr' | 'tesseract' | 'guardRead'> &
    Partial<Pick<EngineSettings, 'ocrTimeoutMs'>> = engineSettings(),
  /** Sees every guard result (benchmarks). */
  onGuard?: (result: GuardResult) => void,
): PageServices {
  const { ocr: setting, tesseract: binary, guardRead } = settings;
  if (setting === 'off') return {};
  const timeoutMs = settings.ocrTimeoutMs ?? DEFAULT_OCR_TIMEOUT_MS;
  const recognize = ocrBackend(setting, binary, timeoutMs);
  // The native back-end's "fast" model is surer of its words than tesseract.js, for which the guard's defaults
  // were calibrated: at 90 the guard checked 93 "clearly read" words of doc_002's eroded input (tesseract.js:
  // 57), patched 8 and the page scored CER 0.441 (0.379 before); at 95 it checks 39 and scores 0.377. Public
  // set at 95: CER 0.085, 21/33 improved, 1 worse (doc_023, 0.016 → 0.023); at 90: 0.086, 20, 1 (doc_002).
  const minConfidence = async (): Promise<number> =>
    setting === 'native' || (setting === 'auto' && (await nativeOcrAvailable(binary)))
      ? 95
      : DEFAULT_GUARD_OPTIONS.minConfidence;
  // Tesseract's orientation detection where the native program has its model; none with the other back-ends.
  const detectsOrientation = async (): Promise<boolean> =>
    (setting === 'native' || setting === 'auto') && (await nativeOrientationAvailable(binary));
  return {
    recognizeWords: async (img, dpi) => ({ words: (await recognize(img, { dpi })).words }),
    detectOrientation: async (img, dpi) =>
      (await detectsOrientation()) ? detectOrientationNative(img, { binary, dpi, timeoutMs }) : undefined,
    startGuard: (input, dpi) => {
      // 'full': the input is read while the steps run. 'changed': the output is read first, then the input only
      // where the ink changed (usually a small part of the page).
      const wholeInput: Promise<OcrResult> | undefined =
        guardRead === 'full'
          ? readWithinTimeLimit(recognize(input, { dpi })).then((read) => read.ocr)
          : undefined;
      // Awaited by check(); this only keeps a page that fails before its check from an unhandled rejection.
      wholeInput?.catch(() => undefined);
      const recognizeForGuard = readingInputOnce(recognize, input);
      // The input's whole reading, as the checks read it (psm and resolution as theirs): one OCR pass per page.
      const readWhole = () => recognizeForGuard(input, { psm: DEFAULT_GUARD_OPTIONS.psm, dpi });
      // The outputs checked so far, with their readings, and the input's whole reading once one exists. Each
      // output's reading order is compared with the input's where the input was read whole; where it was read only
      // in part, a doubt about the order (orderInDoubt) asks for a whole reading (one OCR pass more, on the pages
      // where it matters: columns read across as one), and every output is then compared with it. So does a merged
      // reading on which an output reads worse: no candidate is rejected on a reading the whole page does not make
      // (dev seed 9201 doc_017, a table under uneven light: 107 words on the merged reading against 102 on the
      // classical page, 71 read whole; the page was shown as it came, CER 0.291, where the network's page reads 0.067).
      const checked: {
        words: OcrWord[];
        lines: readonly OcrLine[];
        reading: NonNullable<GuardVerdict['reading']>;
        /** The output's skew against the input and the lines the word guard rejected: what its reading leaves out. */
        angle: number;
        rejected: readonly Box[];
        /** The output page's gutters, at the input's size. */
        gutters: () => readonly Gutter[];
      }[] = [];
      let whole: Pick<OcrResult, 'words' | 'lines'> | undefined;
      // Once the input was read whole, every check of the page measures the input's reading on that one reading.
      // A reading merged from re-read places differs from check to check (each re-reads its own places) and from
      // the whole page both ways: the output's words stand in outside those places, and a masked crop of the input
      // reads fewer words than the page would. Candidates are only comparable on one reading of the input (dev seed
      // 6202 doc_029, uneven light: the network's page was measured against 334 input words read, the classical
      // plan's against 273 read whole, and neither was shown; CER 0.209 where the classical page reads 0.047).
      const inputWords = (angle: number, rejected: readonly Box[]) =>
        whole &&
        outside(
          whole.words.map((w) => turned(w, angle, input.width, input.height)),
          rejected,
        );
      // An output's order against the input's whole reading. Where the input's reading cuts its lines in two side by
      // side far more than the output's (cutFarMore: at least MIN_CUT_LINES against none, or twice as many), the
      // input's order is no reference (public pdf_001 page 1: a skewed scan read as 7 half-lines, one half-column after
      // the other; its deskewed page reads straight through). A line or two cut is no reading in pieces: it excuses only
      // the moves of its own words and of words read anew (movesOnCutLines; fresh seed 947394 pdf_003 page 4, two
      // columns under water blotches: the input's reading cut 2 lines where stain rims crossed them, and the network's
      // page, which read the columns across as one, 88 words moved, was shown: CER 0.163 → 0.739).
      // Nor is it where its reading joins across the columns the output's reads apart, or takes them in pieces that the
      // output's reads through.
      // The gutters are looked for only where the order moved.
      const orderOf = (words: OcrWord[], lines: readonly OcrLine[], gutters: () => readonly Gutter[]) => {
        if (!whole) return undefined;
        const [inputCut, outputCut] = [splitLineCount(whole.lines), splitLineCount(lines)];
        if (cutFarMore(inputCut, outputCut)) return undefined;
        const order = readingOrder(whole.words, words);
        if (!readsOutOfOrder(order)) return order;
        if (movesOnCutLines(whole.lines, lines, order)) return undefined;
        // The output page's gutters are found once (a pass over its ink) for both tests.
        const found = gutters();
        const disowned =
          columnsJoined(whole.lines, lines, found) || columnsInPieces(whole.lines, lines, found);
        return disowned ? undefined : order;
      };
      // Whether a partly re-read output may read in another order than the input: the input's words re-read inside
      // the changed places come in another order than the output's there, or an output checked before reads in
      // another order than this one.
      const orderInDoubt = (verdict: GuardResult, words: OcrWord[]): boolean => {
        const boxes = verdict.reread?.boxes ?? [];
        const within = (ws: readonly OcrWord[]) => {
          const elsewhere = new Set(outside(ws, boxes));
          return ws.filter((w) => !elsewhere.has(w));
        };
        const there = readingOrder(within(verdict.inputOcr.words), within(verdict.outputOcr.words));
        return (
          splitLines(verdict.outputOcr.lines) ||
          [there, ...checked.map((c) => readingOrder(c.words, words))].some(
            (order) => readsOutOfOrder(order) !== undefined,
          )
        );
      };
      return {
        // The same whole reading the checks compare with, read once per page.
        readInput: async () =>
          (await (wholeInput ?? readWithinTimeLimit(readWhole()).then((read) => read.ocr))).words,
        check: async (output) => {
          // An upscaled output is read at the input's size (about scale² less OCR work); its word boxes then
          // come back in input pixels and are scaled to the output's for the text layer.
          const verdict = await guardPage(input, output, {
            dpi,
            minConfidence: await minConfidence(),
            recognize: recognizeForGuard,
            ...(wholeInput
              ? { inputOcr: await wholeInput }
              : { inputRead: 'changed' as const, ...(whole ? { wholeInputOcr: whole } : {}) }),
            ocrOutputAtInputSize: true,
          });
          onGuard?.(verdict);
          const sx = verdict.outputScale.x;
          const sy = verdict.outputScale.y;
          // Lines are found at the input's size whichever way the output was read.
          const lx = output.width / input.width;
          const ly = output.height / input.height;
          const rejected = verdict.regions.filter((r) => !r.accept);
          const words = verdict.outputOcr.words.map((w) => scaled(w, sx / lx, sy / ly));
          const angle = verdict.reread?.angle ?? 0;
          const [inputRead, outputRead] = [
            outside(verdict.inputOcr.words, rejected),
            outside(words, rejected),
          ];
          const lines = verdict.outputOcr.lines;
          const reading: NonNullable<GuardVerdict['reading']> = {
            input: readingQuality(inputRead),
            output: readingQuality(outputRead),
            lessSure: lessSureWhereTurned(angle, inputRead, outputRead),
            cutLines: splitLineCount(lines),
            gained: clearWordsGained(inputRead, outputRead),
          };
          // The whole reading kept lies as the input came (a turned one is read again from the cache: no OCR pass).
          // An input the OCR could not read in time reads no words, for every check of the page (none reads it again).
          if (verdict.inputUnread) whole ??= NOTHING_READ;
          else if (!verdict.reread || (verdict.reread.full && verdict.reread.angle === 0))
            whole ??= verdict.inputOcr;
          else if (
            !whole &&
            (verdict.reread.full || orderInDoubt(verdict, words) || pageReadingWorse(reading))
          )
            whole = await readWhole();
          const gutters = () => findGutters(output, dpi * lx).map((g) => ({ x0: g.x0 / lx, x1: g.x1 / lx }));
          checked.push({ words, lines, reading, angle, rejected, gutters });
          if (whole) {
            for (const c of checked) {
              const read = inputWords(c.angle, c.rejected);
              if (read) {
                const outputRead = outside(c.words, c.rejected);
                c.reading.input = readingQuality(read);
                c.reading.lessSure = lessSureWhereTurned(c.angle, read, outputRead);
                c.reading.gained = clearWordsGained(read, outputRead);
              }
              c.reading.order ??= orderOf(c.words, c.lines, c.gutters);
              if (c.reading.mended === undefined) {
                c.reading.mended = c.angle === 0 && linesMended(whole.lines, c.lines);
                if (c.reading.mended)
                  c.reading.joinedLines = splitLineCount(whole.lines) - splitLineCount(c.lines);
              }
            }
            for (const c of orderDisowned(checked)) delete c.reading.order;
          }
          return {
            accept: verdict.accept,
            badLines: rejected.map((r) => scaled(r, lx, ly)),
            badWords: verdict.regions.flatMap((r) => r.badWords).map((w) => scaled(w, lx, ly)),
            input: verdict.alignedInput ?? toGrey(input, 'max'),
            checkedLines: verdict.regions.length,
            frame: verdict.frame,
            lostWords: [...verdict.lostWords, ...verdict.changedWords.map((c) => `${c.input}→${c.output}`)],
            reason: verdict.reason,
            outputWords: verdict.outputOcr.words.map((w) => scaled(w, sx, sy)),
            // Words on the lines the word guard rejected are patched or fall back by its own rules; the page's
            // reading is compared on the rest (input pixels). A later check may fill in its order.
            reading,
          };
        },
      };
    },
  };
}
