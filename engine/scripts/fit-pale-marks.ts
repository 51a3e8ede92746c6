// Fits the pale-mark model (src/steps/pale-marks.ts PALE_MARK_MODEL) on a generated set: each unskewed document's
// degraded page goes through the page network, each dark mark of the network's page is labelled print where most of
// its pixels lie on the clean page's ink (grown by 2 px), and a logistic regression of print against the mark's depth
// next to the page's ink depth and its edge sharpness is fitted, print removed weighing three times a mark left.
// Prints the weights and what they clear. Skewed, photographed and bordered pages are left out: their clean page does
// not lie over the degraded one.
// Usage: npm run fit:pale-marks -w @folio/engine -- --set DIR (a set from ../shared/eval/tools/make_set.py)
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { RawImage } from '../src/image.js';
import { runPageNet } from '../src/models/page-net.js';
import { rankFilter } from '../src/pixels/index.js';
import { inkDepthOf, isPaleMark, markFeatures } from '../src/steps/pale-marks.js';

const args = process.argv.slice(2);
const setDir = args[args.indexOf('--set') + 1];
if (!args.includes('--set') || !setDir) throw new Error('Usage: fit-pale-marks.ts --set DIR');
/** Damage that moves the page against its clean original. */
const MOVED = new Set(['skew', 'perspective', 'scanner_borders']);
/** The weight of a mark of print in the fit: clearing print costs more than leaving a pale mark. */
const PRINT_WEIGHT = 3;

async function load(file: string, channels: 1 | 3): Promise<RawImage> {
  const { data, info } = await sharp(file)
    .removeAlpha()
    .toColourspace(channels === 1 ? 'b-w' : 'srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height, channels };
}

interface Sample {
  page: string;
  dpi: number;
  x: [number, number];
  /** The mark's own depth (the model's cap applies to it). */
  depth: number;
  print: boolean;
  area: number;
}

const samples: Sample[] = [];
for (const name of (await readdir(setDir)).filter((n) => n.startsWith('doc_')).sort()) {
  const meta = JSON.parse(await readFile(path.join(setDir, name, 'meta.json'), 'utf8')) as {
    dpi: number;
    damages: { type: string }[];
  };
  if (meta.damages.some((d) => MOVED.has(d.type))) continue;
  const input = await load(path.join(setDir, name, 'degraded.png'), 3);
  const clean = await load(path.join(setDir, name, 'clean.png'), 1);
  const { marks, labels } = markFeatures(input, await runPageNet(input), meta.dpi);
  const inkDepth = inkDepthOf(marks);
  const nearInk = rankFilter(clean.data, clean.width, clean.height, 2, false);
  const onInk = new Int32Array(marks.length);
  for (let i = 0; i < labels.length; i++) if (labels[i]! >= 0 && nearInk[i]! < 160) onInk[labels[i]!]! += 1;
  marks.forEach((m, k) =>
    samples.push({
      page: name,
      dpi: meta.dpi,
      x: [m.depth / Math.max(inkDepth, 1e-3), m.sharpness],
      depth: m.depth,
      print: onInk[k]! / m.area > 0.5,
      area: m.area,
    }),
  );
  console.log(`${name}: ${marks.length} marks, ink depth ${inkDepth.toFixed(3)}`);
}

// Newton's method on the weighted log-likelihood (a little ridge keeps it stable).
const fitted = samples.filter((s) => s.area >= 3 * (s.dpi / 150) ** 2);
let beta = [0, 0, 0];
for (let iteration = 0; iteration < 50; iteration++) {
  const gradient = [0, 0, 0];
  const hessian = [1e-3, 0, 0, 0, 1e-3, 0, 0, 0, 1e-3];
  for (const s of fitted) {
    const f = [s.x[0], s.x[1], 1];
    const p = 1 / (1 + Math.exp(-(beta[0]! * f[0]! + beta[1]! * f[1]! + beta[2]!)));
    const w = s.print ? PRINT_WEIGHT : 1;
    for (let a = 0; a < 3; a++) {
      gradient[a]! += w * (p - (s.print ? 1 : 0)) * f[a]!;
      for (let b = 0; b < 3; b++) hessian[a * 3 + b]! += w * p * (1 - p) * f[a]! * f[b]!;
    }
  }
  beta = beta.map((v, a) => v - solve3(hessian, gradient)[a]!);
}
const model = { depth: beta[0]!, sharpness: beta[1]!, bias: beta[2]!, minOdds: 0.25 };
console.log(
  'model',
  JSON.stringify(Object.fromEntries(Object.entries(model).map(([k, v]) => [k, +v.toFixed(2)]))),
);
const cleared = (s: Sample) =>
  isPaleMark({ area: s.area, depth: s.depth, sharpness: s.x[1] }, s.depth / s.x[0], s.dpi, model);
const print = fitted.filter((s) => s.print);
const pale = fitted.filter((s) => !s.print);
console.log(`marks ${fitted.length}: print ${print.length}, ${print.filter(cleared).length} cleared;`);
console.log(`  others ${pale.length}, ${pale.filter(cleared).length} cleared`);

/** x with H x = g for a 3×3 H (Cramer's rule). */
function solve3(h: number[], g: number[]): number[] {
  const det = (m: number[]) =>
    m[0]! * (m[4]! * m[8]! - m[5]! * m[7]!) -
    m[1]! * (m[3]! * m[8]! - m[5]! * m[6]!) +
    m[2]! * (m[3]! * m[7]! - m[4]! * m[6]!);
  const d = det(h);
  return [0, 1, 2].map((c) => det(h.map((v, i) => (i % 3 === c ? g[Math.floor(i / 3)]! : v))) / d);
}
