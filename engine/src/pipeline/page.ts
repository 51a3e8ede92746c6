// One page, start to finish, in the current thread: decode, measure, plan, run steps, guard, OCR, encode.
// Workers call this; tests may too. Everything it returns is plain data, so the job runner can checkpoint it.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sharpOf } from '../pixels/index.js';
import { centralCrop, turnImage } from '../pixels/geometry.js';
import { planDocumentSteps, planPage, type PagePlan, type RestoreMode } from '../analysis/plan.js';
import type { Orientation } from '../analysis/orientation.js';
import { documentDamageMeasured } from '../analysis/damage.js';
import { DUST_NET_STEP, PHOTO_NET_STEP } from '../analysis/plan-photo.js';
import type { PageKind } from '../analysis/measure.js';
import type { RawImage } from '../image.js';
import { decodePage, type Doc } from '../io/decode.js';
import { asStoredInPdf, encodeImage, type OcrWord } from '../io/encode.js';
import type { StepCall, StepRegistry } from '../steps/registry.js';
import { pageNetAvailable } from '../models/page-net.js';
import { DUST_NET_FILE, photoNetAvailable } from '../models/photo-net.js';
import {
  checkedInTime,
  classicalReadsBetter,
  firstSafe,
  neverWorse,
  pageReadsBetter,
  pageReadsWorse,
  showsAsItCame,
  type Fallback,
  type FallbackSource,
} from '../guard/never-worse.js';
import { photoStepRejected } from './photo-check.js';
import { mergeWords } from '../guard/patch.js';
import {
  readingQuality,
  readsBetter,
  readsFarMore,
  readSideways,
  readsNoWord,
  RESTORATION_TOLERANCE,
  type ReadingQuality,
} from '../guard/quality.js';
import { patchBadWords, readInside, type WordSources } from '../guard/word-fallback.js';
import type { PageGuard, PageServices } from './services.js';

/**
 * Words are patched one by one while their lines are at most this share of the lines the guard checked (or two
 * lines); beyond it the damage is page-wide (lines without a clearly read word to check are likely hurt too), so
 * the whole page falls back.
 */
const MAX_PATCHED_LINE_SHARE = 0.5;
const PAGE_NET = 'restore-page-net';
const RECTIFY_STEP = 'rectify-perspective';
/** Why a page shows a fallback where the OCR could not read its restoration within its time limit. */
export const RESTORATION_UNREAD = 'the OCR could not read the restoration within its time limit';

export interface PageOptions {
  mode?: RestoreMode;
  /** Folder for named per-page intermediates (kept for debugging). */
  keepTempDir?: string;
  /** Runs exactly these steps instead of the measured plan (tools, benchmarks and tests). */
  steps?: StepCall[];
  /** OCR words for a PDF text layer; on by default for PDF input. */
  ocr?: boolean;
  /** The trained network first on document pages; on by default when its weights are present. */
  pageNet?: boolean;
  /** The trained photo networks (enlarged photos, dust); on by default where their weights are present. */
  photoNet?: boolean;
  /** A photographed page is rectified (on by default; off where the rectified page read far worse, see below). */
  rectify?: boolean;
}

export interface RestoredPage {
  index: number;
  /** The restored page image, encoded (PNG/JPEG for PDF pages, the input's format for images). */
  bytes: Uint8Array;
  mime: string;
  width: number;
  height: number;
  dpi: number;
  words: OcrWord[];
  kind: PageKind;
  /** Names of the steps applied, in order. */
  steps: string[];
  /**
   * Set when the word guard found clearly read words lost or changed: `words` of them were patched, word by
   * word, from the `sources` named in word-fallback.ts; without `words`, the whole page shows the conservative
   * steps' output (the full plan was rejected), or the input when the page read worse (never-worse.ts). On a
   * photo plan: the steps the self-check skipped (photo-check.ts), with `selfCheck` set.
   */
  fallback?: { reason: string; lostWords: string[]; words?: number; sources?: WordSources; selfCheck?: true };
  measures: Record<string, number>;
  /** The page shows its input as it came (no step, no turn): a PDF keeps its source page, under the text layer. */
  asInput?: true;
  ms: number;
}

