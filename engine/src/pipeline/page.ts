// One page, start to finish, in the current thread: decode, measure, plan, run steps, guard, OCR, encode.
// Workers call this; tests may too. Everything it returns is plain data, so the job runner can checkpoint it.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sharpOf } from '../steps/pixels.js';
import { planPage, type RestoreMode } from '../analysis/plan.js';
import type { PageKind } from '../analysis/measure.js';
import type { RawImage } from '../image.js';
import { decodePage, type Doc } from '../io/decode.js';
import { encodeImage, type OcrWord } from '../io/encode.js';
import type { StepCall, StepRegistry } from '../steps/registry.js';
import type { PageServices } from './services.js';

export interface PageOptions {
  mode?: RestoreMode;
  /** Folder for named per-page intermediates (kept for debugging). */
  keepTempDir?: string;
  /** Runs exactly these steps instead of the measured plan (tools, benchmarks and tests). */
  steps?: StepCall[];
  /** OCR words for a PDF text layer; on by default for PDF input. */
  ocr?: boolean;
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
  /** Set when the word guard rejected the full plan and the conservative steps were used. */
  fallback?: { reason: string; lostWords: string[] };
  measures: Record<string, number>;
  ms: number;
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

export async function runSteps(
  image: RawImage,
  calls: StepCall[],
  registry: StepRegistry,
  keepAs?: { dir: string; prefix: string },
): Promise<RawImage> {
  let current = image;
  for (const [i, call] of calls.entries()) {
    current = await registry.get(call.name).run(current, call.params);
    await keep(keepAs?.dir, `${keepAs?.prefix}-${String(i + 1).padStart(2, '0')}-${call.name}`, current);
  }
  return current;
}

export async function restorePageInThread(
  doc: Doc,
  index: number,
  opts: PageOptions,
  registry: StepRegistry,
  services: PageServices,
): Promise<RestoredPage> {
  const started = performance.now();
  const { image, dpi } = await decodePage(doc, index);
  const prefix = `p${String(index + 1).padStart(3, '0')}`;
  await keep(opts.keepTempDir, `${prefix}-00-input`, image);
  const plan = planPage(image, dpi, opts.mode ?? 'auto');
  const calls = opts.steps ?? plan.steps;
  const keepAs = opts.keepTempDir ? { dir: opts.keepTempDir, prefix } : undefined;
  // The word guard checks document pages restored by the measured plan; it reads the input meanwhile.
  const guarded = plan.kind !== 'photo' && !opts.steps && calls.length > 0;
  const guard = guarded ? services.startGuard?.(image, dpi) : undefined;
  let output = await runSteps(image, calls, registry, keepAs);
  let applied = calls.map((c) => c.name);
  let fallback: RestoredPage['fallback'];
  let words: OcrWord[] | undefined;
  if (guard) {
    const verdict = await guard.check(output);
    words = verdict.accept ? verdict.outputWords : undefined;
    if (!verdict.accept) {
      fallback = { reason: verdict.reason ?? 'words changed', lostWords: verdict.lostWords };
      output = await runSteps(
        image,
        plan.conservative,
        registry,
        keepAs && { ...keepAs, prefix: `${prefix}-fallback` },
      );
      applied = plan.conservative.map((c) => c.name);
    }
  }
  // Steps may change the resolution (upscaling); the page's physical size stays.
  const outDpi = Math.round((dpi * output.width) / image.width);
  const recognize = services.recognizeWords;
  const wantWords = (opts.ocr ?? doc.format === 'pdf') && recognize !== undefined;
  if (!wantWords) words = [];
  else words ??= (await recognize(output, outDpi)).words;
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
    ms: Math.round(performance.now() - started),
  };
}
