// folio-restore INPUT -o OUTPUT [--mode auto|document|photo] [--pdfa] [--keep-temp] [--no-page-net] [--no-photo-net]
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { RestoreMode } from '../analysis/plan.js';
import { EngineInputError } from '../errors.js';
import { closeEnginePool } from '../pipeline/pool.js';
import { describeFallback } from '../pipeline/page.js';
import { restore } from '../pipeline/restore.js';
import { engineSettings } from '../settings.js';

const USAGE =
  'Usage: folio-restore INPUT -o OUTPUT [--mode auto|document|photo] [--pdfa] [--keep-temp] [--no-page-net] [--no-photo-net]';

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      output: { type: 'string', short: 'o' },
      mode: { type: 'string', default: 'auto' },
      'keep-temp': { type: 'boolean', default: false },
      // PDF input: write PDF/A-2b.
      pdfa: { type: 'boolean', default: false },
      // The classical steps alone, without the trained page network, or photo network (comparisons).
      'no-page-net': { type: 'boolean', default: false },
      'no-photo-net': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const input = positionals[0];
  const mode = values.mode as RestoreMode;
  if (!input || !values.output || positionals.length > 1 || !['auto', 'document', 'photo'].includes(mode)) {
    console.error(USAGE);
    return 2;
  }
  // The settings are read once, now: an unknown FOLIO_ENGINE_OCR stops the run before any work.
  try {
    engineSettings();
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    console.error(`folio-restore: ${error.message}`);
    return 2;
  }
  const keepTempDir = values['keep-temp'] ? await mkdtemp(path.join(tmpdir(), 'folio-restore-')) : undefined;
  const started = performance.now();
  try {
    const result = await restore(await readFile(input), {
      mode,
      pdfa: values.pdfa,
      ...(values['no-page-net'] ? { pageNet: false } : {}),
      ...(values['no-photo-net'] ? { photoNet: false } : {}),
      ...(keepTempDir ? { keepTempDir } : {}),
      onPageStart: (index) => console.error(`page ${index + 1} started`),
      onProgress: (p) =>
        console.error(
          `${p.currentPage}/${p.totalPages} pages done (${p.successfulPages} restored, ${p.failedPages} failed)`,
        ),
    });
    await writeFile(values.output, result.bytes);
    for (const page of result.pages) {
      const what = page.ok
        ? `${page.kind}: ${page.steps.join(', ') || 'no change needed'}`
        : `failed: ${page.error}`;
      console.error(
        `  page ${page.index + 1} ${what} (${page.ms} ms)${page.fallback ? ` [${describeFallback(page.fallback)}]` : ''}`,
      );
    }
    console.error(
      `wrote ${values.output} (${result.mime}) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    if (keepTempDir) console.log(`intermediates kept in ${keepTempDir}`);
    return result.pages.every((p) => !p.ok) ? 1 : 0;
  } catch (error) {
    if (error instanceof EngineInputError) {
      console.error(`folio-restore: ${error.message}`);
      return 2;
    }
    throw error;
  } finally {
    await closeEnginePool();
  }
}

process.exitCode = await main();