/** One line about a guard fallback, for logs: what was patched or that the whole page fell back, and why. */
export function describeFallback(fallback: NonNullable<RestoredPage['fallback']>): string {
  // A photo's self-check skipped a step: no guard ran, its reasons say so.
  if (fallback.selfCheck) return fallback.reason;
  const examples = fallback.lostWords.slice(0, 3).join(', ');
  if (!fallback.words) return `guard fallback, whole page: ${fallback.reason}; ${examples}`;
  const s = fallback.sources;
  const from = s
    ? ` (${s.output} kept as restored, ${s.conservative} from the conservative steps, ${s.input} from the input)`
    : '';
  return `guard patched ${fallback.words} word(s)${from}: ${fallback.reason}; ${examples}`;
}

async function keep(dir: string | undefined, name: string, img: RawImage): Promise<void> {
  if (!dir) return;
  await mkdir(dir, { recursive: true });
  const png = await sharpOf(img)
    .toColourspace(img.channels === 1 ? 'b-w' : 'srgb')
    .png({ compressionLevel: 1 })
    .toBuffer();
  await writeFile(path.join(dir, `${name}.png`), png);
}

/**
 * Runs the steps in order. With `reject`, a step whose output it rejects (it returns the reason) is skipped: the
 * next step gets that step's input, and the reason is collected in `rejected`.
 */
export async function runSteps(
  image: RawImage,
  calls: StepCall[],
  registry: StepRegistry,
  keepAs?: { dir: string; prefix: string },
  reject?: {
    check: (before: RawImage, after: RawImage, step: string) => string | undefined;
    rejected: { step: string; reason: string }[];
  },
): Promise<RawImage> {
  let current = image;
  for (const [i, call] of calls.entries()) {
    const next = await registry.get(call.name).run(current, call.params);
    const reason = reject?.check(current, next, call.name);
    if (reason) {
      reject!.rejected.push({ step: call.name, reason });
      continue;
    }
    current = next;
    await keep(keepAs?.dir, `${keepAs?.prefix}-${String(i + 1).padStart(2, '0')}-${call.name}`, current);
  }
  return current;
}

/**
 * Tesseract's orientation detection reads the middle of the page, this share of its width and height: margins hold
 * no text, and their borders, shadows and specks only confuse it. On the pages the glyph vote left unsure (public set
 * and dev seeds 7001 to 7003, each page turned all four ways: 101 cases), the whole page gave 47 answers at the
 * confidence below, all right, in 1.8 s each (two at a time on two cores); the middle gives 54, 53 right, in 1.0 s.
 */
const ORIENTATION_CROP = 0.7;
/** Its confidence below which an answer is not tried (below it, 22 of the 54 whole-page answers were wrong). */
const MIN_DETECTED_TURN_CONFIDENCE = 2.5;

/**
 * Whether a page turn holds up (true where there is none, or no OCR to check it): the page turned must read across,
 * and clearly better than as it came; or, where the OCR read it as it came running down the page, no worse. The
 * glyph vote counts ascenders rising above the x-height band against descenders dropping below it. On a blurred
 * low-resolution fax the ascenders' thin tips fade and barely rise, and an upright page voted 10 to 86 for upside
 * down (fresh seed 469146 doc_021: CER 0.083 → 0.849). OCR reads an upside-down page, or one turned a quarter
 * anticlockwise, as little or nothing; a page turned a quarter clockwise it reads as well as upright, but as words
 * running down the page (readSideways). So two readings settle it, on the turned pages only.
 */
