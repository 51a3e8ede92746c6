// Restoration benchmark, in one run over two sets: the public eval set and a fresh set generated at run time with
// a seed never used for tuning. For each set it restores every sample with the engine, scores it with the eval
// scorer, runs the baselines (identity, ocrmypdf, opencv) on the same set, checks the clean pages, and then
// writes one report with both sets, the generalisation gap between them and the acceptance lines of issue 19
// (engine/.bench/report.md and report.json; the calls to the eval tools are in bench-quality-eval.ts, the
// figures and the markdown in bench-quality-report.ts).
// Usage: npm run bench:quality -w @folio/engine [-- --sets public,fresh] [--fresh-seed N]
//        [--fresh-profile FILE] [--fresh-docs N --fresh-photos N --fresh-pdfs N] [--only doc_001,photo_002]
//        [--jobs 2] [--no-clean] [--baselines rerun|stored]
import { readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { closeEnginePool, describeFallback, restore } from '../src/index.js';
import { engineSettings } from '../src/settings.js';
import {
  SEEN_SEEDS,
  baseline,
  drawSeed,
  freshSet,
  inputOf,
  makeCleanSet,
  sampleNames,
  score,
  type FreshOptions,
} from './bench-quality-eval.js';
import {
  buildReport,
  compareWithBaseline,
  formatReport,
  summarizeClean,
  summarizeMethod,
  type ScoreFile,
  type SetSummary,
} from './bench-quality-report.js';
import { benchOut, engineDir, evalDir } from './settings.js';

const benchDir = path.join(engineDir, '.bench');
// FOLIO_BENCH_OUT: another folder for the outputs, scores and report (two runs side by side); the OCR cache and
// the generated sets are shared.
const workDir = benchOut ?? benchDir;
const ocrCache = path.join(benchDir, '.ocr-cache');
const BASELINES = ['identity', 'ocrmypdf', 'opencv'];

const { values } = parseArgs({
  options: {
    // Which sets to run: public (../shared/eval/public), fresh (generated with a new seed), or both.
    sets: { type: 'string', default: 'public,fresh' },
    // The fresh set's seed; by default one drawn at run time (printed and written in the report).
    'fresh-seed': { type: 'string' },
    // make_set.py's --profile for the fresh set: the built-in "public" or a profile JSON file.
    'fresh-profile': { type: 'string', default: 'public' },
    // make_set.py's --docs, --photos, --pdfs (a small fresh set while developing; default: the profile's counts).
    'fresh-docs': { type: 'string' },
    'fresh-photos': { type: 'string' },
    'fresh-pdfs': { type: 'string' },
    only: { type: 'string' },
    // Documents restored at the same time: the engine's own pool has two threads, so two documents keep both
    // cores busy (one document alone waits on its OCR pass); the throughput figure is taken this way.
    jobs: { type: 'string', default: '2' },
    // Skip the clean-page check (every document's clean.png through the engine, scored like the inputs).
    'no-clean': { type: 'boolean', default: false },
    // The baselines' rows: 'rerun' runs the eval tools' reference restorers on this machine in this run (the
    // speed comparison needs the same machine), 'stored' reads eval/baselines/public for the public set (a fresh
    // set has no stored baselines: they are always run on it).
    baselines: { type: 'string', default: 'rerun' },
  },
});
const only = values.only?.split(',');
const jobs = Math.max(1, Number(values.jobs) || 1);
const sets = values.sets.split(',');
for (const s of sets) if (s !== 'public' && s !== 'fresh') throw new Error(`--sets: unknown set ${s}`);
if (values.baselines !== 'rerun' && values.baselines !== 'stored')
  throw new Error('--baselines: rerun or stored');
const count = (v: string | undefined) => (v === undefined ? undefined : Number(v));
const fresh: FreshOptions = {
  seed: values['fresh-seed'] !== undefined ? Number(values['fresh-seed']) : drawSeed(),
  profile: values['fresh-profile'],
  docs: count(values['fresh-docs']),
  photos: count(values['fresh-photos']),
  pdfs: count(values['fresh-pdfs']),
};
if (!Number.isInteger(fresh.seed)) throw new Error('--fresh-seed: an integer');

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

/** A score file restricted to the samples of this run (a stored baseline covers the whole public set). */
async function readScore(file: string, names: string[]): Promise<ScoreFile> {
  const s = JSON.parse(await readFile(file, 'utf8')) as ScoreFile;
  return {
    text_samples: s.text_samples.filter((t) => names.includes(t.name)),
    photos: s.photos.filter((p) => names.includes(p.name)),
  };
}

interface EvalSet {
  label: 'public' | 'fresh';
  dir: string;
  description: string;
  /** Folder of stored baseline scores and timings, used instead of a rerun */
  storedBaselines?: string;
}

/** Restores, scores and checks one set; its outputs and score files go to `workDir/<label>/`. */
async function benchSet(set: EvalSet): Promise<SetSummary | undefined> {
  console.log(`\n===== ${set.label}: ${set.description}\n`);
  const all = await sampleNames(set.dir);
  const names = only ? all.filter((n) => only.includes(n)) : all;
  if (!names.length) {
    console.log(`no sample of ${set.dir} selected: set skipped`);
    return undefined;
  }
  const work = path.join(workDir, set.label);
  const outDir = path.join(work, 'folio');
  await mkdir(outDir, { recursive: true });
  const docNames = names.filter((n) => !n.startsWith('photo'));
  const photoNames = names.filter((n) => n.startsWith('photo'));
  // CPU time of the whole process (main thread, engine worker threads, OCR worker threads) and of its ended
  // children (the Tesseract binary's runs): steadier than wall time when other jobs share the machine.
  const cpuStart = cpuMicros();
  const [docs, docWall] = await inParallel(docNames, jobs, async (name) =>
    restoreSample(name, await inputOf(set.dir, name), outDir),
  );
  const cpuSeconds = (cpuMicros() - cpuStart) / 1e6;
  // Photos one at a time: their figure is the time a user waits for one photo.
  const [photos] = await inParallel(photoNames, 1, async (name) =>
    restoreSample(name, await inputOf(set.dir, name), outDir),
  );
  const cleanNames = values['no-clean'] ? [] : docNames.filter((n) => n.startsWith('doc'));
  const cleanOut = path.join(work, 'folio-clean');
  await mkdir(cleanOut, { recursive: true });
  if (cleanNames.length) console.log('\nclean pages through the engine:');
  await inParallel(cleanNames, jobs, (name) =>
    restoreSample(name, path.join(set.dir, name, 'clean.png'), cleanOut),
  );

  const docPages = docs.reduce((a, t) => a + t.pages, 0);
  const speed = {
    secPerDocPage: docWall / Math.max(1, docPages),
    latencySecPerDocPage: docs.reduce((a, t) => a + t.seconds, 0) / Math.max(1, docPages),
    cpuSecPerDocPage: cpuSeconds / Math.max(1, docPages),
    secPerPhoto: photos.reduce((a, t) => a + t.seconds, 0) / Math.max(1, photos.length),
  };
  await writeFile(
    path.join(work, 'folio.timings.json'),
    JSON.stringify(
      { summary: { ...speed, documents_at_a_time: jobs }, samples: [...docs, ...photos] },
      null,
      1,
    ),
  );
  const fallbackPages = docs.reduce((a, t) => a + t.fallbackPages, 0);
  console.log(
    `\nword guard: ${fallbackPages} of ${docPages} document pages fell back to the conservative steps, ` +
      `${docs.reduce((a, t) => a + t.patchedPages, 0)} had ${docs.reduce((a, t) => a + t.patchedWords, 0)} ` +
      'words patched from them' +
      (engineSettings().ocr === 'off' ? ' (OCR and guard off: FOLIO_ENGINE_OCR=off)' : ''),
  );

  const folioScore = path.join(work, 'folio.score.json');
  score(evalDir, set.dir, outDir, folioScore, ocrCache, only && names);
  // The baselines after the engine, each scored the same way (their outputs are printed above the report).
  const baselineRuns = BASELINES.map((method) =>
    baseline(evalDir, method, {
      dir: set.dir,
      workDir: path.join(work, 'baselines'),
      cache: ocrCache,
      only: only && names,
      stored: set.storedBaselines,
    }),
  );
  const baselines = await Promise.all(
    baselineRuns.map(async (b) =>
      summarizeMethod(b.method, await readScore(b.scoreFile, names), {
        secPerDocPage: b.secPerDocPage,
        secPerPhoto: b.secPerPhoto,
      }),
    ),
  );
  const folio = await readScore(folioScore, names);
  const opencv = baselineRuns.find((b) => b.method === 'opencv');
  let clean;
  if (cleanNames.length) {
    console.log("\nclean pages (each document's clean.png as the input):");
    const json = path.join(work, 'folio-clean.score.json');
    score(
      evalDir,
      await makeCleanSet(set.dir, cleanNames, path.join(work, 'clean-set')),
      cleanOut,
      json,
      ocrCache,
    );
    clean = summarizeClean(await readScore(json, cleanNames));
  }
  return {
    label: set.label,
    description:
      set.description +
      (only ? `; ${names.length} of its ${all.length} samples (--only)` : '') +
      (set.storedBaselines
        ? '; baselines: stored scores and timings, not rerun'
        : '; baselines rerun in this run'),
    folio: summarizeMethod('folio', folio, speed),
    baselines,
    vsOpencv: opencv && compareWithBaseline(folio, await readScore(opencv.scoreFile, names)),
    clean,
  };
}

/** The command line that repeats this run, with the fresh seed written out. */
function repeatCommand(): string {
  const args: string[] = [];
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--fresh-seed') i++;
    else if (argv[i] !== '--' && !argv[i]!.startsWith('--fresh-seed=')) args.push(argv[i]!);
  }
  if (sets.includes('fresh')) args.push('--fresh-seed', String(fresh.seed));
  return ['npm run bench:quality -w @folio/engine', ...(args.length ? ['--', ...args] : [])].join(' ');
}

