// `npm run bench:list -w @folio/backend`: load on GET /files/all for a user with 1,000 files, and what it does
// to /health meanwhile. Starts the real app (`src/main.ts`) as a child process on a temp SQLite file, loads it
// with autocannon on loopback for a few seconds per case and prints figures only (no assertions).
import autocannon from 'autocannon';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startApi, stop } from './bench-jobs.js';
import { seedFiles } from './seed-files.js';
import { listSeconds } from './settings.js';

const SECONDS = listSeconds;
const FILES = 1000;

/** 1,000 rows written straight into the app's SQLite file (uploading them would measure uploads instead). */
async function seed(dataDir: string, userId: string): Promise<void> {
  await seedFiles(dataDir, userId, FILES);
}

const run = (url: string, connections: number, headers: Record<string, string> = {}) =>
  autocannon({ url, connections, duration: SECONDS, headers });

function line(label: string, result: autocannon.Result): string {
  const { latency, requests, non2xx, errors } = result;
  const kb = result.throughput.average / Math.max(1, requests.average) / 1024;
  const failures = non2xx + errors > 0 ? `, ${non2xx} non-2xx, ${errors} errors` : '';
  return `${label}: ${Math.round(requests.average)} req/s, p50 ${latency.p50} ms, p99 ${latency.p99} ms, max ${latency.max} ms, ${kb.toFixed(0)} KB/answer${failures}`;
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'folio-bench-list-'));
const { api, proc } = await startApi({
  FOLIO_DATA_DIR: dataDir,
  DATABASE_URL: '',
  REDIS_URL: '',
  S3_BUCKET: '',
});
try {
  const me = (await (await fetch(`${api.base}/api/v1/users/me`, { headers: api.auth })).json()) as {
    id: string;
  };
  await seed(dataDir, me.id);
  const headers = api.auth;
  const health = `${api.base}/api/v1/health`;
  console.log(`GET /files/all, ${FILES} files, ${SECONDS} s per case (${process.version}, SQLite, loopback)`);
  console.log(line('/health alone, 1 connection', await run(health, 1)));
  const cases = [
    ['a page of 48 (the web app)', '/api/v1/files/all?type=original&limit=48'],
    ['a search, a page of 48', '/api/v1/files/all?limit=48&q=scan-9&sort=name'],
    ['everything (no parameters)', '/api/v1/files/all'],
  ] as const;
  for (const [label, pathAndQuery] of cases) {
    for (const connections of [16, 64]) {
      const [list, beside] = await Promise.all([
        run(`${api.base}${pathAndQuery}`, connections, headers),
        run(health, 1),
      ]);
      console.log(line(`${label}, ${connections} connections`, list));
      console.log(line('  /health meanwhile, 1 connection', beside));
    }
  }
} finally {
  await stop([proc]);
  rmSync(dataDir, { recursive: true, force: true });
}
