// Speed knobs of tesseract.js, measured side by side in one run on the same pages: each variant has its own
// tesseract.js worker, and the variants take turns on every page, so a busy machine hurts them alike. The
// figure to compare is the CPU time of the process (all threads, the OCR worker threads included); CER uses the
// eval scorer's normalisation (as bench-ocr.ts).
// Usage: npm run bench:ocr-speed -w @folio/engine -- [--eval DIR] [--variants a,b,…] [samples…]
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import v8 from 'node:v8';
import sharp from 'sharp';
import Tesseract from 'tesseract.js';
import { otsuThreshold } from '../src/pixels/levels.js';
import type { RawImage } from '../src/image.js';
import { toGrey } from '../src/pixels/index.js';
import { cer, takeOption } from './ocr-score.js';
import { reduceBy } from '../src/guard/check.js';
import { readWith, type OcrResult } from '../src/ocr/recognize.js';
import { ENG_LANG_PATH } from '../src/ocr/worker.js';
import { publicSet } from './settings.js';

const args = process.argv.slice(2);
const option = (name: string) => takeOption(args, name);
const evalDir = option('--eval') ?? publicSet;
const wanted = option('--variants')?.split(',');
const samples =
  args.length > 0
    ? args
    : ['doc_005', 'doc_011', 'doc_012', 'doc_016', 'doc_017', 'doc_019', 'doc_023', 'doc_024'];

/** The English "fast" LSTM model of Debian's tesseract-ocr-eng package (tessdata_fast), for comparison only. */
const DEBIAN_TESSDATA = '/usr/share/tesseract-ocr/5/tessdata';

interface Variant {
  name: string;
  /** Worker settings; variants with equal settings share a worker. */
  worker: 'base' | 'nodawg' | 'relaxed' | 'fast';
  prepare?: (img: RawImage, dpi: number) => { img: RawImage; dpi: number };
  params?: Record<string, string>;
}

/** The page binarised at its Otsu threshold (the engine's own, analysis/measure.ts). */
function otsu(img: RawImage): RawImage {
  const grey = toGrey(img);
  const threshold = otsuThreshold(grey);
  return { ...grey, data: grey.data.map((v) => (v > threshold ? 255 : 0)) };
}

const all: Variant[] = [
  { name: 'base', worker: 'base' },
  // The same worker again: the spread between the two is the noise of the run.
  { name: 'base-again', worker: 'base' },
  { name: 'nodawg', worker: 'nodawg' },
  { name: 'relaxed', worker: 'relaxed' },
  { name: 'fast-debian', worker: 'fast' },
  { name: 'binarised', worker: 'base', prepare: (img, dpi) => ({ img: otsu(img), dpi }) },
  { name: 'half', worker: 'base', prepare: (img, dpi) => ({ img: reduceBy(img, 2, 2), dpi: dpi / 2 }) },
  { name: 'psm6', worker: 'base', params: { tessedit_pageseg_mode: '6' } },
  { name: 'layout-only', worker: 'base' },
];
const variants = all.filter((v) => wanted === undefined || wanted.includes(v.name));

const DAWGS_OFF = {
  load_system_dawg: '0',
  load_freq_dawg: '0',
  load_punc_dawg: '0',
  load_number_dawg: '0',
  load_unambig_dawg: '0',
  load_bigram_dawg: '0',
};

async function create(kind: Variant['worker']): Promise<Tesseract.Worker> {
  if (kind === 'relaxed') v8.setFlagsFromString('--experimental-wasm-relaxed-simd');
  const fast = kind === 'fast';
  return Tesseract.createWorker(
    'eng',
    Tesseract.OEM.LSTM_ONLY,
    { langPath: fast ? DEBIAN_TESSDATA : ENG_LANG_PATH, gzip: !fast, cacheMethod: 'none' },
    kind === 'nodawg' ? DAWGS_OFF : {},
  );
}

// Workers without the relaxed-SIMD flag first: the flag is process-wide and read when a worker loads its core.
const kinds = [...new Set(variants.map((v) => v.worker))].sort(
  (a, b) => Number(a === 'relaxed') - Number(b === 'relaxed'),
);
const workers = new Map<string, Tesseract.Worker>();
for (const kind of kinds) {
  const start = performance.now();
  workers.set(kind, await create(kind));
  console.log(`worker ${kind}: ${(performance.now() - start).toFixed(0)} ms`);
}

async function grey(file: string): Promise<RawImage> {
  const { data, info } = await sharp(file).toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height, channels: 1 };
}

async function run(variant: Variant, img: RawImage, dpi: number): Promise<OcrResult> {
  const worker = workers.get(variant.worker)!;
  const input = variant.prepare ? variant.prepare(img, dpi) : { img, dpi };
  if (variant.name === 'layout-only') {
    const { toPnm } = await import('../src/ocr/recognize.js');
    await worker.recognize(
      toPnm(input.img),
      {},
      { text: false, blocks: false, hocr: false, tsv: false, layoutBlocks: true },
    );
    return { text: '', words: [], lines: [] };
  }
  if (variant.params) await worker.setParameters(variant.params);
  try {
    return await readWith(worker, input.img, {
      dpi: input.dpi,
      psm: Number(variant.params?.tessedit_pageseg_mode ?? 3),
    });
  } finally {
    if (variant.params) await worker.setParameters({ tessedit_pageseg_mode: Tesseract.PSM.AUTO });
  }
}

// WebAssembly starts on baseline code and is optimised while it runs: one warm-up page per worker.
const warm = await grey(path.join(evalDir, samples[0]!, 'degraded.png'));
for (const worker of workers.values()) await readWith(worker, warm, { dpi: 150 });

const totals = new Map<string, { cpuMs: number; cer: number; n: number }>();
console.log('| sample | page | variant | CPU ms | CER | words |');
console.log('| --- | --- | --- | --- | --- | --- |');
for (const sample of samples) {
  const dir = path.join(evalDir, sample);
  const meta = JSON.parse(await readFile(path.join(dir, 'meta.json'), 'utf8')) as { dpi: number };
  const reference = await readFile(path.join(dir, 'text.txt'), 'utf8');
  for (const page of ['clean', 'degraded']) {
    const img = await grey(path.join(dir, `${page}.png`));
    for (const variant of variants) {
      const cpuStart = process.cpuUsage();
      const result = await run(variant, img, meta.dpi);
      const cpu = process.cpuUsage(cpuStart);
      const cpuMs = (cpu.user + cpu.system) / 1000;
      const rowCer = cer(result.text, reference);
      for (const key of [`${variant.name} ${page}`, `${variant.name} all`]) {
        const t = totals.get(key) ?? { cpuMs: 0, cer: 0, n: 0 };
        totals.set(key, { cpuMs: t.cpuMs + cpuMs, cer: t.cer + rowCer, n: t.n + 1 });
      }
      console.log(
        `| ${sample} | ${page} | ${variant.name} | ${cpuMs.toFixed(0)} | ${rowCer.toFixed(3)} | ${result.words.length} |`,
      );
    }
  }
}
console.log('\n| variant | pages | mean CPU ms per page | mean CER |');
console.log('| --- | --- | --- | --- |');
for (const [key, t] of [...totals].sort(([a], [b]) => a.localeCompare(b))) {
  console.log(`| ${key} | ${t.n} | ${(t.cpuMs / t.n).toFixed(0)} | ${(t.cer / t.n).toFixed(4)} |`);
}
for (const worker of workers.values()) await worker.terminate();
