import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ObjectStorage, StoredObject } from './storage.js';
import { assertValidKey, assertValidPrefix, StorageNotFoundError } from './storage.js';

const TEMP_DIR = '.tmp';

/** Files on local disk under one root directory (the embedded default: `${FOLIO_DATA_DIR}/files`). */
export class LocalStorage implements ObjectStorage {
  constructor(readonly root: string) {}

  private pathOf(key: string): string {
    assertValidKey(key);
    return path.join(this.root, ...key.split('/'));
  }

  async put(key: string, body: Readable | Buffer): Promise<void> {
    const target = this.pathOf(key);
    // Write a temp file on the same filesystem, then rename: readers see the old object or the whole new one.
    const tempDir = path.join(this.root, TEMP_DIR);
    await mkdir(tempDir, { recursive: true });
    const temp = path.join(tempDir, randomUUID());
    try {
      const source = Buffer.isBuffer(body) ? Readable.from([body]) : body;
      await pipeline(source, createWriteStream(temp, { flags: 'wx' }));
      await mkdir(path.dirname(target), { recursive: true });
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  async get(key: string): Promise<Readable> {
    const file = this.pathOf(key);
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) throw new StorageNotFoundError(key);
    return createReadStream(file);
  }

  async delete(key: string): Promise<void> {
    await unlink(this.pathOf(key)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }

  async exists(key: string): Promise<boolean> {
    const info = await stat(this.pathOf(key)).catch(() => null);
    return info?.isFile() ?? false;
  }

  async *list(prefix: string): AsyncIterable<StoredObject> {
    assertValidPrefix(prefix);
    yield* this.walk(this.root, '', prefix);
  }

  private async *walk(dir: string, keyPrefix: string, wanted: string): AsyncIterable<StoredObject> {
    const entries = await readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
    for (const entry of entries) {
      if (keyPrefix === '' && entry.name === TEMP_DIR) continue;
      const key = keyPrefix + entry.name;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        // Only descend where keys below can still start with the wanted prefix.
        const below = `${key}/`;
        if (below.startsWith(wanted) || wanted.startsWith(below)) yield* this.walk(full, below, wanted);
      } else if (entry.isFile() && key.startsWith(wanted)) {
        const info = await stat(full).catch(() => null);
        if (info) yield { key, size: info.size, lastModified: info.mtime };
      }
    }
  }
}
