// Prints OCR speed and character error rate on eval pages: tesseract.js (this module) next to the
// Tesseract CLI the eval scorer uses, when it is installed.
// Usage: node --import tsx src/ocr/bench.ts [--eval /work/shared/eval/public] [samples…]
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { RawImage } from '../image.js';
import { recognizeWords, terminateOcr } from './index.js';

const args = process.argv.slice(2);
const evalIndex = args.indexOf('--eval');
const evalDir = evalIndex >= 0 ? args[evalIndex + 1]! : '/work/shared/eval/public';
const named = args.filter((_, i) => i !== evalIndex && i !== evalIndex + 1);
// Default: the five typewriter letters of the public set plus one plain page.
const samples = named.length > 0 ? named : ['doc_005', 'doc_010', 'doc_014', 'doc_019', 'doc_022', 'doc_029'];

function normalise(text: string): string {
  return text.normalize('NFKC').split(/\s+/).filter(Boolean).join(' ');
}

function levenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  let cur = new Array<number>(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    [prev, cur] = [cur, prev];
  }
  return prev[b.length]!;
}

function cer(hypothesis: string, reference: string): number {
  const ref = normalise(reference);
  return levenshtein(normalise(hypothesis), ref) / Math.max(1, ref.length);
}

async function grey(file: string): Promise<RawImage> {
  const { data, info } = await sharp(file).toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height, channels: 1 };
}

function cli(file: string, psm: number, dpi: number): string | undefined {
  try {
    return execFileSync('tesseract', [file, 'stdout', '--psm', String(psm), '--dpi', String(dpi)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch {
    return undefined;
  }
}

const rows: string[] = [];
for (const sample of samples) {
  const dir = path.join(evalDir, sample);
  const meta = JSON.parse(await readFile(path.join(dir, 'meta.json'), 'utf8')) as {
    dpi: number;
    layout: string;
    ocr?: { psm?: number };
  };
  const psm = meta.ocr?.psm ?? 3;
  const reference = await readFile(path.join(dir, 'text.txt'), 'utf8');
  for (const variant of ['clean.png', 'degraded.png']) {
    const file = path.join(dir, variant);
    const img = await grey(file).catch(() => undefined);
    if (!img) continue;
    const start = performance.now();
    const result = await recognizeWords(img, { psm, dpi: meta.dpi });
    const jsMs = performance.now() - start;
    const cliStart = performance.now();
    const cliText = cli(file, psm, meta.dpi);
    const cliMs = performance.now() - cliStart;
    rows.push(
      [
        sample.padEnd(8),
        meta.layout.padEnd(9),
        variant.padEnd(12),
        `${img.width}×${img.height}`.padEnd(10),
        `js ${jsMs.toFixed(0).padStart(6)} ms  CER ${(cer(result.text, reference) * 100).toFixed(2).padStart(6)}%`,
        cliText === undefined
          ? 'cli n/a'
          : `cli ${cliMs.toFixed(0).padStart(6)} ms  CER ${(cer(cliText, reference) * 100).toFixed(2).padStart(6)}%`,
      ].join('  '),
    );
    console.log(rows.at(-1));
  }
}
await terminateOcr();
