// The word guard: restoration may clean and sharpen, never invent or rewrite text. Every word the input
// reads clearly must still be read in the output; otherwise the page (or the line) is rejected and the
// caller falls back to conservative steps.
import type { RawImage } from '../image.js';
import type { Grey } from '../pixels/index.js';
import {
  growAlongInk,
  inkChanges,
  intersects,
  maskedCrop,
  moved,
  scaled,
  turned,
  union,
  unreadInk,
  type Box,
} from './changes.js';
import { editDistance } from './edit-distance.js';
import { readingQuality } from './quality.js';
import {
  recognizeWordsTesseract,
  type OcrLine,
  type OcrResult,
  type OcrWord,
  type Recognizer,
} from '../ocr/recognize.js';
import { OcrTimeoutError } from '../ocr/native.js';

export interface GuardOptions {
  /** Input words below this Tesseract confidence (0..100) are too unsure to check. */
  minConfidence: number;
  /** Shorter words (after trimming punctuation) are not checked: OCR flips them too easily. */
  minLength: number;
  /** Largest share of checked words that may be lost or changed before the page is rejected. */
  maxLostShare: number;
  /**
   * Changed words tolerated whatever the share when each is an OCR flip (one or two letters, no digit) and no
   * word was lost: a single flip is not evidence of a rewrite.
   */
  maxFlippedWords: number;
  /** Reject as soon as one checked word with a digit is lost or changed (amounts, dates, references). */
  strictDigits: boolean;
  /** Page segmentation mode for both OCR passes. */
  psm: number;
  /** Resolution of the input; the output's is derived from its width. */
  dpi?: number;
  /** OCR of the input, when the caller already has it. */
  inputOcr?: OcrResult;
  /**
   * Read an upscaled output after box-filtering it back to the input's size (whole multiples only):
   * about scale² times less OCR work, at the price of not judging the output's finest detail.
   * The returned outputOcr then has input-size coordinates.
   */
  ocrOutputAtInputSize?: boolean;
  /**
   * How the input is read when inputOcr is not given: 'full' reads the whole input; 'changed' reads the output
   * first and then the input only around the places where the output's ink differs from the input's (see
   * changes.ts); elsewhere the output's words stand for the input's. Only for outputs of the input's
   * size (or read at it, see ocrOutputAtInputSize); otherwise the input is read whole.
   */
  inputRead?: 'full' | 'changed';
  /** With inputRead 'changed': read the whole input when the changed lines cover more than this share of the text. */
  maxRereadShare?: number;
  /**
   * With inputRead 'changed': the input's whole reading where an earlier check of the same page made one. Its words
   * in the changed places stand for a re-read there (one OCR pass less per later candidate); not when the input had
   * to be turned to line up with the output (its words lie in the input's frame).
   */
  wholeInputOcr?: Pick<OcrResult, 'words' | 'lines'>;
  /** OCR back-end for both passes (tesseract.js by default, which the defaults above are calibrated for) */
  recognize?: Recognizer;
}

// Calibrated on the 30 public eval pages with the clean page standing in for a perfect restoration
// (src/ocr/calibrate.ts): these settings reject 2 of 30 (doc_019: a misread house number "8810" that the clean
// page reads as "3810"; doc_024: "Fall", 1 of only 11 checked words), 85 / 3 rejected 7 of 30 over short
// misreads such as "die" → "the". Re-run on 2026-11-23 with tesseract.js's inverted-line retry off. One flipped
// word (one or two letters, no digit, nothing lost) is tolerated on any page: with only the share, a page with few
// clearly read words failed on a single OCR flip even for the clean page (doc_024), and on the public set the
// pages rejected for one word (your → yoiir, Each → Gach, Fall → Full) were all such flips.
export const DEFAULT_GUARD_OPTIONS: GuardOptions = {
  minConfidence: 90,
  minLength: 4,
  maxLostShare: 0.02,
  maxFlippedWords: 1,
  strictDigits: true,
  psm: 3,
};

export interface ChangedWord {
  input: string;
  output: string;
}

export interface GuardRegion {
  /** Text line box in input coordinates */
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  inputWords: number;
  repairedWords: ChangedWord[];
  lostWords: string[];
  changedWords: ChangedWord[];
  /** The lost and changed words as the input read them (same coordinates as the line) */
  badWords: OcrWord[];
  accept: boolean;
}

