// Restoration benchmark: restores every sample of the shared eval set, scores it with the eval scorer and
// prints the summary beside the baselines (identity, opencv, ocrmypdf) run by the eval tools in the same run,
// with speed and peak memory.
// Usage: npm run bench:quality -w @folio/engine [-- --only doc_001,photo_002] [--jobs 2] [--no-clean]
//        [--baselines rerun|stored]
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { closeEnginePool, describeFallback, restore } from '../src/index.js';

const engineDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = path.resolve(engineDir, '..');
const evalDir = process.env.FOLIO_EVAL_DIR ?? path.resolve(repoRoot, '../shared/eval');
const setDir = path.join(evalDir, 'public');
const benchDir = path.join(engineDir, '.bench');
// FOLIO_BENCH_OUT: another folder for the outputs and scores (two runs side by side); the OCR cache is shared.
const workDir = process.env.FOLIO_BENCH_OUT ? path.resolve(process.env.FOLIO_BENCH_OUT) : benchDir;
const outDir = path.join(workDir, 'folio');
// The scorer needs Debian's python3 (numpy, opencv, skimage, PIL); another python3 earlier on PATH may lack them.
const python = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    // Documents restored at the same time: the engine's own pool has two threads, so two documents keep both
    // cores busy (one document alone waits on its OCR pass); the throughput figure is taken this way.
    jobs: { type: 'string', default: '2' },
    // Skip the clean-page check (every document's clean.png through the engine, scored like the inputs).
    'no-clean': { type: 'boolean', default: false },
    // The baselines' rows: 'rerun' runs the eval tools' reference restorers on this machine in this run (the
    // speed comparison needs the same machine), 'stored' reads eval/baselines/public.
    baselines: { type: 'string', default: 'rerun' },
  },
});
const only = values.only?.split(',');
const jobs = Math.max(1, Number(values.jobs) || 1);

/** CPU µs of this process and its ended children (Linux: cutime and cstime of /proc/self/stat, 100 ticks/s). */
function cpuMicros(): number {
  const own = process.cpuUsage();
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return own.user + own.system + (Number(fields[13]) + Number(fields[14])) * 10_000;
}

interface Timing {
  name: string;
  kind: 'document' | 'photo';
  pages: number;
  seconds: number;
  failedPages: number;
  /** Pages where the word guard rejected the full plan and the conservative steps were used */
  fallbackPages: number;
  /** Pages where some words took the conservative steps' pixels, and how many words */
  patchedPages: number;
  patchedWords: number;
}

/** Restores one input file into `dir/<name>.<ext>` and logs its plan. */
async function restoreSample(name: string, input: string, dir: string): Promise<Timing> {
  const started = performance.now();
  const result = await restore(await readFile(input), { mode: 'auto' });
  const seconds = (performance.now() - started) / 1000;
  await writeFile(path.join(dir, `${name}.${result.extension}`), result.bytes);
  console.log(
    `${name.padEnd(10)} ${seconds.toFixed(2).padStart(6)} s  ${result.pages.map((p) => (p.ok ? `${p.kind}: ${p.steps.join(',')}${p.fallback ? ` (${describeFallback(p.fallback)})` : ''}` : `FAILED ${p.error}`)).join(' | ')}`,
  );
  return {
    name,
    kind: name.startsWith('photo') ? 'photo' : 'document',
    pages: result.pages.length,
    seconds,
    failedPages: result.pages.filter((p) => !p.ok).length,
    fallbackPages: result.pages.filter((p) => p.fallback && !p.fallback.words).length,
    patchedPages: result.pages.filter((p) => p.fallback?.words).length,
    patchedWords: result.pages.reduce((n, p) => n + (p.fallback?.words ?? 0), 0),
  };
}

/** Runs `task` over `items`, `n` at a time; returns the results in input order and the wall seconds. */
async function inParallel<T, R>(
  items: T[],
  n: number,
  task: (item: T) => Promise<R>,
): Promise<[R[], number]> {
  const started = performance.now();
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, lane));
  return [results, (performance.now() - started) / 1000];
}

async function inputOf(name: string): Promise<string | undefined> {
  const file = (await readdir(path.join(setDir, name))).find((f) => f.startsWith('degraded.'));
  return file && path.join(setDir, name, file);
}

/**
 * A scorer set whose inputs are the clean pages: every single-page document's folder with degraded.png linked
 * to its clean.png, so the scorer's "degraded" CER is the clean page's and "restored" is the engine's output.
 */
