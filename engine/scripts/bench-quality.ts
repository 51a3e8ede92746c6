// Restoration benchmark: restores every sample of the shared eval set, scores it with the eval scorer and
// prints the summary beside the stored baselines (identity, opencv, ocrmypdf), with speed and peak memory.
// Usage: npm run bench:quality -w @folio/engine [-- --only doc_001,photo_002]
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { closeEnginePool, restore } from '../src/index.js';

const engineDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = path.resolve(engineDir, '..');
const evalDir = process.env.FOLIO_EVAL_DIR ?? path.resolve(repoRoot, '../shared/eval');
const setDir = path.join(evalDir, 'public');
const workDir = path.join(engineDir, '.bench');
const outDir = path.join(workDir, 'folio');
// The scorer needs Debian's python3 (numpy, opencv, skimage, PIL); another python3 earlier on PATH may lack them.
const python = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

const { values } = parseArgs({ options: { only: { type: 'string' } } });
const only = values.only?.split(',');

interface Timing {
  name: string;
  kind: 'document' | 'photo';
  pages: number;
  seconds: number;
  failedPages: number;
  /** Pages where the word guard rejected the full plan and the conservative steps were used */
  fallbackPages: number;
}

async function run(): Promise<void> {
  await mkdir(outDir, { recursive: true });
  const samples = (await readdir(setDir))
    .filter((n) => /^(doc|photo|pdf)_\d+$/.test(n))
    .filter((n) => !only || only.includes(n));
  const timings: Timing[] = [];
  // CPU time of the whole process (main thread, engine worker threads, OCR worker threads): steadier than
  // wall time when other jobs share the machine.
  const cpuStart = process.cpuUsage();
  for (const name of samples.sort()) {
    const file = (await readdir(path.join(setDir, name))).find((f) => f.startsWith('degraded.'));
    if (!file) continue;
    const started = performance.now();
    const result = await restore(await readFile(path.join(setDir, name, file)), { mode: 'auto' });
    const seconds = (performance.now() - started) / 1000;
    await writeFile(path.join(outDir, `${name}.${result.extension}`), result.bytes);
    const failed = result.pages.filter((p) => !p.ok).length;
    const fallbacks = result.pages.filter((p) => p.fallback).length;
    timings.push({
      name,
      kind: name.startsWith('photo') ? 'photo' : 'document',
      pages: result.pages.length,
      seconds,
      failedPages: failed,
      fallbackPages: fallbacks,
    });
    console.log(
      `${name.padEnd(10)} ${seconds.toFixed(2).padStart(6)} s  ${result.pages.map((p) => (p.ok ? `${p.kind}: ${p.steps.join(',')}${p.fallback ? ` (guard fallback: ${p.fallback.reason}; ${p.fallback.lostWords.slice(0, 3).join(', ')})` : ''}` : `FAILED ${p.error}`)).join(' | ')}`,
    );
  }
  const cpu = process.cpuUsage(cpuStart);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  await closeEnginePool();
  const docs = timings.filter((t) => t.kind === 'document');
  const photos = timings.filter((t) => t.kind === 'photo');
  const perDocPage =
    docs.reduce((a, t) => a + t.seconds, 0) /
    Math.max(
      1,
      docs.reduce((a, t) => a + t.pages, 0),
    );
  const perPhoto = photos.reduce((a, t) => a + t.seconds, 0) / Math.max(1, photos.length);
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  await writeFile(
    path.join(workDir, 'folio.timings.json'),
    JSON.stringify(
      {
        summary: { sec_per_doc_page: perDocPage, sec_per_photo: perPhoto, peak_rss_mb: peakRssMb },
        samples: timings,
      },
      null,
      1,
    ),
  );

  const scoreJson = path.join(workDir, 'folio.score.json');
  const args = [
    path.join(evalDir, 'tools', 'score.py'),
    '--set',
    setDir,
    '--restored',
    outDir,
    '--json',
    scoreJson,
    '--cache',
    path.join(workDir, '.ocr-cache'),
  ];
  if (only) args.push('--only', only.join(','));
  const score = spawnSync(python, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  console.log(score.stdout);
  if (score.status !== 0) throw new Error(`score.py exited with ${score.status}`);

  console.log('\nSummary (baselines: stored scores and timings from eval/baselines/public, not rerun):\n');
  console.log(
    '| method | CER degraded | CER restored | improved | worse | doc PSNR gain | photo PSNR gain | photos better / worse | s per doc page | s per photo |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  const row = async (method: string, scoreFile: string, perPage: number, perPh: number) => {
    const s = (JSON.parse(await readFile(scoreFile, 'utf8')) as { summary: Record<string, number> }).summary;
    const n = s.n_text_samples ?? 0;
    const f = (v: number | null | undefined, d = 3) => (v == null ? 'n/a' : v.toFixed(d));
    const gain = (a?: number, b?: number) =>
      a === undefined || b === undefined ? 'n/a' : `${b - a >= 0 ? '+' : ''}${(b - a).toFixed(1)} dB`;
    console.log(
      `| ${method} | ${f(s.cer_degraded)} | ${f(s.cer_restored)} | ${s.improved}/${n} | ${s.worse}/${n} | ${gain(s.psnr_degraded, s.psnr_restored)} | ${gain(s.photo_psnr_degraded, s.photo_psnr_restored)} | ${s.photo_improved} / ${s.photo_worse} | ${perPage.toFixed(2)} | ${perPh.toFixed(2)} |`,
    );
  };
  for (const method of ['identity', 'ocrmypdf', 'opencv']) {
    const base = path.join(evalDir, 'baselines', 'public', method);
    const t = (
      JSON.parse(await readFile(`${base}.timings.json`, 'utf8')) as {
        summary: { sec_per_doc_page: number; sec_per_photo: number };
      }
    ).summary;
    await row(method, `${base}.score.json`, t.sec_per_doc_page ?? 0, t.sec_per_photo ?? 0);
  }
  await row('folio', scoreJson, perDocPage, perPhoto);
  console.log(
    `\nfolio engine: ${perDocPage.toFixed(2)} s per document page, ${perPhoto.toFixed(2)} s per photo, peak RSS ${peakRssMb.toFixed(0)} MB`,
  );
  const docPages = docs.reduce((a, t) => a + t.pages, 0);
  console.log(
    `CPU time: ${cpuSeconds.toFixed(0)} s in all, ${(cpuSeconds / Math.max(1, docPages)).toFixed(2)} s per document page (photos included, they are cheap)`,
  );
  const fallbackPages = docs.reduce((a, t) => a + t.fallbackPages, 0);
  console.log(
    `word guard: ${fallbackPages} of ${docPages} document pages fell back to the conservative steps` +
      (process.env.FOLIO_ENGINE_OCR === 'off' ? ' (OCR and guard off: FOLIO_ENGINE_OCR=off)' : ''),
  );
}

await run();
