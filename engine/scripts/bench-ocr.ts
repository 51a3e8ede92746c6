// Prints OCR speed and accuracy on eval pages for the engine's OCR back-ends, in the same run on the same
// pages: the Tesseract binary (Debian's "fast" model), tesseract.js (LSTM best_int model) and PaddleOCR PP-OCRv4
// (ONNX). CER follows the eval scorer's normalisation; "bow" is its order-free bag-of-words error (1 - F1),
// which does not punish reading order. CPU time counts this process and its finished children (the binary).
// Usage: npm run bench:ocr -w @folio/engine -- [--eval DIR] [--only native|paddle|tesseract]
//        [samples…]
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { RawImage } from '../src/image.js';
import {
  recognizeWordsNative,
  recognizeWordsPaddle,
  recognizeWordsTesseract,
  terminateOcr,
  warmPaddle,
} from '../src/ocr/index.js';
import type { OcrResult } from '../src/ocr/recognize.js';
import { bow, cer, takeOption } from './ocr-score.js';
import { publicSet } from './settings.js';

const args = process.argv.slice(2);
const option = (name: string) => takeOption(args, name);
const evalDir = option('--eval') ?? publicSet;
const only = option('--only');
const samples = args.length > 0 ? args : ['doc_005', 'doc_011', 'doc_017', 'doc_022', 'doc_026', 'doc_028'];

async function grey(file: string): Promise<RawImage> {
  const { data, info } = await sharp(file).toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height, channels: 1 };
}

interface Engine {
  name: string;
  run: (img: RawImage, psm: number, dpi: number) => Promise<OcrResult>;
}
const all: Engine[] = [
  { name: 'native', run: (img, psm, dpi) => recognizeWordsNative(img, { psm, dpi }) },
  { name: 'tesseract', run: (img, psm, dpi) => recognizeWordsTesseract(img, { psm, dpi }) },
  { name: 'paddle', run: (img, psm, dpi) => recognizeWordsPaddle(img, { psm, dpi }) },
];
const engines = all.filter((e) => only === undefined || e.name === only);

// Start-up is paid once per engine thread; keep it out of the per-page figures.
const warm = await grey(path.join(evalDir, samples[0]!, 'clean.png'));
for (const engine of engines) {
  const start = performance.now();
  if (engine.name === 'paddle') await warmPaddle();
  await engine.run({ ...warm, data: warm.data.slice(0, warm.width * 64), height: 64 }, 3, 150);
  console.log(`${engine.name} start-up ${(performance.now() - start).toFixed(0)} ms`);
}

/** CPU ms of this process (all threads) and of its children that have ended (Linux: /proc/self/stat). */
function cpuMsNow(): number {
  const own = process.cpuUsage();
  // Fields after the command name: …, cutime (14th), cstime (15th), in clock ticks (100 per second).
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  const children = (Number(fields[13]) + Number(fields[14])) * 10;
  return (own.user + own.system) / 1000 + children;
}

const totals = new Map<
  string,
  { ms: number; cpuMs: number; cer: number; bow: number; words: number; n: number }
>();
// Wall time suffers from other jobs on a shared machine; CPU time of the process (all its threads, so
// tesseract.js's worker thread too) is the steadier figure.
console.log('| sample | variant | engine | wall ms | CPU ms | CER | bow | words |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
for (const sample of samples) {
  const dir = path.join(evalDir, sample);
  const meta = JSON.parse(await readFile(path.join(dir, 'meta.json'), 'utf8')) as {
    dpi: number;
    ocr?: { psm?: number };
  };
  const reference = await readFile(path.join(dir, 'text.txt'), 'utf8');
  for (const variant of ['clean.png', 'degraded.png']) {
    const img = await grey(path.join(dir, variant));
    for (const engine of engines) {
      const start = performance.now();
      const cpuStart = cpuMsNow();
      const result = await engine.run(img, meta.ocr?.psm ?? 3, meta.dpi);
      const ms = performance.now() - start;
      const cpuMs = cpuMsNow() - cpuStart;
      const row = { ms, cpuMs, cer: cer(result.text, reference), bow: bow(result.text, reference) };
      const key = `${engine.name} ${variant}`;
      const t = totals.get(key) ?? { ms: 0, cpuMs: 0, cer: 0, bow: 0, words: 0, n: 0 };
      totals.set(key, {
        ms: t.ms + row.ms,
        cpuMs: t.cpuMs + row.cpuMs,
        cer: t.cer + row.cer,
        bow: t.bow + row.bow,
        words: t.words + result.words.length,
        n: t.n + 1,
      });
      console.log(
        `| ${sample} | ${variant} | ${engine.name} | ${ms.toFixed(0)} | ${cpuMs.toFixed(0)} | ${row.cer.toFixed(3)} | ${row.bow.toFixed(3)} | ${result.words.length} |`,
      );
    }
  }
}
console.log('\n| engine | variant | mean wall ms per page | mean CPU ms per page | mean CER | mean bow |');
console.log('| --- | --- | --- | --- | --- | --- |');
for (const [key, t] of totals) {
  const [name, variant] = key.split(' ');
  console.log(
    `| ${name} | ${variant} | ${(t.ms / t.n).toFixed(0)} | ${(t.cpuMs / t.n).toFixed(0)} | ${(t.cer / t.n).toFixed(3)} | ${(t.bow / t.n).toFixed(3)} |`,
  );
}
await terminateOcr();
