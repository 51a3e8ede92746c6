// CPU time per document page of the whole page pipeline (steps, word guard, text layer) with the guard reading
// the whole input ('full') or only where the ink changed ('changed'), and with OCR off, in one run on the same
// pages (the variants take turns on every page). CPU is the process's (all threads, tesseract.js's worker
// included). CER is the text layer's against the page's text, with the eval scorer's normalisation.
// Usage: npm run bench:guard -w @folio/engine -- [--eval DIR] [--pages clean,degraded] [samples…]
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { loadDocument } from '../src/io/decode.js';
import { restorePageInThread } from '../src/pipeline/page.js';
import { threadServices } from '../src/pipeline/thread-services.js';
import { engineSettings, type GuardRead } from '../src/settings.js';
import { createDefaultRegistry } from '../src/steps/index.js';
import type { GuardResult } from '../src/guard/check.js';
import { terminateOcr } from '../src/ocr/index.js';
import { cer, takeOption } from './ocr-score.js';
import { publicSet } from './settings.js';

const args = process.argv.slice(2);
const option = (name: string) => takeOption(args, name);
const evalDir = option('--eval') ?? publicSet;
const pages = (option('--pages') ?? 'degraded,clean').split(',');
const modes = (option('--modes') ?? 'off,full,changed').split(',') as ('off' | GuardRead)[];
const samples =
  args.length > 0
    ? args
    : ['doc_005', 'doc_011', 'doc_012', 'doc_016', 'doc_017', 'doc_019', 'doc_023', 'doc_024'];

const registry = createDefaultRegistry();
let last = undefined as GuardResult | undefined;
const services = Object.fromEntries(
  modes.map((m) => [
    m,
    m === 'off'
      ? threadServices({ ...engineSettings(), ocr: 'off' })
      : threadServices({ ...engineSettings(), guardRead: m }, (r) => {
          last = r;
        }),
  ]),
);

// Worker start-up and WebAssembly warm-up stay out of the figures.
{
  const bytes = await readFile(path.join(evalDir, samples[0]!, 'degraded.png'));
  await restorePageInThread(await loadDocument(bytes), 0, { ocr: true }, registry, services[modes.at(-1)!]!);
}

const totals = new Map<string, { cpuMs: number; cer: number; n: number; fallbacks: number }>();
console.log(
  '| sample | page | guard | CPU ms | text layer CER | fallback | re-read share | lost or changed |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
let turn = 0;
for (const sample of samples) {
  const reference = await readFile(path.join(evalDir, sample, 'text.txt'), 'utf8');
  for (const page of pages) {
    const doc = await loadDocument(await readFile(path.join(evalDir, sample, `${page}.png`)));
    // Alternate the order so neither variant always runs first.
    const order = turn++ % 2 === 0 ? modes : [...modes].reverse();
    for (const mode of order) {
      last = undefined as GuardResult | undefined;
      const cpuStart = process.cpuUsage();
      const restored = await restorePageInThread(doc, 0, { ocr: true }, registry, services[mode]!);
      const cpu = process.cpuUsage(cpuStart);
      const cpuMs = (cpu.user + cpu.system) / 1000;
      const text = restored.words.map((w) => w.text).join(' ');
      const rowCer = mode === 'off' ? NaN : cer(text, reference);
      const r = last?.reread;
      const share = r
        ? `${(r.share * 100).toFixed(0)}%${r.full ? ' (full)' : ''} ink ${r.triggers.inkChanged} unsure ${r.triggers.unsureWords} unread ${r.triggers.unreadInk}`
        : '';
      const bad = restored.fallback?.lostWords.slice(0, 4).join(', ') ?? '';
      console.log(
        `| ${sample} | ${page} | ${mode} | ${cpuMs.toFixed(0)} | ${rowCer.toFixed(3)} | ${restored.fallback ? 'yes' : ''} | ${share} | ${bad} |`,
      );
      for (const key of [`${mode} ${page}`, `${mode} all`]) {
        const t = totals.get(key) ?? { cpuMs: 0, cer: 0, n: 0, fallbacks: 0 };
        totals.set(key, {
          cpuMs: t.cpuMs + cpuMs,
          cer: t.cer + rowCer,
          n: t.n + 1,
          fallbacks: t.fallbacks + (restored.fallback ? 1 : 0),
        });
      }
    }
  }
}
console.log('\n| guard | pages | mean CPU ms per page | mean text layer CER | fallbacks |');
console.log('| --- | --- | --- | --- | --- |');
for (const [key, t] of [...totals].sort(([a], [b]) => a.localeCompare(b))) {
  console.log(
    `| ${key} | ${t.n} | ${(t.cpuMs / t.n).toFixed(0)} | ${(t.cer / t.n).toFixed(4)} | ${t.fallbacks} |`,
  );
}
await terminateOcr();
