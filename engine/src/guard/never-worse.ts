// The page-level rule behind the word guard: the engine's own OCR never reads the output worse than the input
// (words read, mean confidence). A full restoration that reads worse gives way to its fallbacks in order (the
// classical plan when the network was used, then the conservative steps), each checked the same way, and those to
// the input itself, which by definition reads no worse than itself. A full restoration must also earn its place:
// one that reads no better than the input (on a clean page, a page whose damage OCR does not feel) gives way to the
// conservative steps the same way. Measured on 120 generated pages (dev profile, seeds 7301 and 7302, each page
// degraded and clean): clean pages made worse by more than 0.2 point of CER 17 → 3, degraded pages made worse by
// more than 0.5 point 8 → 3, mean CER of the degraded pages unchanged (0.092).
import type { RawImage } from '../image.js';
import { toGrey } from '../pixels/index.js';
import type { OcrWord } from '../io/encode.js';
import {
  clearerAmongMarks,
  cutWhereWhole,
  FALLBACK_TOLERANCE,
  pageReadingWorse,
  readsBetter,
  readsOutOfOrder,
  type Tolerance,
} from './quality.js';
import type { GuardVerdict, PageGuard } from '../pipeline/services.js';
import { OcrTimeoutError } from '../ocr/native.js';

export type FallbackSource = 'classical' | 'conservative';

/** A restoration to try when the full one reads worse. */
export interface Fallback {
  source: FallbackSource;
  run: () => Promise<RawImage>;
  /** The guard's verdict on it where the page has checked it already (not read again). */
  verdict?: GuardVerdict;
}

export interface NeverWorse {
  image: RawImage;
  /** What the page shows instead of the full restoration. */
  source: FallbackSource | 'input';
  reason: string;
  /** Whether the full restoration read worse than the input (otherwise it read no better). */
  worse: boolean;
  /** The OCR words of `image` when the check read them (conservative output accepted). */
  words?: OcrWord[];
}

/** Why a verdict's output reads worse than its input, or undefined. */
export function pageReadsWorse(verdict: GuardVerdict, tolerance?: Tolerance): string | undefined {
  const reading = verdict.reading;
  if (!reading) return undefined;
  return (
    pageReadingWorse(reading, tolerance) ??
    (reading.order === undefined ? undefined : readsOutOfOrder(reading.order))
  );
}

/**
 * Whether a verdict's output reads clearly better than its input: more words read, or surer, or as many words with
 * the lines the input's reading cut in two read whole (its halves no longer read one after the other), or far clearer
 * than an input drowned in marks (clearerAmongMarks).
 */
export function pageReadsBetter(verdict: GuardVerdict): boolean {
  const reading = verdict.reading;
  if (!reading) return false;
  return readsBetter(reading.output, reading.input) || mendsNoWorse(reading) || clearerAmongMarks(reading);
}

/** Whether a reading reads whole the lines the input's reading cut in two (`mended`) and reads no worse. */
function mendsNoWorse(reading: NonNullable<GuardVerdict['reading']>): boolean {
  return reading.mended === true && !pageReadingWorse(reading);
}

/**
 * Whether reading `a` takes its text in pieces that reading `b`, of another restoration of the page, reads whole: `a`
 * cuts at least MIN_CUT_LINES of its lines in two side by side and `b` none (cutWhereWhole). It says nothing of
 * which page reads more words: the pieces read words as well as whole lines do, in another order. Dev seed 9801
 * doc_013 (dev2 profile; a letter under severe eroded strokes, salt and pepper and a 1° skew, whose input reads 1
 * word): the network's page, deskewed, read 21 of its 68 lines cut so, 194 words read and 119 unsure, CER 0.681
 * (0.232 before deskew); the classical page read its 42 lines whole, 141 words and 162 unsure, 0.241, and was not
 * shown.
 */
function readsInPieces(
  a: NonNullable<GuardVerdict['reading']>,
  b: NonNullable<GuardVerdict['reading']>,
): boolean {
  return a.cutLines !== undefined && b.cutLines !== undefined && cutWhereWhole(a.cutLines, b.cutLines);
}

