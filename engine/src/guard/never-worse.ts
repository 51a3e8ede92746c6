// The page-level rule behind the word guard: the engine's own OCR never reads the output worse than the input
// (words read, mean confidence). A full restoration that reads worse gives way to its fallbacks in order (the
// classical plan when the network was used, then the conservative steps), each checked the same way, and those to
// the input itself, which by definition reads no worse than itself.
import type { RawImage } from '../image.js';
import type { OcrWord } from '../io/encode.js';
import { readsWorse } from './quality.js';
import type { GuardVerdict, PageGuard } from '../pipeline/services.js';

export type FallbackSource = 'classical' | 'conservative';

/** A restoration to try when the full one reads worse. */
export interface Fallback {
  source: FallbackSource;
  run: () => Promise<RawImage>;
}

export interface NeverWorse {
  image: RawImage;
  /** What the page shows instead of the full restoration. */
  source: FallbackSource | 'input';
  reason: string;
  /** The OCR words of `image` when the check read them (conservative output accepted). */
  words?: OcrWord[];
}

/** Why a verdict's output reads worse than its input, or undefined. */
export function pageReadsWorse(verdict: GuardVerdict): string | undefined {
  return verdict.reading ? readsWorse(verdict.reading.input, verdict.reading.output) : undefined;
}

/**
 * When the full restoration reads worse than the input, the first of the fallbacks and the input that does not;
 * undefined when the full restoration reads no worse.
 */
export async function neverWorse(
  input: RawImage,
  verdict: GuardVerdict,
  guard: PageGuard,
  fallbacks: Fallback[],
): Promise<NeverWorse | undefined> {
  const reason = pageReadsWorse(verdict);
  if (!reason) return undefined;
  for (const fallback of fallbacks) {
    const safe = await fallback.run();
    const second = await guard.check(safe);
    if (second.accept && second.badLines.length === 0 && !pageReadsWorse(second))
      return {
        image: safe,
        source: fallback.source,
        reason,
        ...(second.outputWords ? { words: second.outputWords } : {}),
      };
  }
  return { image: input, source: 'input', reason };
}