export interface GuardResult {
  accept: boolean;
  /** Input words that were checked (clear, long enough, alphanumeric) */
  inputWords: number;
  /** Checked words found in the output, exactly or repaired */
  keptWords: number;
  /** Checked words the output reads more completely: a fragment completed ("greed" → "agreed") or one letter fixed */
  repairedWords: ChangedWord[];
  /** Checked words with nothing readable at their place in the output */
  lostWords: string[];
  /** Checked words read differently at their place in the output */
  changedWords: ChangedWord[];
  reason: string;
  /** Per text line of the input, for callers that fall back region by region */
  regions: GuardRegion[];
  inputOcr: OcrResult;
  outputOcr: OcrResult;
  /**
   * Where the input's words (and so the regions) lie: 'output' when they lie as on the output (read on the input
   * aligned with it, or read as it came and turned the same way; same coordinates as outputOcr), 'input' when as on
   * the input as it came (a deskewed output no longer lines up with them).
   */
  frame: 'output' | 'input';
  /** With frame 'output': the input's grey pixels (brightest channel) turned like the output, at the input's size. */
  alignedInput?: Grey;
  /** Factors from outputOcr's coordinates to the output's pixels (not 1 when it was read at the input's size) */
  outputScale: { x: number; y: number };
  /**
   * With inputRead 'changed': the input boxes re-read (output coordinates at the input's size), the share of the
   * output's text-line area they cover, and whether the whole input was read instead.
   */
  reread?: {
    boxes: Box[];
    share: number;
    full: boolean;
    angle: number;
    /** How many places of each kind asked for a re-read */
    triggers: { inkChanged: number; unsureWords: number; unreadInk: number; inkDarkened: number };
  };
  /** The OCR ran past its time limit on the input (whole or in part): it counts as reading no words there. */
  inputUnread?: true;
}

/** A reading of no words. */
export const NOTHING_READ: OcrResult = { text: '', words: [], lines: [] };

/**
 * The input's reading, or none where the OCR ran past its time limit. Thousands of specks can keep Tesseract's
 * layout analysis busy for minutes (seed 171157 doc_003, photocopy noise: 124 s of CPU, and what it read scored CER
 * 0.868). Such an input has no clearly read words for a restoration to keep, so it reads as nothing, and the page is
 * judged on its output's reading rather than failing.
 */
export async function readWithinTimeLimit(
  read: Promise<OcrResult>,
): Promise<{ ocr: OcrResult; unread: boolean }> {
  try {
    return { ocr: await read, unread: false };
  } catch (error) {
    if (error instanceof OcrTimeoutError) return { ocr: NOTHING_READ, unread: true };
    throw error;
  }
}

const EDGE_PUNCTUATION = /^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g;
const ALPHANUMERIC = /^[A-Za-z0-9]+$/;

/** Word as compared: edge punctuation dropped; letters compared without case, digits exactly. */
export function wordKey(text: string): string {
  return text.replace(EDGE_PUNCTUATION, '').toLowerCase();
}

function checkable(word: OcrWord, opts: GuardOptions): boolean {
  const core = word.text.replace(EDGE_PUNCTUATION, '');
  return word.confidence >= opts.minConfidence && core.length >= opts.minLength && ALPHANUMERIC.test(core);
}

function overlapShare(a: OcrWord, b: OcrWord): number {
  const w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
  const h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
  if (w <= 0 || h <= 0) return 0;
  const area = (a.x1 - a.x0) * (a.y1 - a.y0);
  return area > 0 ? (w * h) / area : 0;
}

/**
 * A restoration may read a damaged word better than the input did: the input's fragment completed
 * ("greed" → "agreed", "20157" → "ZG-20157"), or one letter of a long word fixed ("signea" → "signed").
 * Digits never get the one-letter allowance.
 */
function isRepair(inputKey: string, outputKey: string): boolean {
  if (outputKey.length > inputKey.length && outputKey.includes(inputKey)) return true;
  return inputKey.length >= 5 && !/\d/.test(inputKey + outputKey) && editDistance(inputKey, outputKey) === 1;
}

/** Whether one of `words` (same coordinates) reads `word` at its place, exactly or as a repair of it. */
export function readAtPlace(word: OcrWord, words: readonly OcrWord[]): boolean {
  const key = wordKey(word.text);
  return words.some((w) => {
    if (overlapShare(word, w) <= 0.3) return false;
    const other = wordKey(w.text);
    return other === key || isRepair(key, other);
  });
}

interface Pending {
  word: OcrWord;
  key: string;
  region: GuardRegion;
}