async function readsTurned(
  turned: RawImage,
  asCame: RawImage,
  dpi: number,
  recognize: NonNullable<PageServices['recognizeWords']>,
): Promise<boolean> {
  const [a, b] = await Promise.all([recognize(turned, dpi), recognize(asCame, dpi)]);
  if (readSideways(a.words)) return false;
  const [turnedReading, asCameReading] = [readingQuality(a.words), readingQuality(b.words)];
  if (readsBetter(turnedReading, asCameReading)) return true;
  // Read running down the page as it came, it reads as well as upright: the turn must keep its words read, within
  // the OCR's own noise between two readings (public doc_029 turned a quarter: 233 words as it came, 230 upright;
  // a wrong turn leaves the page upside down, read as next to nothing).
  const kept = turnedReading.words >= asCameReading.words * (1 - RESTORATION_TOLERANCE.lostWordShare);
  return readSideways(b.words) && kept;
}

/**
 * The page as it came (geometry steps only) and turned by `turns`, read both ways by readsTurned. Where the noise,
 * blur or specks of a damaged page leave the readings unsettled, the two are read again cleaned (by the trained
 * network): the same test on pages the OCR can read.
 */
async function turnConfirmed(
  asCame: RawImage,
  turns: Orientation['turns'],
  dpi: number,
  services: PageServices,
  cleaned?: () => Promise<RawImage>,
): Promise<boolean> {
  const recognize = services.recognizeWords;
  if (!recognize || turns === 0) return true;
  if (await readsTurned(turnImage(asCame, turns), asCame, dpi, recognize)) return true;
  if (!cleaned) return false;
  const clean = await cleaned();
  return readsTurned(turnImage(clean, turns), clean, dpi, recognize);
}

/**
 * The page turn to plan again with, where the plan's own is not kept; undefined keeps the plan. A turn the glyphs
 * voted for stands only where the page reads better turned (else none). Where the glyphs did not agree (blur,
 * noise, few ascenders), Tesseract's orientation detection (OCRmyPDF's --rotate-pages) is asked, and its turn is
 * taken when it is sure and holds up the same way. Where it is not sure of the page as it came, it is asked again
 * of the page cleaned by `clean` (the trained network, which takes away the specks, stains and blur that hide the
 * letters' shapes; whole, then cropped: the network measures the page's paper on all of it). On the public set turned
 * four ways this brought 6 more of its 120 cases upright, and 4 on dev seed 7005, none the wrong way. A page that
 * nothing settles stays as it came.
 */
export async function settledTurn(
  decoded: RawImage,
  dpi: number,
  plan: PagePlan,
  registry: StepRegistry,
  services: PageServices,
  clean?: (img: RawImage) => Promise<RawImage>,
): Promise<Orientation['turns'] | undefined> {
  const planned = plannedTurns(plan);
  if (!plan.turnUnsure && !planned) return undefined;
  const asCame = await runSteps(
    decoded,
    plan.geometry.filter((c) => c.name !== 'turn-page'),
    registry,
  );
  let cleanedOnce: Promise<RawImage> | undefined;
  const cleaned = clean && (() => (cleanedOnce ??= clean(asCame)));
  if (!plan.turnUnsure) return (await turnConfirmed(asCame, planned, dpi, services, cleaned)) ? undefined : 0;
  const detect = services.detectOrientation;
  if (!detect) return undefined;
  // A second opinion only: where it fails (a time limit), the page stays as the vote left it.
  const ask = async (img: RawImage) => {
    const found = await detect(img, dpi).catch(() => undefined);
    return found && found.confidence >= MIN_DETECTED_TURN_CONFIDENCE ? found : undefined;
  };
  const middle = centralCrop(asCame, ORIENTATION_CROP);
  const detected =
    (await ask(middle)) ??
    (clean &&
      ((await ask(centralCrop(await cleaned!(), ORIENTATION_CROP))) ?? (await ask(await clean(middle)))));
  if (!detected || detected.turns === 0) return undefined;
  return (await turnConfirmed(asCame, detected.turns, dpi, services, cleaned)) ? detected.turns : undefined;
}

/** The quarter turns among a plan's geometry steps (0: none). */
function plannedTurns(plan: PagePlan): Orientation['turns'] {
  return (plan.geometry.find((c) => c.name === 'turn-page')?.params.turns ?? 0) as Orientation['turns'];
}