async function makeCleanSet(names: string[]): Promise<string> {
  const dir = path.join(workDir, 'clean-set');
  await rm(dir, { recursive: true, force: true });
  const manifest = JSON.parse(await readFile(path.join(setDir, 'manifest.json'), 'utf8')) as {
    samples: { name: string }[];
  };
  await mkdir(dir, { recursive: true });
  await writeFile(
    path.join(dir, 'manifest.json'),
    JSON.stringify({ ...manifest, samples: manifest.samples.filter((s) => names.includes(s.name)) }),
  );
  for (const name of names) {
    await mkdir(path.join(dir, name));
    for (const f of ['meta.json', 'text.txt', 'clean.png'])
      await symlink(path.join(setDir, name, f), path.join(dir, name, f));
    await symlink(path.join(setDir, name, 'clean.png'), path.join(dir, name, 'degraded.png'));
  }
  return dir;
}

function score(set: string, restored: string, json: string, names?: string[]): void {
  const args = [
    path.join(evalDir, 'tools', 'score.py'),
    '--set',
    set,
    '--restored',
    restored,
    '--json',
    json,
  ];
  args.push('--cache', path.join(benchDir, '.ocr-cache'));
  if (names) args.push('--only', names.join(','));
  const run = spawnSync(python, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  console.log(run.stdout);
  if (run.status !== 0) throw new Error(`score.py exited with ${run.status}`);
}

/**
 * One of the eval tools' reference restorers over the set (one sample at a time, timed by the tool), scored like
 * the engine; or its stored score and timings. Returns the score file and the timings' summary.
 */
function baseline(method: string): { scoreFile: string; perPage: number; perPhoto: number } {
  let scoreFile = path.join(evalDir, 'baselines', 'public', `${method}.score.json`);
  let timingsFile = path.join(evalDir, 'baselines', 'public', `${method}.timings.json`);
  if (values.baselines === 'rerun') {
    const out = path.join(workDir, 'baselines', method);
    const args = [
      path.join(evalDir, 'tools', 'baselines.py'),
      '--set',
      setDir,
      '--method',
      method,
      '--out',
      out,
    ];
    if (only) args.push('--only', only.join(','));
    const run = spawnSync(python, args, { stdio: ['ignore', 'ignore', 'inherit'] });
    if (run.status !== 0) throw new Error(`baselines.py --method ${method} exited with ${run.status}`);
    scoreFile = `${out}.score.json`;
    timingsFile = path.join(out, 'timings.json');
    score(setDir, out, scoreFile, only);
  }
  const t = (
    JSON.parse(readFileSync(timingsFile, 'utf8')) as {
      summary: { sec_per_doc_page?: number; sec_per_photo?: number };
    }
  ).summary;
  return { scoreFile, perPage: t.sec_per_doc_page ?? 0, perPhoto: t.sec_per_photo ?? 0 };
}

async function run(): Promise<void> {
  await mkdir(outDir, { recursive: true });
  await mkdir(path.join(benchDir, '.ocr-cache'), { recursive: true });
  const samples = (await readdir(setDir))
    .filter((n) => /^(doc|photo|pdf)_\d+$/.test(n))
    .filter((n) => !only || only.includes(n))
    .sort();
  const docNames = samples.filter((n) => !n.startsWith('photo'));
  const photoNames = samples.filter((n) => n.startsWith('photo'));
  // CPU time of the whole process (main thread, engine worker threads, OCR worker threads) and of its ended
  // children (the Tesseract binary's runs): steadier than wall time when other jobs share the machine.
  const cpuStart = cpuMicros();
  const [docs, docWall] = await inParallel(docNames, jobs, async (name) =>
    restoreSample(name, (await inputOf(name))!, outDir),
  );
  const cpuSpent = cpuMicros() - cpuStart;
  // Photos one at a time: their figure is the time a user waits for one photo.
  const [photos] = await inParallel(photoNames, 1, async (name) =>
    restoreSample(name, (await inputOf(name))!, outDir),
  );
  const cleanNames = values['no-clean'] ? [] : docNames.filter((n) => n.startsWith('doc'));
  const cleanOut = path.join(workDir, 'folio-clean');
  await mkdir(cleanOut, { recursive: true });
  if (cleanNames.length) console.log('\nclean pages through the engine:');
  await inParallel(cleanNames, jobs, (name) =>
    restoreSample(name, path.join(setDir, name, 'clean.png'), cleanOut),
  );
  await closeEnginePool();

  const cpuSeconds = cpuSpent / 1e6;
  const timings = [...docs, ...photos];
  const docPages = docs.reduce((a, t) => a + t.pages, 0);
  const perDocPage = docWall / Math.max(1, docPages);
  const latencyPerDocPage = docs.reduce((a, t) => a + t.seconds, 0) / Math.max(1, docPages);
  const perPhoto = photos.reduce((a, t) => a + t.seconds, 0) / Math.max(1, photos.length);
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  await writeFile(
    path.join(workDir, 'folio.timings.json'),
    JSON.stringify(
      {
        summary: {
          sec_per_doc_page: perDocPage,
          latency_sec_per_doc_page: latencyPerDocPage,
          documents_at_a_time: jobs,
          sec_per_photo: perPhoto,
          peak_rss_mb: peakRssMb,
        },
        samples: timings,
      },
      null,
      1,
    ),
  );

  const scoreJson = path.join(workDir, 'folio.score.json');
  score(setDir, outDir, scoreJson, only);

  // The baselines after the engine, each scored the same way (their outputs are printed above the table).
  const baselines = ['identity', 'ocrmypdf', 'opencv'].map((method) => ({ method, ...baseline(method) }));
  console.log(
    values.baselines === 'rerun'
      ? '\nSummary (baselines rerun in this run, on this machine, one sample at a time as the eval tools run them):\n'
      : '\nSummary (baselines: stored scores and timings from eval/baselines/public, not rerun):\n',
  );
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
  for (const b of baselines) await row(b.method, b.scoreFile, b.perPage, b.perPhoto);
  await row('folio', scoreJson, perDocPage, perPhoto);
  console.log(
    `\nfolio engine: ${perDocPage.toFixed(2)} s per document page, ${perPhoto.toFixed(2)} s per photo, peak RSS ${peakRssMb.toFixed(0)} MB`,
  );
  console.log(
    `throughput: ${perDocPage.toFixed(2)} s of wall time per document page with ${jobs} document(s) at a time; ` +
      `each document page took ${latencyPerDocPage.toFixed(2)} s from start to finish on average`,
  );
  console.log(
    `CPU time: ${cpuSeconds.toFixed(0)} s in all, ${(cpuSeconds / Math.max(1, docPages)).toFixed(2)} s per document page`,
  );
  const fallbackPages = docs.reduce((a, t) => a + t.fallbackPages, 0);
  console.log(
    `word guard: ${fallbackPages} of ${docPages} document pages fell back to the conservative steps, ` +
      `${docs.reduce((a, t) => a + t.patchedPages, 0)} had ${docs.reduce((a, t) => a + t.patchedWords, 0)} ` +
      'words patched from them' +
      (process.env.FOLIO_ENGINE_OCR === 'off' ? ' (OCR and guard off: FOLIO_ENGINE_OCR=off)' : ''),
  );
  if (cleanNames.length) await reportCleanPages(cleanNames, cleanOut);
}

/** Scores the clean pages restored by the engine: their CER should stay within 0.2 point of the input's. */
async function reportCleanPages(names: string[], restored: string): Promise<void> {
  console.log("\nclean pages (each document's clean.png as the input):");
  const json = path.join(workDir, 'folio-clean.score.json');
  score(await makeCleanSet(names), restored, json);
  const result = JSON.parse(await readFile(json, 'utf8')) as {
    text_samples: { name: string; degraded: { cer: number }; restored: { cer: number } }[];
  };
  const rows = result.text_samples;
  const mean = (f: (r: (typeof rows)[number]) => number) => rows.reduce((a, r) => a + f(r), 0) / rows.length;
  const beyond = rows.filter((r) => r.restored.cer - r.degraded.cer > 0.002);
  console.log(
    `clean pages: mean CER ${mean((r) => r.degraded.cer).toFixed(4)} as given → ${mean((r) => r.restored.cer).toFixed(4)} ` +
      `through the engine; ${rows.length - beyond.length} of ${rows.length} within 0.2 point` +
      (beyond.length
        ? `; beyond: ${beyond.map((r) => `${r.name} ${r.degraded.cer.toFixed(3)} → ${r.restored.cer.toFixed(3)}`).join(', ')}`
        : ''),
  );
}

await run();