/** Compares the words of two OCR results of the same page (the output may be scaled). */
export function compareWords(
  input: OcrResult,
  output: OcrResult,
  scale: { x: number; y: number },
  options: Partial<GuardOptions> = {},
): Omit<GuardResult, 'inputOcr' | 'outputOcr' | 'outputScale' | 'frame'> {
  const opts = { ...DEFAULT_GUARD_OPTIONS, ...options };
  // Output words in input coordinates; each can vouch for one input word.
  const outputWords = output.words.map((w) => scaled(w, 1 / scale.x, 1 / scale.y));
  const unclaimed = new Map<string, number[]>();
  outputWords.forEach((w, i) => {
    const key = wordKey(w.text);
    if (key !== '') unclaimed.set(key, [...(unclaimed.get(key) ?? []), i]);
  });

  const regions: GuardRegion[] = [];
  const pending: Pending[] = [];
  // Pass 1: exact matches anywhere on the page (order and layout may change).
  for (const line of input.lines) {
    const region: GuardRegion = {
      x0: line.x0,
      y0: line.y0,
      x1: line.x1,
      y1: line.y1,
      inputWords: 0,
      repairedWords: [],
      lostWords: [],
      changedWords: [],
      badWords: [],
      accept: true,
    };
    for (const word of line.words) {
      if (!checkable(word, opts)) continue;
      region.inputWords++;
      const key = wordKey(word.text);
      const left = unclaimed.get(key);
      if (left && left.length > 0) left.pop();
      else pending.push({ word, key, region });
    }
    if (region.inputWords > 0) regions.push(region);
  }

  // Pass 2: the rest may be repairs of what the input misread; otherwise lost or changed.
  const claimed = new Set<number>();
  const free = () => [...unclaimed.values()].flat().filter((i) => !claimed.has(i));
  let digitFailure = false;
  for (const { word, key, region } of pending) {
    const candidates = free();
    const near = candidates.filter((i) => overlapShare(word, outputWords[i]!) > 0.3);
    // Prefer a repair at the word's own place, then anywhere (the page may have been deskewed or cropped);
    // short fragments only at their place, as "and" is inside many words.
    const pool = key.length >= 5 ? [...near, ...candidates] : near;
    const repair = pool.find((i) => isRepair(key, wordKey(outputWords[i]!.text)));
    if (repair !== undefined) {
      claimed.add(repair);
      region.repairedWords.push({ input: word.text, output: outputWords[repair]!.text });
      continue;
    }
    // Two words the input read as one ("thatthe" → "that the").
    const split = near.sort((a, b) => outputWords[a]!.x0 - outputWords[b]!.x0);
    if (split.length > 1 && split.map((i) => wordKey(outputWords[i]!.text)).join('') === key) {
      for (const i of split) claimed.add(i);
      region.repairedWords.push({
        input: word.text,
        output: split.map((i) => outputWords[i]!.text).join(' '),
      });
      continue;
    }
    const there = outputWords.filter((o) => overlapShare(word, o) > 0.3 && o.text.trim() !== '');
    if (there.length > 0)
      region.changedWords.push({ input: word.text, output: there.map((o) => o.text).join(' ') });
    else region.lostWords.push(word.text);
    region.badWords.push(word);
    if (/\d/.test(key)) digitFailure = true;
  }

  let inputWords = 0;
  const repairedWords: ChangedWord[] = [];
  const lostWords: string[] = [];
  const changedWords: ChangedWord[] = [];
  for (const region of regions) {
    region.accept = region.lostWords.length + region.changedWords.length === 0;
    inputWords += region.inputWords;
    repairedWords.push(...region.repairedWords);
    lostWords.push(...region.lostWords);
    changedWords.push(...region.changedWords);
  }

  const bad = lostWords.length + changedWords.length;
  const keptWords = inputWords - bad;
  let accept = true;
  let reason: string;
  if (inputWords === 0) {
    reason = 'no clearly readable words in the input to check';
  } else if (opts.strictDigits && digitFailure) {
    accept = false;
    reason = 'a word with digits was lost or changed';
  } else if (
    !onlyFlips(lostWords, changedWords, opts.maxFlippedWords) &&
    bad / inputWords > opts.maxLostShare
  ) {
    accept = false;
    reason = `${bad} of ${inputWords} clearly read words were lost or changed (limit ${(opts.maxLostShare * 100).toFixed(0)}%)`;
  } else {
    reason =
      bad === 0
        ? `all ${inputWords} clearly read words kept`
        : `${keptWords} of ${inputWords} clearly read words kept`;
  }
  return { accept, inputWords, keptWords, repairedWords, lostWords, changedWords, reason, regions };
}

