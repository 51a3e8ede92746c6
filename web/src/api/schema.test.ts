// The committed client types must match backend/openapi.json (style habit 5): regenerate and compare.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const web = path.resolve(import.meta.dirname, '../..');

describe('generated API schema', () => {
  it('is up to date with backend/openapi.json (run `npm run api:generate -w @folio/web`)', () => {
    const out = path.join(mkdtempSync(path.join(tmpdir(), 'folio-schema-')), 'schema.d.ts');
    const bin = path.resolve(web, '../node_modules/.bin/openapi-typescript');
    execFileSync(bin, [path.resolve(web, '../backend/openapi.json'), '-o', out], { stdio: 'pipe' });
    expect(readFileSync(path.join(web, 'src/api/schema.d.ts'), 'utf8')).toBe(readFileSync(out, 'utf8'));
  }, 60_000);
});
