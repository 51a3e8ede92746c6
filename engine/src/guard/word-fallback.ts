// Falling back word by word. For each word the guard found lost or changed, the first of these that still reads
// as the input's word at its place gives the word's pixels, levels stretched to white paper and dark ink:
// 1. the full restoration itself (the word is there, only the whole-page reading missed it: a pale word, or
//    the layout analysis skipping a line);
// 2. the conservative steps' output;
// 3. the input as it came (no restoration keeps the word).
// Words, not whole lines: the conservative output keeps the noise the full plan removed, and noise brought
// back around a heading can upset the page's layout analysis.
import type { RawImage } from '../image.js';
import type { OcrWord } from '../io/encode.js';
import { maskedCrop, moved, union, type Box } from './changes.js';
import { readAtPlace } from './check.js';
import { toGrey } from '../pixels/index.js';
import { padBoxes, patchBoxesLevelled } from './patch.js';
import type { GuardVerdict, PageServices } from '../pipeline/services.js';

export type Recognize = NonNullable<PageServices['recognizeWords']>;

/** Where the patched words came from. */
export interface WordSources {
  output: number;
  conservative: number;
  input: number;
}

export interface PatchedWords {
  image: RawImage;
  sources: WordSources;
  /** The padded boxes of the bad words' lines (the text layer is read again there). */
  lineBoxes: Box[];
}

/** OCR words inside the boxes only (one read of a masked crop), in page coordinates. */
export async function readInside(
  img: RawImage,
  boxes: readonly Box[],
  recognize: Recognize,
  dpi: number,
): Promise<OcrWord[]> {
  if (boxes.length === 0) return [];
  const crop = maskedCrop(toGrey(img), boxes);
  return (await recognize(crop.image, dpi)).words.map((w) => moved(w, crop.x0, crop.y0));
}

/** For each line, the box from its first to its last word (words outside every line keep their own box). */
export function lineSpans(words: readonly Box[], lines: readonly Box[]): Box[] {
  const spans = new Map<number, Box>();
  const alone: Box[] = [];
  for (const w of words) {
    const cy = (w.y0 + w.y1) / 2;
    const k = lines.findIndex((l) => cy >= l.y0 && cy <= l.y1 && w.x0 < l.x1 && w.x1 > l.x0);
    if (k < 0) {
      alone.push(w);
      continue;
    }
    const s = spans.get(k);
    const box = { x0: w.x0, y0: w.y0, x1: w.x1, y1: w.y1 };
    spans.set(k, s ? union(s, box) : box);
  }
  return [...spans.values(), ...alone];
}

/**
 * Patches the verdict's bad words into `output`. `conservative` runs the conservative steps (only when some
 * word needs them). Returns undefined when a needed image does not line up with the output (other size).
 */
export async function patchBadWords(
  output: RawImage,
  verdict: GuardVerdict,
  conservative: () => Promise<RawImage>,
  recognize: Recognize | undefined,
  dpi: number,
): Promise<PatchedWords | undefined> {
  const fits = (img: RawImage) =>
    img.width === output.width && img.height === output.height && img.channels === output.channels;
  const pad = Math.max(2, Math.round(dpi / 30));
  const boxesOf = (boxes: readonly Box[]) => padBoxes(boxes, pad, output.width, output.height);
  const lineBoxes = boxesOf(verdict.badLines);
  const sources: WordSources = { output: 0, conservative: 0, input: 0 };
  let image = output;
  let pending = verdict.badWords;
  /** Patches the pending words that `source` reads (all of them when there is no OCR to ask). */
  const takeFrom = async (source: RawImage, key: keyof WordSources, check: boolean) => {
    if (pending.length === 0) return;
    let found = pending;
    if (check && recognize) {
      const read = await readInside(source, lineBoxes, recognize, dpi);
      found = pending.filter((w) => readAtPlace(w, read));
    }
    // The restoration's own pixels are levelled over the stretch of the line from the first found word to the
    // last (the short words between, which the guard does not check, came out as pale); the other sources
    // only over the words, to bring back as little of their noise as possible.
    const boxes = key === 'output' ? lineSpans(found, verdict.badLines) : found;
    image = patchBoxesLevelled(image, source, boxesOf(boxes));
    sources[key] += found.length;
    pending = pending.filter((w) => !found.includes(w));
  };
  if (recognize) await takeFrom(output, 'output', true);
  if (pending.length > 0) {
    const safe = await conservative();
    if (!fits(safe)) return undefined;
    const lastResort = fits(verdict.input) && recognize !== undefined;
    await takeFrom(safe, 'conservative', lastResort);
    await takeFrom(verdict.input, 'input', false);
  }
  return { image, sources, lineBoxes };
}