function onlyFlips(lost: string[], changed: ChangedWord[], max: number): boolean {
  if (lost.length > 0 || changed.length > max) return false;
  return changed.every(({ input, output }) => {
    const a = wordKey(input);
    const b = wordKey(output);
    return !/\d/.test(a + b) && !/\s/.test(output.trim()) && editDistance(a, b) <= 2;
  });
}

/** Box-filter reduction by whole factors (each output pixel is the mean of an fx × fy block). */
export function reduceBy(img: RawImage, fx: number, fy: number): RawImage {
  const width = Math.floor(img.width / fx);
  const height = Math.floor(img.height / fy);
  const c = img.channels;
  const data = new Uint8Array(width * height * c);
  const area = fx * fy;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let k = 0; k < c; k++) {
        let sum = 0;
        for (let dy = 0; dy < fy; dy++) {
          const row = (y * fy + dy) * img.width;
          for (let dx = 0; dx < fx; dx++) sum += img.data[(row + x * fx + dx) * c + k]!;
        }
        data[(y * width + x) * c + k] = Math.round(sum / area);
      }
    }
  }
  return { data, width, height, channels: img.channels };
}

/**
 * The input boxes to re-read around the given places: each place with the whole output words it touches or that
 * lie within half a line height beside it (so no word the output read is cut), padded by about a space (a
 * quarter of the median line height) across and an eighth of it up and down, and clipped. Where the output
 * reads no word (a word erased), the place itself is the box: ink changed glyph by glyph, and the padding
 * joins a word's glyphs.
 */
export function rereadBoxes(
  places: readonly Box[],
  words: readonly Box[],
  lines: readonly Box[],
  width: number,
  height: number,
  dpi: number,
): Box[] {
  const heights = lines.map((l) => l.y1 - l.y0).sort((a, b) => a - b);
  const lineH = heights.length > 0 ? heights[heights.length >> 1]! : Math.round(dpi * 0.15);
  const padX = Math.ceil(lineH / 4);
  const padY = Math.ceil(lineH / 8);
  const boxes = places.map((c) => {
    // The output words beside a change too: the input's word there may have been longer (a cut-off digit).
    const near = { x0: c.x0 - lineH / 2, y0: c.y0 - 2, x1: c.x1 + lineH / 2, y1: c.y1 + 2 };
    const box = words.filter((w) => intersects(w, near)).reduce(union, c);
    return {
      x0: Math.max(0, Math.floor(box.x0 - padX)),
      y0: Math.max(0, Math.floor(box.y0 - padY)),
      x1: Math.min(width, Math.ceil(box.x1 + padX)),
      y1: Math.min(height, Math.ceil(box.y1 + padY)),
    };
  });
  // Not merged into bounding boxes: the boxes along a cleaned page border would then become the whole page.
  return boxes;
}

/** 0/1 mask of the pixels inside any of the boxes. */
function boxMask(boxes: readonly Box[], width: number, height: number): Uint8Array {
  const mask = new Uint8Array(width * height);
  for (const b of boxes) {
    for (let y = Math.max(0, b.y0); y < Math.min(height, b.y1); y++) {
      mask.fill(1, y * width + Math.max(0, b.x0), y * width + Math.min(width, b.x1));
    }
  }
  return mask;
}

/**
 * The reading with each line's and word's box put where `place` puts it (a crop's reading back on its page, or a
 * skewed page's reading on the deskewed page).
 */
function placed(ocr: OcrResult, place: <T extends Box>(b: T) => T): OcrResult {
  const lines = ocr.lines.map((l) => ({ ...place(l), words: l.words.map(place) }));
  return { text: ocr.text, words: lines.flatMap((l) => l.words), lines };
}

/**
 * The input's reading when only the changed places were re-read: the re-read words, plus, everywhere else,
 * the output's own words (its ink there is the input's).
 */
function mergedReading(reread: OcrResult, output: OcrResult, boxes: Box[]): OcrResult {
  const lines = wordsWhere(output.lines, (w) => !boxes.some((b) => intersects(w, b)));
  lines.push(...reread.lines);
  return readingOf(lines);
}

