// "Nothing else reads process.env" (CONTRIBUTING.md, "Settings and wiring"), checked on the repository's code:
// outside test code, only the settings modules named there mention it.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** The settings modules of CONTRIBUTING.md, one per process or tool. */
const SETTINGS_MODULES = [
  'backend/scripts/settings.ts',
  'backend/src/settings.ts',
  'e2e/src/settings.ts',
  'engine/scripts/settings.ts',
  'engine/src/settings.ts',
  'web/dev-settings.ts',
];

const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'data', 'artifacts']);
const CODE = /\.(ts|tsx|js|mjs|cjs)$|^Dockerfile$/;

/** Code files of the repository (its own build outputs, dependencies and dot-folders left out). */
function codeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.')) return [];
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : codeFiles(full);
    return CODE.test(entry.name) ? [path.relative(ROOT, full).split(path.sep).join('/')] : [];
  });
}

const isTestCode = (file: string): boolean =>
  /\.test\.tsx?$/.test(file) || file.split('/').some((part) => part === 'test' || part === 'test-scale');

describe('process.env is read by the settings modules only', () => {
  const files = codeFiles(ROOT);
  const reading = files.filter((f) => readFileSync(path.join(ROOT, f), 'utf8').includes('process.env'));

  it('scans the code of every workspace, tests told apart', () => {
    expect(files).toContain('engine/src/io/sandbox.ts');
    expect(files).toContain('web/vite.config.ts');
    expect(files).toContain('deploy/Dockerfile');
    expect(isTestCode('backend/test/helpers/database.ts')).toBe(true);
    expect(isTestCode('web/src/app/App.test.tsx')).toBe(true);
    expect(isTestCode('backend/src/settings.ts')).toBe(false);
  });

  it('finds it nowhere else outside test code', () => {
    expect(reading.filter((f) => !isTestCode(f)).sort()).toEqual(SETTINGS_MODULES);
  });
});
