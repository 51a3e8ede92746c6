// The page-level rule behind the word guard: the engine's own OCR never reads the output worse than the input
// (words read, mean confidence). A full restoration that reads worse gives way to the conservative steps, checked
// the same way, and those to the input itself, which by definition reads no worse than itself.
import type { RawImage } from '../image.js';
import type { OcrWord } from '../io/encode.js';
import { readsWorse } from '../ocr/quality.js';
import type { GuardVerdict, PageGuard } from './services.js';

export interface NeverWorse {
  image: RawImage;
  /** 'conservative' or 'input': what the page shows instead of the full restoration. */
  source: 'conservative' | 'input';
  reason: string;
  /** The OCR words of `image` when the check read them (conservative output accepted). */
  words?: OcrWord[];
}

/** Why a verdict's output reads worse than its input, or undefined. */
export function pageReadsWorse(verdict: GuardVerdict): string | undefined {
  return verdict.reading ? readsWorse(verdict.reading.input, verdict.reading.output) : undefined;
}

/**
 * When the full restoration reads worse than the input, the first of the conservative output and the input
 * that does not; undefined when the full restoration reads no worse.
 */
export async function neverWorse(
  input: RawImage,
  verdict: GuardVerdict,
  guard: PageGuard,
  conservative: () => Promise<RawImage>,
): Promise<NeverWorse | undefined> {
  const reason = pageReadsWorse(verdict);
  if (!reason) return undefined;
  const safe = await conservative();
  const second = await guard.check(safe);
  if (second.accept && second.badLines.length === 0 && !pageReadsWorse(second))
    return {
      image: safe,
      source: 'conservative',
      reason,
      ...(second.outputWords ? { words: second.outputWords } : {}),
    };
  return { image: input, source: 'input', reason };
}
