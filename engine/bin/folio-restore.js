#!/usr/bin/env node
// npm bin: starts the TypeScript CLI through tsx's loader (resolved from this package, any working directory).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const entry = path.join(here, '..', 'src', 'cli', 'main.ts');
// glibc's allocator settings of the repository's Makefile (why: see there), unless the caller set its own; they are
// read when a process starts, so the child gets them.
const GLIBC_TUNABLES =
  'glibc.malloc.hugetlb=1:glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=134217728:glibc.malloc.top_pad=33554432:glibc.malloc.arena_max=2';
const result = spawnSync(process.execPath, ['--import', tsx, entry, ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, GLIBC_TUNABLES: process.env.GLIBC_TUNABLES ?? GLIBC_TUNABLES },
});
process.exit(result.status ?? 1);