/** The words of a reading that touch any of the boxes, on their lines. */
function readingInside(reading: Pick<OcrResult, 'lines'>, boxes: Box[]): OcrResult {
  const lines = wordsWhere(reading.lines, (w) => boxes.some((b) => intersects(w, b)))
    // Each line spans the words kept, as a reading of those places alone would.
    .map((line) => {
      const { x0, y0, x1, y1 } = line.words.reduce<Box>(union, line.words[0]!);
      return { ...line, text: line.words.map((w) => w.text).join(' '), x0, y0, x1, y1 };
    });
  return readingOf(lines);
}

/** The lines with only the words `keep` keeps, and only the lines that keep any. */
function wordsWhere(lines: readonly OcrLine[], keep: (word: OcrWord) => boolean): OcrLine[] {
  return lines
    .map((line) => ({ ...line, words: line.words.filter(keep) }))
    .filter((line) => line.words.length > 0);
}

/** A reading made of these lines: its text and words follow them. */
function readingOf(lines: OcrLine[]): OcrResult {
  return {
    text: lines.map((l) => l.words.map((w) => w.text).join(' ')).join('\n'),
    words: lines.flatMap((l) => l.words),
    lines,
  };
}

/**
 * Below this share of the words the output reads in the same boxes, a masked crop's reading of the input is not
 * trusted. Tesseract's layout analysis drops some of the small islands of text a masked crop leaves, so the crop
 * reads fewer words than the whole page would. The page's reading would then seem to gain those words, and a
 * restoration would seem to read clearly better. Fresh seed 421171 doc_005 is a noisy phone photo: its crop read 153
 * words where the network's page read 274. The network's page was taken as proven. It had turned the noise between
 * words into dots ("the.same"), and the classical plan was never tried. The whole input reads 349 words against the
 * network's 367, and the classical page reads 412: CER 0.014 → 0.002. Of that set's 50 cropped re-reads, 41 read at
 * least 0.9 of the output's words.
 */
export const MIN_CROP_READ_SHARE = 0.9;

/** Whether a crop's reading of the input reads clearly fewer words than the output's reading of the same places. */
function readsFewerInCrop(crop: OcrResult, output: OcrResult): boolean {
  const read = readingQuality(crop.words).words;
  const there = readingQuality(output.words).words;
  return there - read >= 3 && read < there * MIN_CROP_READ_SHARE;
}

