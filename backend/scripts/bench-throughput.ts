// The fair throughput comparison of `make bench` (figures only, no assertions), also runnable alone:
// `node --import tsx scripts/bench-throughput.ts [--runs N]`. One multi-page scanned PDF (every page of the
// public set's scanned PDFs, pdf_003 at 150 DPI then pdf_001 and pdf_002 at 200 DPI) goes through
//   (a) the product path: upload, restore through the API and one worker process (SQLite, database queue,
//       events through Redis), timed from the upload to `restoration.completed` on the socket;
//   (b) `ocrmypdf --deskew --clean-final --jobs 2` on the same file.
// Printed: pages per second of each and their ratio, the restore answer → first progress event time and the
// number of progress events, the peak RSS of the API and worker processes, and the output sizes.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { RealtimeEvent } from '../src/realtime/realtime-event.js';
import { PDFDocument } from 'pdf-lib';
import { restore, socket, start, startApi, stop, upload, type Api } from './bench-jobs.js';
import { childEnv, publicSet, redisUrl } from './settings.js';

const EVAL = publicSet;
const SOURCES = ['pdf_003', 'pdf_001', 'pdf_002'];

const fmt = (n: number, digits = 1) => n.toFixed(digits);
const mb = (bytes: number) => `${fmt(bytes / 2 ** 20, 2)} MB`;
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

/** Every page of the public scanned PDFs in one file (their JPEG page images copied as they are). */
async function scannedPdf(): Promise<Buffer> {
  const out = await PDFDocument.create();
  for (const name of SOURCES) {
    const source = await PDFDocument.load(readFileSync(path.join(EVAL, name, 'degraded.pdf')));
    for (const page of await out.copyPages(source, source.getPageIndices())) out.addPage(page);
  }
  return Buffer.from(await out.save());
}

/** Peak resident set size of a process so far, in MiB (Linux /proc). */
function peakRssMb(pid: number): number {
  const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match?.[1] ? Number(match[1]) / 1024 : NaN;
}

interface FolioRun {
  seconds: number;
  firstProgressMs: number;
  progressEvents: number;
  pages: number;
  failedPages: number;
  outputBytes: number;
}

async function folioRun(
  api: Api,
  sock: ReturnType<typeof socket>,
  pdf: Buffer,
  run: number,
): Promise<FolioRun> {
  let jobId = '';
  let answeredAt = 0;
  let firstProgressAt = 0;
  let progressEvents = 0;
  let failed: (error: Error) => void = () => undefined;
  const completed = new Promise<RealtimeEvent & { type: 'restoration.completed' }>((resolve, reject) => {
    failed = reject;
    sock.onEvent((event) => {
      if (!('jobId' in event) || event.jobId !== jobId) return;
      if (event.type === 'restoration.progress') {
        progressEvents += 1;
        firstProgressAt ||= performance.now();
      } else if (event.type === 'restoration.completed') resolve(event);
      else if (event.type === 'restoration.failed') reject(new Error(`restoration failed: ${event.error}`));
    });
  });
  const started = performance.now();
  const fileId = await upload(api, pdf, `bench-scan-${run}.pdf`, 'application/pdf');
  jobId = await restore(api, fileId);
  answeredAt = performance.now();
  const timeout = setTimeout(
    () => failed(new Error('no restoration.completed within 30 minutes')),
    30 * 60_000,
  );
  const done = await completed.finally(() => clearTimeout(timeout));
  return {
    seconds: (performance.now() - started) / 1000,
    firstProgressMs: firstProgressAt - answeredAt,
    progressEvents,
    pages: done.totalPages,
    failedPages: done.failedPages,
    outputBytes: done.file.size_bytes,
  };
}

