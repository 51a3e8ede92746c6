// Calibrates the word guard on the public eval pages: the clean page stands in for a perfect restoration of
// the degraded one, so every rejection is a false alarm. Prints, per setting, how many pages the guard
// would reject and the words behind it. OCR results are cached in --cache (default /tmp/folio-guard-cal).
// Usage: npm run calibrate:guard -w @folio/engine -- [--eval DIR] [--cache DIR]
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { compareWords, DEFAULT_GUARD_OPTIONS, type GuardOptions } from '../src/guard/check.js';
import { recognizeWords, terminateOcr } from '../src/ocr/index.js';
import type { OcrResult } from '../src/ocr/recognize.js';
import { publicSet } from './settings.js';

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1]! : fallback;
};
const evalDir = opt('--eval', publicSet);
const cacheDir = opt('--cache', '/tmp/folio-guard-cal');
await mkdir(cacheDir, { recursive: true });

async function ocr(sample: string, variant: string, dpi: number): Promise<OcrResult> {
  const cache = path.join(cacheDir, `${sample}-${variant}.json`);
  try {
    return JSON.parse(await readFile(cache, 'utf8')) as OcrResult;
  } catch {
    const { data, info } = await sharp(path.join(evalDir, sample, variant))
      .toColourspace('b-w')
      .raw()
      .toBuffer({ resolveWithObject: true });
    const start = performance.now();
    const result = await recognizeWords(
      { data: new Uint8Array(data), width: info.width, height: info.height, channels: 1 },
      { dpi },
    );
    console.log(`${sample} ${variant} ${(performance.now() - start).toFixed(0)} ms`);
    await writeFile(cache, JSON.stringify(result));
    return result;
  }
}

const samples = (await readdir(evalDir)).filter((s) => s.startsWith('doc_')).sort();
const pages: { sample: string; input: OcrResult; output: OcrResult }[] = [];
for (const sample of samples) {
  const meta = JSON.parse(await readFile(path.join(evalDir, sample, 'meta.json'), 'utf8')) as { dpi: number };
  pages.push({
    sample,
    input: await ocr(sample, 'degraded.png', meta.dpi),
    output: await ocr(sample, 'clean.png', meta.dpi),
  });
}
await terminateOcr();

const grid: Partial<GuardOptions>[] = [];
for (const minConfidence of [80, 85, 90, 95])
  for (const minLength of [3, 4])
    for (const maxLostShare of [0.02, 0.05]) grid.push({ minConfidence, minLength, maxLostShare });
grid.unshift({});
for (const setting of grid) {
  const opts = { ...DEFAULT_GUARD_OPTIONS, ...setting };
  let checked = 0;
  const rejected: string[] = [];
  for (const { sample, input, output } of pages) {
    const r = compareWords(input, output, { x: 1, y: 1 }, opts);
    checked += r.inputWords;
    if (!r.accept) {
      const bad = [...r.lostWords, ...r.changedWords.map((c) => `${c.input}→${c.output}`)].slice(0, 4);
      rejected.push(`${sample} (${bad.join(', ')})`);
    }
  }
  console.log(
    `minConfidence ${opts.minConfidence} minLength ${opts.minLength} maxLostShare ${opts.maxLostShare}: ` +
      `${rejected.length}/${pages.length} rejected, ${checked} words checked` +
      (rejected.length > 0 ? `\n    ${rejected.join('\n    ')}` : ''),
  );
}