/**
 * The reading of a photographed page as it came, turned as the plan turns it, where the plan rectifies the page and an
 * OCR can read it (started at once; undefined where the OCR fails on it).
 */
function readAsItCame(
  decoded: RawImage,
  dpi: number,
  plan: PagePlan,
  services: PageServices,
): Promise<ReadingQuality | undefined> | undefined {
  const recognize = services.recognizeWords;
  if (!recognize || !plan.geometry.some((c) => c.name === RECTIFY_STEP)) return undefined;
  return recognize(turnImage(decoded, plannedTurns(plan)), dpi).then(
    (read) => readingQuality(read.words),
    () => undefined,
  );
}

/**
 * The trained network as a cleaner of whole pages (settledTurn's `clean`), where the registry has its step and it is
 * wanted (by default, where its weights are at hand); else undefined.
 */
export function pageNetCleaner(
  registry: StepRegistry,
  dpi: number,
  wanted = pageNetAvailable(),
): ((img: RawImage) => Promise<RawImage>) | undefined {
  return wanted && registry.has(PAGE_NET)
    ? async (img) => registry.get(PAGE_NET).run(img, { dpi })
    : undefined;
}

/**
 * Whether a page routed as text by its lines (not by the caller's mode, and not mostly paper) reads no word in its
 * input nor in its restoration.
 */
function noTextRead(
  reading: { input: ReadingQuality; output: ReadingQuality },
  plan: PagePlan,
  opts: PageOptions,
): boolean {
  return (
    (opts.mode ?? 'auto') === 'auto' &&
    plan.route === 'document' &&
    plan.kind !== 'document' &&
    readsNoWord(reading.input) &&
    readsNoWord(reading.output)
  );
}