async function run(): Promise<void> {
  await mkdir(ocrCache, { recursive: true });
  const evalSets: EvalSet[] = [];
  if (sets.includes('public')) {
    const dir = path.join(evalDir, 'public');
    const { seed } = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as { seed: number };
    evalSets.push({
      label: 'public',
      dir,
      description: `the public dev set (${dir}, seed ${seed})`,
      storedBaselines: values.baselines === 'stored' ? path.join(evalDir, 'baselines', 'public') : undefined,
    });
  }
  if (sets.includes('fresh')) {
    const seen = SEEN_SEEDS.includes(fresh.seed);
    console.log(
      `fresh set: seed ${fresh.seed}` +
        (values['fresh-seed'] === undefined ? ' (drawn at run time)' : '') +
        (seen ? ' — WARNING: this seed was seen while tuning, the set is not fresh' : ''),
    );
    const made = await freshSet(evalDir, path.join(benchDir, 'sets'), fresh);
    evalSets.push({
      label: 'fresh',
      dir: made.dir,
      description:
        `seed ${fresh.seed}${seen ? ' (seen while tuning: not fresh)' : ', never used for tuning'}, ` +
        `profile ${fresh.profile}, ${made.generated ? 'generated in this run' : 'cached'}: \`${made.command}\``,
    });
  }
  const summaries: SetSummary[] = [];
  for (const set of evalSets) {
    const s = await benchSet(set);
    if (s) summaries.push(s);
  }
  await closeEnginePool();

  const report = buildReport(summaries, {
    date: new Date().toISOString(),
    command: repeatCommand(),
    peakRssMb: process.resourceUsage().maxRSS / 1024,
  });
  const markdown = formatReport(report);
  await writeFile(path.join(workDir, 'report.md'), markdown);
  await writeFile(path.join(workDir, 'report.json'), JSON.stringify(report, null, 1));
  console.log(`\n${markdown}`);
  console.log(`report written to ${path.join(workDir, 'report.md')} and report.json`);
}

await run();
