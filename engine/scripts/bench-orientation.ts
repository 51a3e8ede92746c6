// How often a page scanned sideways or upside down comes out upright: every document page of each set, turned all
// four ways, through the glyph vote alone and through the engine's whole turn decision (the vote, Tesseract's
// orientation detection where the vote is unsure, and the readings that confirm a turn). Right: the page ends
// upright; wrong: it ends turned; left: a turned page stays as it came. Seconds are wall time of the decision.
// Usage: npm run bench:orientation -w @folio/engine -- [SET_DIR…]   (the public set by default)
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { planPage } from '../src/analysis/plan.js';
import { measureOrientation } from '../src/analysis/orientation.js';
import { decodePage, loadDocument } from '../src/io/decode.js';
import { terminateOcr } from '../src/ocr/index.js';
import { toGrey } from '../src/pixels/index.js';
import { turnImage } from '../src/pixels/geometry.js';
import { pageNetCleaner, settledTurn } from '../src/pipeline/page.js';
import { threadServices } from '../src/pipeline/thread-services.js';
import { createDefaultRegistry } from '../src/steps/index.js';
import { publicSet } from './settings.js';

const sets = process.argv.length > 2 ? process.argv.slice(2) : [publicSet];
const registry = createDefaultRegistry();
const services = threadServices();
// The engine cleans a page it cannot orient with the trained network, where it has one.
const cleanAt = (dpi: number) => pageNetCleaner(registry, dpi);

interface Tally {
  right: number;
  wrong: number;
  left: number;
}
const tally = (): Tally => ({ right: 0, wrong: 0, left: 0 });
function count(t: Tally, ended: number, wanted: number, scanned: number) {
  if (ended === wanted) t.right++;
  else if (ended === 0 && scanned !== 0) t.left++;
  else t.wrong++;
}

console.log(
  '| set | pages × 4 | glyph vote: right / wrong / left | engine: right / wrong / left | s per page |',
);
console.log('| --- | --- | --- | --- | --- |');
for (const set of sets) {
  const vote = tally();
  const engine = tally();
  let seconds = 0;
  let cases = 0;
  const failures: string[] = [];
  const samples = (await readdir(set)).filter((name) => name.startsWith('doc_')).sort();
  for (const sample of samples) {
    const file = path.join(set, sample, 'degraded.png');
    const { image, dpi } = await decodePage(await loadDocument(await readFile(file)), 0);
    for (const scanned of [0, 1, 2, 3] as const) {
      const page = turnImage(image, scanned);
      const wanted = (4 - scanned) % 4;
      const voted = measureOrientation(toGrey(page, 'max'), dpi);
      count(vote, voted.turns, wanted, scanned);
      const started = performance.now();
      const plan = planPage(page, dpi, 'auto');
      const settled = await settledTurn(page, dpi, plan, registry, services, cleanAt(dpi));
      seconds += (performance.now() - started) / 1000;
      cases++;
      const ended = settled ?? plan.measures.turns ?? 0;
      count(engine, ended, wanted, scanned);
      if (ended !== wanted) failures.push(`${sample} scanned ${scanned * 90}°: turned ${ended * 90}°`);
    }
  }
  const show = (t: Tally) => `${t.right} / ${t.wrong} / ${t.left}`;
  console.log(
    `| ${path.basename(set)} | ${samples.length} × 4 | ${show(vote)} | ${show(engine)} | ${(seconds / cases).toFixed(2)} |`,
  );
  if (failures.length > 0) console.error(`${path.basename(set)}, not upright: ${failures.join('; ')}`);
}
await terminateOcr();
