import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalStorage } from '../../src/storage/local-storage.js';
import { storageContract } from './storage-contract.js';

let root: string;
let storage: LocalStorage;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'folio-local-storage-'));
  storage = new LocalStorage(path.join(root, 'files'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

storageContract('LocalStorage', () => storage);

describe('LocalStorage on disk', () => {
  it('writes objects under the root at the key path and leaves no temp file behind', async () => {
    await storage.put('disk/x.bin', Buffer.from('abc'));
    expect(await readdir(path.join(root, 'files', 'disk'))).toEqual(['x.bin']);
    expect(await readdir(path.join(root, 'files', '.tmp'))).toEqual([]);
  });

  it('removes the temp file of a failed write and does not list it', async () => {
    function* failing(): Generator<Buffer> {
      yield Buffer.alloc(10);
      throw new Error('broken');
    }
    await expect(storage.put('disk/broken.bin', Readable.from(failing()))).rejects.toThrow('broken');
    expect(await readdir(path.join(root, 'files', '.tmp'))).toEqual([]);
    const keys: string[] = [];
    for await (const item of storage.list('')) keys.push(item.key);
    expect(keys.some((key) => key.includes('.tmp') || key.includes('broken'))).toBe(false);
  });
});
