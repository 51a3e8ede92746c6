// Whole-page reading quality: how many words the OCR reads with some confidence, and how sure it is of them. The
// word guard checks the clearly read words one by one; this catches a page that reads worse as a whole (short
// words lost, every word less sure) while no checked word changed.
import type { OcrWord } from '../ocr/recognize.js';

export interface ReadingQuality {
  /** Words with at least two letters or digits read at confidence >= READ_CONFIDENCE. */
  words: number;
  /** Mean confidence (0..100) of the words with a letter or digit. */
  meanConfidence: number;
  /** Words with a letter or digit read below READ_CONFIDENCE: marks that look like text but do not read. */
  unsure: number;
}

/** A word counts as read from this confidence on (Tesseract's own garbage sits well below it). */
export const READ_CONFIDENCE = 60;
/** How much worse a reading may be before it counts as worse. */
export interface Tolerance {
  /** Words lost beyond this share (and at least two) make a page read worse. */
  lostWordShare: number;
  /** A mean confidence this many points lower makes a page read worse (unless it reads clearly more words). */
  confidenceDrop: number;
  /**
   * Words read unsure (below READ_CONFIDENCE) beyond the input's and beyond the words newly read, more than this
   * share of the input's words read (and MIN_ADDED_MARKS), make a page read worse: ink that looks like text but
   * does not read, where the input had none (a network drawing scribbles over a stain's faded lines).
   */
  addedMarkShare: number;
}

export const MIN_ADDED_MARKS = 5;

/** For a restoration that was meant to help: OCR's own noise between two readings of one page stays within it. */
export const RESTORATION_TOLERANCE: Tolerance = {
  lostWordShare: 0.03,
  confidenceDrop: 5,
  addedMarkShare: 0.05,
};
/**
 * For the conservative steps shown instead of a restoration that read no better: they must read as well as the
 * input, or the input itself is shown (on 120 generated pages, the looser tolerance let one such page lose 1.9
 * points of CER).
 */
export const FALLBACK_TOLERANCE: Tolerance = { lostWordShare: 0.01, confidenceDrop: 1, addedMarkShare: 0.02 };

export function readingQuality(words: readonly OcrWord[]): ReadingQuality {
  let read = 0;
  let unsure = 0;
  let sum = 0;
  let count = 0;
  for (const w of words) {
    const core = w.text.replace(/[^A-Za-z0-9]/g, '');
    if (core.length === 0) continue;
    sum += w.confidence;
    count++;
    if (w.confidence < READ_CONFIDENCE) unsure++;
    else if (core.length >= 2) read++;
  }
  return { words: read, meanConfidence: count > 0 ? sum / count : 0, unsure };
}

/** Why the output reads worse than the input, or undefined when it does not. */
export function readsWorse(
  input: ReadingQuality,
  output: ReadingQuality,
  tolerance: Tolerance = RESTORATION_TOLERANCE,
): string | undefined {
  const lost = input.words - output.words;
  if (lost >= 2 && lost > input.words * tolerance.lostWordShare)
    return `the page reads worse: ${output.words} words read against ${input.words} in the input`;
  const marks = output.unsure - input.unsure - Math.max(0, output.words - input.words);
  if (marks >= MIN_ADDED_MARKS && marks > input.words * tolerance.addedMarkShare)
    return `the page reads worse: ${output.unsure} words read unsure against ${input.unsure} in the input`;
  // Only clearly more words read excuse a lower confidence: marks a restoration drew where there was no legible
  // text (a stain's faded lines turned into dark scribbles) read as many new unsure words, with one or two more read.
  if (
    !readsMoreWords(output, input) &&
    output.meanConfidence < input.meanConfidence - tolerance.confidenceDrop
  )
    return `the page reads worse: mean OCR confidence ${output.meanConfidence.toFixed(0)} against ${input.meanConfidence.toFixed(0)} in the input`;
  return undefined;
}

/**
 * Words read beyond this share (and at least two) make one reading clearly better than another. On 120 generated
 * pages (dev profile, seeds 7301 and 7302, half of them clean), 2 % left a crease repair that brought a two-column
 * page from CER 0.32 to 0.01 unproven (it read 1.05 % more words); 1 % and 2 % kept the same clean pages unharmed.
 */
export const MIN_GAINED_WORD_SHARE = 0.01;
/** As many words read, and a mean confidence this many points higher, make a reading clearly better. */
export const MIN_CONFIDENCE_GAIN = 3;

/** Whether reading `a` reads clearly more words than reading `b`. */
function readsMoreWords(a: ReadingQuality, b: ReadingQuality): boolean {
  const gained = a.words - b.words;
  return gained >= 2 && gained > b.words * MIN_GAINED_WORD_SHARE;
}

/** Whether reading `a` is clearly better than reading `b`: more words read, or as many read with more confidence. */
export function readsBetter(a: ReadingQuality, b: ReadingQuality): boolean {
  if (readsMoreWords(a, b)) return true;
  return a.words >= b.words && a.meanConfidence >= b.meanConfidence + MIN_CONFIDENCE_GAIN;
}
