// The hostile corpus through the CLI, one file of each kind plus the PDF bombs: folio-restore ends with a clear
// one-line error (exit 2: the file cannot be read; exit 1: every page failed), never a crash or a stack trace,
// and its process tree (the CLI, its engine threads and reader child) stays under 2 GB resident.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { hostileCorpus, type HostileFile } from '../fixtures/hostile-corpus.js';
import * as bombs from '../fixtures/pdf-bombs.js';
import { rssMb } from '../fixtures/pdf-run.js';

const cli = path.resolve(import.meta.dirname, '../../src/cli/main.ts');
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const dir = mkdtempSync(path.join(os.tmpdir(), 'folio-hostile-cli-'));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  peakMb: number;
}

async function runCli(file: HostileFile, at: number): Promise<CliRun> {
  const input = path.join(dir, `in-${at}`);
  writeFileSync(input, file.bytes);
  const child = spawn(process.execPath, ['--import', tsx, cli, input, '-o', path.join(dir, `out-${at}`)], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, FOLIO_ENGINE_THREADS: '1' },
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let peakMb = 0;
  const watch = setInterval(() => {
    if (child.pid !== undefined) peakMb = Math.max(peakMb, rssMb(child.pid));
  }, 20);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.on('close', (c, s) => resolve([c, s])),
  );
  clearInterval(watch);
  return { code, signal, stderr, peakMb };
}

describe('folio-restore on hostile files', () => {
  it(
    'ends every run with a clear error and a bounded process tree',
    async () => {
      const corpus = await hostileCorpus();
      const seen = new Set<string>();
      const chosen = corpus.filter((file) => {
        const kind = file.name.split('/')[0]!;
        // The page limit is the upload's rule: the CLI restores a long PDF page by page.
        if (seen.has(kind) || kind === 'pdf-pages') return false;
        seen.add(kind);
        return true;
      });
      chosen.push(
        ...corpus.filter((f) =>
          ['pdf-bomb/nested-forms-8x10', 'pdf-bomb/line-operators-10mb'].includes(f.name),
        ),
        {
          name: 'pdf-bomb/hidden-frame-jpeg',
          filename: 'lying.pdf',
          bytes: bombs.hiddenFrameJpegPdf(),
          codes: ['too_complex'],
        },
      );
      const lines: string[] = [];
      const wrong: string[] = [];
      let next = 0;
      const lane = async (): Promise<void> => {
        for (let at = next++; at < chosen.length; at = next++) {
          const file = chosen[at]!;
          const run = await runCli(file, at);
          const message =
            /^folio-restore: (.+)$/m.exec(run.stderr)?.[1] ?? /page 1 failed: (.+)$/m.exec(run.stderr)?.[1];
          lines.push(
            `${file.name.padEnd(34)} exit ${run.code} peak ${Math.round(run.peakMb)} MB  ${message ?? ''}`,
          );
          const clear = message !== undefined && !/\n\s+at /.test(run.stderr);
          if (run.signal !== null || (run.code !== 1 && run.code !== 2) || !clear || run.peakMb >= 2048)
            wrong.push(
              `${file.name}: exit ${run.code} ${run.signal ?? ''} ${Math.round(run.peakMb)} MB ${run.stderr.slice(-300)}`,
            );
        }
      };
      await Promise.all([lane(), lane()]);
      console.log(lines.sort().join('\n'));
      expect(chosen.length).toBeGreaterThanOrEqual(20);
      expect(wrong).toEqual([]);
    },
    15 * 60_000,
  );
});