export async function restorePageInThread(
  doc: Doc,
  index: number,
  opts: PageOptions,
  registry: StepRegistry,
  services: PageServices,
): Promise<RestoredPage> {
  const started = performance.now();
  const { image: decoded, dpi } = await decodePage(doc, index);
  const prefix = `p${String(index + 1).padStart(3, '0')}`;
  await keep(opts.keepTempDir, `${prefix}-00-input`, decoded);
  const netsWanted = !opts.steps && opts.photoNet !== false;
  const planOptions = {
    rectify: opts.rectify,
    photoNet: netsWanted && photoNetAvailable() && registry.has(PHOTO_NET_STEP),
    dustNet: netsWanted && photoNetAvailable(DUST_NET_FILE) && registry.has(DUST_NET_STEP),
  };
  let plan = planPage(decoded, dpi, opts.mode ?? 'auto', planOptions);
  const clean = pageNetCleaner(registry, dpi, opts.pageNet);
  const netAtHand = clean !== undefined;
  const turn = opts.steps ? undefined : await settledTurn(decoded, dpi, plan, registry, services, clean);
  if (turn !== undefined) plan = planPage(decoded, dpi, opts.mode ?? 'auto', { ...planOptions, turn });
  const asCame = opts.steps ? undefined : readAsItCame(decoded, dpi, plan, services);
  const keepAs = opts.keepTempDir ? { dir: opts.keepTempDir, prefix } : undefined;
  // Steps that change the page's frame (perspective, quarter turns) come first: the guard, the steps and the
  // fallbacks all start from the page as they leave it, so every word box lies in the output's frame.
  const geometry = opts.steps ? [] : plan.geometry;
  const image = await runSteps(
    decoded,
    geometry,
    registry,
    keepAs && { ...keepAs, prefix: `${prefix}-geometry` },
  );
  const useNet = !opts.steps && plan.route === 'document' && netAtHand;
  let calls = opts.steps ?? plan.steps;
  // The word guard checks every page the measured plan gives a document step, whatever its kind (a mixed page
  // too); it reads the input meanwhile.
  const guarded = !opts.steps && (useNet || calls.some((c) => registry.get(c.name).kind === 'document'));
  const reading = guarded ? services.startGuard?.(image, dpi) : undefined;
  // A PDF stores a text page in few grey levels (encodeImage: document pages as PNG, the rest as JPEG): the guard
  // checks each candidate as it will be stored, so a page whose faint ink the rounding takes away falls back like
  // any page that reads worse.
  const guard: PageGuard | undefined =
    reading && doc.format === 'pdf' && plan.kind === 'document'
      ? { ...reading, check: async (candidate) => reading.check(await asStoredInPdf(candidate)) }
      : reading;
  // Pages without a document step (the photo plan) check each step against its input instead: a step that changes
  // the picture beyond what its damage explains is skipped.
  const selfChecked = !opts.steps && !guarded;
  const rejected: { step: string; reason: string }[] = [];
  let output = image;
  let applied = geometry.map((c) => c.name);
  // With the network, the classical steps are planned again on its output (what damage it left, how the page
  // lies); the classical plan on the input stays the fallback. The geometry steps ran before the network, so the
  // replan measures the page as the steps will get it (no second geometry search, no routing).
  // Damage across the whole page the plan measured (motion blur, scanner streaks) is taken out first: the network
  // learned to sharpen lighter blur, and it darkens a streak into a rule.
  if (useNet) {
    const prepared = await runSteps(
      image,
      plan.beforeNetwork,
      registry,
      keepAs && { ...keepAs, prefix: `${prefix}-00` },
    );
    output = await registry.get(PAGE_NET).run(prepared, { dpi });
    await keep(opts.keepTempDir, `${prefix}-00-${PAGE_NET}`, output);
    calls = planDocumentSteps(output, dpi, undefined, true).steps;
    applied.push(...plan.beforeNetwork.map((c) => c.name), PAGE_NET);
  }
  output = await runSteps(
    output,
    calls,
    registry,
    keepAs,
    selfChecked
      ? { check: (before, after, step) => photoStepRejected(before, after, registry.get(step)), rejected }
      : undefined,
  );
  applied = [
    ...applied,
    ...calls.map((c) => c.name).filter((name) => !rejected.some((r) => r.step === name)),
  ];
  let fallback: RestoredPage['fallback'] =
    rejected.length > 0
      ? { reason: rejected.map((r) => r.reason).join('; '), lostWords: [], selfCheck: true }
      : undefined;
  let words: OcrWord[] | undefined;
  let asInput = false;
  // Steps may change the resolution (upscaling); the page's physical size stays.
  let outDpi = Math.round((dpi * output.width) / image.width);
  const recognize = services.recognizeWords;
  const wantWords = (opts.ocr ?? doc.format === 'pdf') && recognize !== undefined;
  if (guard) {
    // The classical plan measured on the input, the network's first fallback.
    const runClassical = () =>
      runSteps(image, plan.steps, registry, keepAs && { ...keepAs, prefix: `${prefix}-classical` });
    let conservative: RawImage | undefined;
    const runConservative = async () =>
      (conservative ??= await runSteps(
        image,
        plan.conservative,
        registry,
        keepAs && { ...keepAs, prefix: `${prefix}-fallback` },
      ));
    // The names of the steps a page shows when a fallback (or the input) takes the full restoration's place.
    const stepsOf = (source: FallbackSource | 'input') =>
      [...geometry, ...{ classical: plan.steps, conservative: plan.conservative, input: [] }[source]].map(
        (c) => c.name,
      );
    const first = await checkedInTime(guard, output);
    // Lines of blobs can be texture: the noise of a grey photo, broken into JPEG blocks, lines up on the blocks' grid
    // (dev2 seed 9801 photo_004, the cameraman under sensor noise, motion blur and JPEG at quality 20: 9 text lines
    // found, whitened and flattened as paper, 22.1 → 5.8 dB). Where a page that is not mostly paper reads not one
    // word, as it came or restored, the OCR finds no text on it: it is restored as a photo.
    if (first?.reading && noTextRead(first.reading, plan, opts)) {
      const asPhoto = await restorePageInThread(doc, index, { ...opts, mode: 'photo' }, registry, services);
      return {
        ...asPhoto,
        measures: { ...asPhoto.measures, noWordsRead: 1 },
        ms: Math.round(performance.now() - started),
      };
    }
    if (!first) {
      // The OCR ran past its time limit on the restoration: no reading proves it, so the page shows the first
      // fallback that reads as well as the input, else the input.
      const safe = await firstSafe(image, guard, [
        ...(useNet ? [{ source: 'classical' as const, run: runClassical }] : []),
        { source: 'conservative', run: runConservative },
      ]);
      fallback = { reason: RESTORATION_UNREAD, lostWords: [] };
      output = safe.image;
      outDpi = Math.round((dpi * output.width) / image.width);
      words = safe.words;
      applied = stepsOf(safe.source);
      asInput = safe.source === 'input' && geometry.length === 0;
    } else {
      let verdict = first;
      // The classical plan's page where it was read beside the network's and not shown: a fallback still.
      let classicalRead: Fallback | undefined;
      let classicalTried = false;
      // The network learned from generated damage, and its page can read better than the input where it guessed at
      // letters: the classical plan's page is read too, and the page keeps it when it reads clearly better than the
      // network's, or, where the network's does not read clearly better than the input, than the input.
      const netProven = pageReadsBetter(verdict) && !pageReadsWorse(verdict);
      if (useNet && verdict.reading) {
        classicalTried = true;
        const classical = await runClassical();
        const second = await checkedInTime(guard, classical);
        // The second check may have found the network's page reading in another order than the input.
        const netDoubted = !netProven || pageReadsWorse(verdict) !== undefined;
        if (second?.reading && classicalReadsBetter(verdict.reading, second.reading, netDoubted)) {
          output = classical;
          verdict = second;
          applied = [...geometry, ...plan.steps].map((c) => c.name);
          await keep(opts.keepTempDir, `${prefix}-classical-reads-better`, output);
        } else if (second)
          classicalRead = { source: 'classical', run: () => Promise.resolve(classical), verdict: second };
      }
      // The whole page must read no worse than the input, and clearly better unless it shows the conservative steps;
      // otherwise it falls back to what does. With the network, the classical plan measured on the input is tried
      // before its conservative steps. A classical page read beside the network's and not shown comes after them, on
      // the verdict it had: better a restoration that reads as well as the input than the input itself (fresh seed
      // 731904 doc_017, a skewed form: the network's page read in another order, the conservative steps' page 2
      // points less sure than the input, the classical page as well; the page was shown as it came, CER 0.315, where
      // the classical page reads 0.011).
      const safer = await neverWorse(image, verdict, guard, [
        ...(useNet && !classicalTried ? [{ source: 'classical' as const, run: runClassical }] : []),
        { source: 'conservative', run: runConservative },
        ...(classicalRead ? [classicalRead] : []),
      ]);
      // A page measured as damaged is not shown as it came when its full restoration reads as well as the input with
      // every clearly read word kept (neverWorse found no fallback that does): the guard's OCR finds its way through a
      // skew of 2 degrees, a reader and an OCR held to the page's lines do not (fresh seed 102991 pdf_001 page 4, a
      // skewed form under scanner borders: 0.199 as it came, 0.013 restored).
      // Conservative steps that found nothing to do show the page as it came too (dev seed 20261231 doc_004, Gaussian
      // noise on white paper at 300 DPI: they changed no pixel, and the page came back unchanged).
      const restorationKept =
        safer !== undefined &&
        !safer.worse &&
        plan.route === 'document' &&
        documentDamageMeasured(plan) &&
        (safer.source === 'input' || showsAsItCame(image, safer.image));
      if (safer && !restorationKept) {
        // A restoration that read no better is no guard failure when the page shows the conservative steps; a damaged
        // page shown as it came says why (no fallback read as well as the input).
        if (safer.worse || safer.source === 'input')
          fallback = { reason: safer.reason, lostWords: verdict.lostWords };
        output = safer.image;
        outDpi = Math.round((dpi * output.width) / image.width);
        applied = stepsOf(safer.source);
        words = safer.words;
        asInput = safer.source === 'input' && geometry.length === 0;
        await keep(opts.keepTempDir, `${prefix}-never-worse-${safer.source}`, output);
      } else if (verdict.accept && verdict.badLines.length === 0) words = verdict.outputWords;
      else {
        const found = { reason: verdict.reason ?? 'words changed', lostWords: verdict.lostWords };
        // Lines found on the input as it came only line up with the output when no step moved the page.
        const placeable = verdict.frame === 'output' || !applied.includes('deskew');
        const lines = verdict.badLines.length;
        const patched =
          placeable && (lines <= 2 || lines <= verdict.checkedLines * MAX_PATCHED_LINE_SHARE)
            ? await patchBadWords(output, verdict, runConservative, recognize, outDpi)
            : undefined;
        if (patched) {
          output = patched.image;
          fallback = { ...found, words: verdict.badWords.length, sources: patched.sources };
          await keep(opts.keepTempDir, `${prefix}-patched`, output);
          if (wantWords && verdict.outputWords) {
            // The text layer's words on those lines are read again.
            const { lineBoxes } = patched;
            words = mergeWords(
              verdict.outputWords,
              await readInside(output, lineBoxes, recognize, outDpi),
              lineBoxes,
            );
          }
        } else if (!verdict.accept) {
          // The whole page falls back: to the conservative steps when they read as well as the input, else to the
          // input (on a stained page they can read worse: the faded words under a stain stay faded, the rest moves).
          fallback = found;
          const safe = await firstSafe(image, guard, [{ source: 'conservative', run: runConservative }]);
          output = safe.image;
          words = safe.words;
          applied = stepsOf(safe.source);
          asInput = safe.source === 'input' && geometry.length === 0;
        } else words = verdict.outputWords;
      }
    }
  }
  const readShown = async () =>
    output === image && guard?.readInput ? guard.readInput() : (await recognize!(output, outDpi)).words;
  // A rectified page shown must not read far less than the page as it came (readsFarMore), else the page is restored
  // again unrectified. The word guard compares every restoration with the page as the geometry steps leave it, so it
  // cannot see what they cost. Rectified, a grainy grey page under uneven light fills the whole frame, and the OCR can
  // take its text for a picture (aged profile seed 9907 doc_018, an invoice photographed with a phone: 94 words read
  // clearly as it came, 21 rectified; the guard then preferred the one restoration that read more than the rectified
  // page, 40 words: CER 0.169 as it came, 0.553 shown, 0.169 restored again). Restoration mostly brings such a page
  // back, so the page shown is judged, not the page rectified (phone5 profile seed 5502 doc_003: 319 words as it came,
  // 79 rectified, 418 shown, CER 0.119; unrectified 0.130).
  const asCameRead = await asCame;
  if (asCameRead && readsFarMore(asCameRead, readingQuality((words ??= await readShown())))) {
    const unrectified = await restorePageInThread(
      doc,
      index,
      { ...opts, rectify: false },
      registry,
      services,
    );
    return {
      ...unrectified,
      measures: { ...unrectified.measures, rectificationReadsWorse: 1 },
      ms: Math.round(performance.now() - started),
    };
  }
  if (!wantWords) words = [];
  else words ??= await readShown();
  const format = doc.format === 'pdf' ? 'pdf-page' : doc.format;
  const encoded = await encodeImage(output, format, outDpi, plan.kind);
  return {
    index,
    bytes: encoded.bytes,
    mime: encoded.mime,
    width: output.width,
    height: output.height,
    dpi: outDpi,
    words,
    kind: plan.kind,
    steps: applied,
    ...(fallback ? { fallback } : {}),
    measures: plan.measures,
    ...(asInput ? { asInput: true as const } : {}),
    ms: Math.round(performance.now() - started),
  };
}