/** OCRs input and output and checks that the output still says what the input said. */
export async function guardPage(
  input: RawImage,
  output: RawImage,
  options: Partial<GuardOptions> = {},
): Promise<GuardResult> {
  const opts = { ...DEFAULT_GUARD_OPTIONS, ...options };
  const recognizeWords = opts.recognize ?? recognizeWordsTesseract;
  const scale = { x: output.width / input.width, y: output.height / input.height };
  const fx = output.width / input.width;
  const fy = output.height / input.height;
  const reduce = opts.ocrOutputAtInputSize && Number.isInteger(fx) && Number.isInteger(fy) && fx * fy > 1;
  const atInputSize = reduce || (fx === 1 && fy === 1);
  if (opts.inputRead === 'changed' && opts.inputOcr === undefined && atInputSize) {
    const seen = reduce ? reduceBy(output, fx, fy) : output;
    const outputOcr = await recognizeWords(seen, { psm: opts.psm, dpi: opts.dpi });
    const dpi = opts.dpi ?? 150;
    const changes = await inkChanges(input, seen, { dpi });
    // Re-read the input where the ink changed, where the output's reading is unsure (the input may have read
    // those words clearly), and where the input shows glyphs the output read no word on.
    const unsure = outputOcr.words.filter(
      (w) => w.confidence < opts.minConfidence && /[A-Za-z0-9]/.test(w.text),
    );
    const unreadPlaces = unreadInk(changes.inputInk, outputOcr.words, seen.width, seen.height, dpi);
    const heights = outputOcr.lines.map((l) => l.y1 - l.y0).sort((a, b) => a - b);
    const lineH = heights.length > 0 ? heights[heights.length >> 1]! : Math.round(dpi * 0.15);
    const inks = [changes.inputInk, changes.outputInk];
    const gap = Math.max(3, Math.round(lineH / 4));
    const triggers = [...changes.boxes, ...unsure, ...unreadPlaces].map((b) =>
      growAlongInk(
        { x0: Math.floor(b.x0), y0: Math.floor(b.y0), x1: Math.ceil(b.x1), y1: Math.ceil(b.y1) },
        inks,
        seen.width,
        gap,
      ),
    );
    const boxes = rereadBoxes(triggers, outputOcr.words, outputOcr.lines, seen.width, seen.height, dpi);
    // Share of the output's text-line area inside the boxes (overlapping boxes count once).
    const inBoxes = boxMask(boxes, seen.width, seen.height);
    let lineArea = 0;
    let covered = 0;
    for (const l of outputOcr.lines) {
      for (let y = Math.max(0, Math.floor(l.y0)); y < Math.min(seen.height, Math.ceil(l.y1)); y++) {
        for (let x = Math.max(0, Math.floor(l.x0)); x < Math.min(seen.width, Math.ceil(l.x1)); x++) {
          lineArea++;
          covered += inBoxes[y * seen.width + x]!;
        }
      }
    }
    const share = lineArea > 0 ? covered / lineArea : boxes.length > 0 ? 1 : 0;
    // Faint input ink the output draws solid (a print faded under a stain, restored) asks for the whole input: the
    // output's words cannot stand for the input's there, and a crop of the input reads faint words the whole page
    // does not (fresh seed 406805 doc_018: the input's merged reading counted 240 words read, 237 with its faint words
    // re-read in crops, 220 read whole; the network's page 239. The page was shown the conservative steps, CER 0.053,
    // where the network's page reads 0.031 and the input 0.058).
    let full = share > (opts.maxRereadShare ?? 0.8) || changes.darkened.length > 0;
    let reread: OcrResult = NOTHING_READ;
    let unread = false;
    const whole = opts.wholeInputOcr;
    if (!full && boxes.length > 0 && whole && changes.angle === 0) {
      reread = readingInside(whole, boxes);
    } else if (!full && boxes.length > 0) {
      // One reading of the aligned input, cropped to the boxes' extent, with everything outside the boxes
      // whitened; words and lines are shifted back to page coordinates.
      const crop = maskedCrop(changes.aligned, boxes);
      const read = await readWithinTimeLimit(recognizeWords(crop.image, { psm: opts.psm, dpi: opts.dpi }));
      reread = placed(read.ocr, (b) => moved(b, crop.x0, crop.y0));
      unread = read.unread;
      // A crop the OCR could not read in time is not read again whole.
      full = !unread && readsFewerInCrop(reread, readingInside(outputOcr, boxes));
    }
    let inputOcr: OcrResult;
    if (full) {
      // The input is read as it came (a turned copy would read otherwise than the page the user sent); its words
      // are turned like the output, so each is looked for, and a lost one patched, at its place.
      const read = await readWithinTimeLimit(recognizeWords(input, { psm: opts.psm, dpi: opts.dpi }));
      inputOcr = placed(read.ocr, (b) => turned(b, changes.angle, input.width, input.height));
      unread = read.unread;
    } else inputOcr = mergedReading(reread, outputOcr, boxes);
    return {
      ...compareWords(inputOcr, outputOcr, { x: 1, y: 1 }, opts),
      inputOcr,
      outputOcr,
      frame: 'output',
      alignedInput: changes.aligned,
      outputScale: { x: fx, y: fy },
      reread: {
        boxes,
        share,
        full,
        angle: changes.angle,
        triggers: {
          inkChanged: changes.boxes.length,
          unsureWords: unsure.length,
          unreadInk: unreadPlaces.length,
          inkDarkened: changes.darkened.length,
        },
      },
      ...(unread ? { inputUnread: true as const } : {}),
    };
  }
  const read = opts.inputOcr
    ? { ocr: opts.inputOcr, unread: false }
    : await readWithinTimeLimit(recognizeWords(input, { psm: opts.psm, dpi: opts.dpi }));
  const inputOcr = read.ocr;
  const unread = read.unread ? { inputUnread: true as const } : {};
  if (reduce) {
    // Boxes come back in input coordinates, so the comparison runs at scale 1.
    const outputOcr = await recognizeWords(reduceBy(output, fx, fy), { psm: opts.psm, dpi: opts.dpi });
    return {
      ...compareWords(inputOcr, outputOcr, { x: 1, y: 1 }, opts),
      inputOcr,
      outputOcr,
      frame: 'input',
      outputScale: { x: fx, y: fy },
      ...unread,
    };
  }
  const outputDpi = opts.dpi === undefined ? undefined : Math.round(opts.dpi * scale.x);
  const outputOcr = await recognizeWords(output, { psm: opts.psm, dpi: outputDpi });
  return {
    ...compareWords(inputOcr, outputOcr, scale, opts),
    inputOcr,
    outputOcr,
    frame: 'input',
    outputScale: { x: 1, y: 1 },
    ...unread,
  };
}
