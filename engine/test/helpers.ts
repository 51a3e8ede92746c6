// Shared test helpers: real files from the shared eval set, found relative to the repository root.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ReadingQuality } from '../src/guard/quality.js';

export const engineDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const evalDir = process.env.FOLIO_EVAL_DIR ?? path.resolve(engineDir, '../../shared/eval');
export const publicSet = path.join(evalDir, 'public');
export const fixturesDir = path.join(engineDir, 'test', 'fixtures');

export function evalFile(sample: string, file: string): Buffer {
  return readFileSync(path.join(publicSet, sample, file));
}

export function fixture(name: string): Buffer {
  return readFileSync(path.join(fixturesDir, name));
}

/** A page's reading as the guard sums it up: words read, their mean confidence, words read unsure. */
export function reading(words: number, meanConfidence: number, unsure = 0): ReadingQuality {
  return { words, meanConfidence, unsure };
}