/**
 * Whether the classical plan's page replaces the network's: it reads clearly better than the network's, or reads
 * whole the lines the network's reads in pieces (readsInPieces) and no worse than the input, or the network's is in
 * doubt (it read no better than the input, or worse) and the classical page reads clearly better than the input: by
 * its words, by the lines of the input's reading it mends (dev3 seed 9903 doc_002, two folds down a letter: the
 * input's reading cut 30 lines, CER 0.686; the network's page cut 17 and read in another order, 0.236; the classical
 * page cut 11, 0.164, its words fewer by those the folds had cut in two; the page was shown as it came), or by reading
 * far clearer than an input drowned in marks (clearerAmongMarks; dev3 seed 9906 doc_025, where the network drew a
 * dark bleed-through as crisp mirrored lines).
 * Each check reads the input again only where its candidate changed the ink, so the two readings of the input differ
 * by OCR's jitter: the classical page must read clearly better than both (dev seed 6102 doc_003, a noisy page the
 * network cleaned to CER 0.003: the classical denoiser's broken strokes, CER 0.015, read 7 words more than one reading
 * of the input and 2 more than the other).
 */
export function classicalReadsBetter(
  net: NonNullable<GuardVerdict['reading']>,
  classical: NonNullable<GuardVerdict['reading']>,
  netDoubted: boolean,
): boolean {
  if (readsBetter(classical.output, net.output)) return true;
  if (readsInPieces(net, classical) && !pageReadingWorse(classical)) return true;
  return (
    netDoubted &&
    (mendsNoWorse(classical) ||
      clearerAmongMarks(classical) ||
      (readsBetter(classical.output, classical.input) && readsBetter(classical.output, net.input)))
  );
}

/**
 * When the full restoration reads worse than the input, or no better, the first of the fallbacks that reads as well
 * as the input, else the input; undefined when the full restoration reads clearly better.
 */
export async function neverWorse(
  input: RawImage,
  verdict: GuardVerdict,
  guard: PageGuard,
  fallbacks: Fallback[],
): Promise<NeverWorse | undefined> {
  const worse = pageReadsWorse(verdict);
  // Words the word guard found changed are its to patch (or to fall back for): only a page it accepted whole
  // must earn its place.
  const accepted = verdict.accept && verdict.badLines.length === 0;
  if (!worse && (!verdict.reading || !accepted || pageReadsBetter(verdict))) return undefined;
  const reason = worse ?? 'the restoration reads no better than the input';
  return { ...(await firstSafe(input, guard, fallbacks)), reason, worse: worse !== undefined };
}

/**
 * A candidate's verdict, or undefined where the OCR ran past its time limit on it (a page of thousands of specks can
 * keep Tesseract's layout analysis busy for minutes): no reading proves such a candidate, so it is not shown.
 */
export async function checkedInTime(
  guard: PageGuard,
  candidate: RawImage,
): Promise<GuardVerdict | undefined> {
  try {
    return await guard.check(candidate);
  } catch (error) {
    if (error instanceof OcrTimeoutError) return undefined;
    throw error;
  }
}

/**
 * The first fallback the guard accepts whole and that reads as well as the input (FALLBACK_TOLERANCE), else the
 * input itself: what a page shows when its full restoration is rejected.
 */
export async function firstSafe(
  input: RawImage,
  guard: PageGuard,
  fallbacks: Fallback[],
): Promise<Pick<NeverWorse, 'image' | 'source' | 'words'>> {
  for (const fallback of fallbacks) {
    const safe = await fallback.run();
    const second = fallback.verdict ?? (await checkedInTime(guard, safe));
    if (second?.accept && second.badLines.length === 0 && !pageReadsWorse(second, FALLBACK_TOLERANCE))
      return {
        image: safe,
        source: fallback.source,
        ...(second.outputWords ? { words: second.outputWords } : {}),
      };
  }
  return { image: input, source: 'input' };
}

/** Whether a page shows the input as it came: the same size, every pixel's grey within one level of the input's. */
export function showsAsItCame(input: RawImage, page: RawImage): boolean {
  if (input.width !== page.width || input.height !== page.height) return false;
  const a = toGrey(input, 'luma').data;
  const b = toGrey(page, 'luma').data;
  for (let i = 0; i < a.length; i++) if (Math.abs(a[i]! - b[i]!) > 1) return false;
  return true;
}