function ocrmypdfRun(input: string, output: string): { seconds: number; peakRssMb: number } {
  const started = performance.now();
  // GNU time reports the peak RSS of the largest process of the run (ocrmypdf's own or a worker's).
  const result = spawnSync(
    '/usr/bin/time',
    ['-f', '%M', 'ocrmypdf', '--deskew', '--clean-final', '--jobs', '2', '--quiet', input, output],
    { encoding: 'utf8' },
  );
  const seconds = (performance.now() - started) / 1000;
  if (result.status !== 0) throw new Error(`ocrmypdf failed (${result.status}): ${result.stderr}`);
  const kb = Number(result.stderr.trim().split('\n').at(-1));
  return { seconds, peakRssMb: kb / 1024 };
}

export async function benchThroughput(runs = 2): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'folio-bench-fair-'));
  const input = path.join(dir, 'scanned.pdf');
  const pdf = await scannedPdf();
  writeFileSync(input, pdf);
  const pages = (await PDFDocument.load(pdf)).getPageCount();
  console.log(
    `Fair throughput: ${pages}-page scanned PDF (${SOURCES.join(' + ')}, ${mb(pdf.length)}); ` +
      `${execFileSync('ocrmypdf', ['--version'], { encoding: 'utf8' }).trim()} as the reference; load average ${load()}`,
  );
  // Both sides run with this environment's allocator settings (`make bench` exports the Makefile's).
  console.log(`GLIBC_TUNABLES: ${childEnv.GLIBC_TUNABLES ?? '(unset: glibc defaults)'}`);

  // (a) the product path: an API process and one worker process sharing the SQLite file; the worker's events
  // reach the API's socket through Redis, as in the scale-out mode.
  const dataDir = path.join(dir, 'data');
  mkdirSync(dataDir);
  const env = {
    FOLIO_DATA_DIR: dataDir,
    DATABASE_URL: '',
    REDIS_URL: redisUrl,
    JOB_QUEUE: 'database',
    JOB_POLL_MS: '200',
  };
  const folio: FolioRun[] = [];
  let rss = '';
  const { api, proc } = await startApi({ ...env, JOB_CONCURRENCY: '0' });
  const worker = start('src/worker.ts', { ...env, JOB_CONCURRENCY: '1' });
  const sock = socket(api);
  try {
    await sock.opened;
    // Let the worker finish starting (module loading, its engine threads).
    await new Promise((resolve) => setTimeout(resolve, 8_000));
    for (let run = 1; run <= runs; run++) {
      folio.push(await folioRun(api, sock, pdf, run));
      console.log(`Folio run ${run} done; load average ${load()}`);
    }
    rss = `API process ${fmt(peakRssMb(proc.child.pid ?? 0), 0)} MiB, worker process ${fmt(peakRssMb(worker.child.pid ?? 0), 0)} MiB`;
    sock.ws.close(1000);
  } finally {
    await stop([worker, proc]);
  }

  // (b) the reference, on the same file, after Folio's processes have stopped.
  const ocr = ocrmypdfRun(input, path.join(dir, 'ocrmypdf.pdf'));
  const ocrPagesPerSecond = pages / ocr.seconds;
  console.log(
    `ocrmypdf --deskew --clean-final --jobs 2: ${fmt(ocr.seconds)} s = ${fmt(ocrPagesPerSecond, 3)} pages/s, ` +
      `output ${mb(statSync(path.join(dir, 'ocrmypdf.pdf')).size)}, peak RSS of its largest process ${fmt(ocr.peakRssMb, 0)} MiB; load average ${load()}`,
  );

  folio.forEach((r, i) => {
    const pagesPerSecond = r.pages / r.seconds;
    console.log(
      `Folio product path, run ${i + 1}: ${fmt(r.seconds)} s = ${fmt(pagesPerSecond, 3)} pages/s ` +
        `(${r.failedPages} failed) = ${fmt(pagesPerSecond / ocrPagesPerSecond, 2)}× ocrmypdf's; restore answer → ` +
        `first progress event ${fmt(r.firstProgressMs, 0)} ms; ${r.progressEvents} progress events for ${r.pages} ` +
        `pages; output ${mb(r.outputBytes)}`,
    );
  });
  console.log(`Folio peak RSS: ${rss}`);
  rmSync(dir, { recursive: true, force: true });
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '2' } } });
  await benchThroughput(Number(values.runs));
}
