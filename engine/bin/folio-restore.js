#!/usr/bin/env node
// npm bin: starts the TypeScript CLI through tsx's loader (resolved from this package, any working directory).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const entry = path.join(here, '..', 'src', 'cli', 'main.ts');
const result = spawnSync(process.execPath, ['--import', tsx, entry, ...process.argv.slice(2)], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
