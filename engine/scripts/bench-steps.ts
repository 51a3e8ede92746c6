// Micro-benchmark: milliseconds per step, each measured alone on a real 150-DPI letter page of the eval set.
// Usage: npm run bench:steps -w @folio/engine [-- --page doc_019]
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { estimateNoise, estimateSkew } from '../src/analysis/measure.js';
import { planPage } from '../src/analysis/plan.js';
import type { RawImage } from '../src/image.js';
import { decodePage, loadDocument } from '../src/io/decode.js';
import { createDefaultRegistry } from '../src/steps/index.js';
import { toGrey } from '../src/pixels/index.js';
import { evalDir } from './settings.js';

const { values } = parseArgs({
  options: { page: { type: 'string', default: 'doc_019' }, photo: { type: 'string', default: 'photo_002' } },
});

async function load(sample: string): Promise<{ image: RawImage; dpi: number }> {
  const dir = path.join(evalDir, 'public', sample);
  const file = (await import('node:fs')).readdirSync(dir).find((f) => f.startsWith('degraded.'))!;
  const doc = await loadDocument(await readFile(path.join(dir, file)));
  return decodePage(doc, 0);
}

async function time(label: string, fn: () => unknown): Promise<void> {
  await fn(); // warm-up
  const runs = 3;
  const started = performance.now();
  for (let i = 0; i < runs; i++) await fn();
  console.log(`${label.padEnd(22)} ${((performance.now() - started) / runs).toFixed(0).padStart(6)} ms`);
}

const registry = createDefaultRegistry();
const page = await load(values.page);
const photo = await load(values.photo);
const grey = toGrey(page.image, 'max');
console.log(`document page ${values.page}: ${page.image.width}×${page.image.height} at ${page.dpi} DPI`);
await time('measure: plan', () => planPage(page.image, page.dpi, 'auto'));
await time('measure: noise', () => estimateNoise(page.image));
await time('measure: skew', () => estimateSkew(grey));
for (const step of registry.list().filter((s) => s.kind === 'document')) {
  const input = step.name === 'whiten-paper' ? page.image : grey;
  await time(step.name, () => step.run(input, { dpi: page.dpi, angle: 1.5, sigma: 8 }));
}
console.log(`photo ${values.photo}: ${photo.image.width}×${photo.image.height}`);
for (const step of registry.list().filter((s) => s.kind === 'photo')) {
  await time(step.name, () => step.run(photo.image, { sigma: 8 }));
}
