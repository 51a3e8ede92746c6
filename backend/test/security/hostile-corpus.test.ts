// The adversarial corpus through the real API: more than 200 generated hostile files (PDF bombs, damaged,
// truncated and locked files, wrong types, polyglots, archives and zip bombs, huge dimensions in headers),
// uploaded two at a time over HTTP. Each gets a clear 4xx with a {"detail"}; afterwards the server answers,
// its peak resident memory stayed under 2 GB, and nothing is left in storage or in the database.
import { sql } from 'kysely';
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CORPUS_MAX_PAGES,
  hostileCorpus,
  type HostileFile,
} from '../../../engine/test/fixtures/hostile-corpus.js';
import type { SignedIn } from '../helpers/auth.js';
import { listFiles, startFilesApp, storedKeys, upload, type FilesHarness } from '../files/files-harness.js';

const STATUS_BY_CODE: Record<HostileFile['codes'][number], number> = {
  empty: 400,
  unsupported: 415,
  corrupt: 422,
  encrypted: 400,
  too_many_pages: 400,
  too_large_pixels: 400,
  too_complex: 400,
};

let h: FilesHarness;
let eve: SignedIn;

beforeAll(async () => {
  h = await startFilesApp({
    MAX_PDF_PAGES: String(CORPUS_MAX_PAGES),
    MAX_UPLOAD_MB: '10',
    RATE_LIMIT_UPLOAD_PER_MINUTE: '100000',
    FILE_CHECK_TIMEOUT_SECONDS: '10',
  });
  eve = await h.signIn('eve@example.test');
});

afterAll(async () => {
  await h.close();
});

function peakRssMb(): number {
  return Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]) / 1024;
}

/** Resident memory of each child of this process (the reader children that check uploads), in MB. */
function childrenRssMb(): number[] {
  const sizes: number[] = [];
  for (const task of readdirSync('/proc/self/task')) {
    let children = '';
    try {
      children = readFileSync(`/proc/self/task/${task}/children`, 'utf8').trim();
    } catch {
      // The thread ended between the listing and the read (a worker thread of the runtime); it has no children.
      continue;
    }
    for (const pid of children ? children.split(' ') : []) {
      try {
        const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
        sizes.push(Number(kb ?? 0) / 1024);
      } catch {
        // ended meanwhile
      }
    }
  }
  return sizes;
}

describe('the hostile corpus through the API', () => {
  it(
    'refuses every file with a clear 4xx, stays up and small, and keeps nothing',
    async () => {
      const corpus = await hostileCorpus();
      // Over the upload limit: refused before inspection.
      const oversized = Buffer.alloc(11 * 1024 * 1024, 0x41);
      corpus.push({ name: 'oversized/11mb', filename: 'big.pdf', bytes: oversized, codes: [] });
      expect(corpus.length).toBeGreaterThanOrEqual(200);

      const wrong: string[] = [];
      const byStatus = new Map<number, number>();
      const started = Date.now();
      let readerPeakMb = 0;
      const watch = setInterval(() => {
        readerPeakMb = Math.max(readerPeakMb, ...childrenRssMb());
      }, 20);
      let next = 0;
      const lane = async (): Promise<void> => {
        for (let file = corpus[next++]; file; file = corpus[next++]) {
          const response = await upload(h, eve, { name: file.filename, bytes: file.bytes });
          const body = (await response.json().catch(() => ({}))) as { detail?: unknown };
          byStatus.set(response.status, (byStatus.get(response.status) ?? 0) + 1);
          const allowed = file.codes.length ? file.codes.map((code) => STATUS_BY_CODE[code]) : [413];
          const clear =
            typeof body.detail === 'string' && body.detail.length > 0 && !/\n\s+at /.test(body.detail);
          if (!allowed.includes(response.status) || !clear)
            wrong.push(`${file.name}: ${response.status} ${JSON.stringify(body).slice(0, 160)}`);
        }
      };
      await Promise.all([lane(), lane()]).finally(() => clearInterval(watch));
      const seconds = (Date.now() - started) / 1000;
      console.log(
        `${corpus.length} hostile uploads in ${seconds.toFixed(1)} s; statuses ${JSON.stringify(Object.fromEntries(byStatus))}; ` +
          `server peak RSS ${Math.round(peakRssMb())} MB, reader child peak ${Math.round(readerPeakMb)} MB`,
      );
      expect(wrong).toEqual([]);

      const health = await fetch(`${h.base}/api/v1/health`);
      expect(health.status).toBe(200);
      expect(peakRssMb()).toBeLessThan(2048);
      expect(readerPeakMb).toBeGreaterThan(0); // the checks ran in reader children, and were measured
      expect(readerPeakMb).toBeLessThan(2048);
      expect(await storedKeys(h)).toEqual([]);
      expect(await listFiles(h, eve)).toEqual([]);
      const rows = await sql<{ n: number }>`select count(*) as n from files`.execute(h.test.app.db);
      expect(Number(rows.rows[0]!.n)).toBe(0);
      const attempts = await sql<{ n: number }>`select count(*) as n from preview_attempts`.execute(
        h.test.app.db,
      );
      expect(Number(attempts.rows[0]!.n)).toBe(0);
    },
    15 * 60_000,
  );
});
