import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import type { ObjectStorage } from '../../src/storage/storage.js';
import { StorageNotFoundError } from '../../src/storage/storage.js';

async function collect(storage: ObjectStorage, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const item of storage.list(prefix)) keys.push(item.key);
  return keys.sort();
}

/** The behaviour every ObjectStorage must have; run against each implementation. */
export function storageContract(name: string, getStorage: () => ObjectStorage): void {
  describe(`${name} storage contract`, () => {
    it('stores a buffer and streams it back byte for byte', async () => {
      const storage = getStorage();
      const bytes = randomBytes(70_000);
      await storage.put('u1/a.bin', bytes);
      expect(await storage.exists('u1/a.bin')).toBe(true);
      expect((await buffer(await storage.get('u1/a.bin'))).equals(bytes)).toBe(true);
    });

    it('stores a stream of unknown length larger than one multipart part', async () => {
      const storage = getStorage();
      const chunks = Array.from({ length: 12 }, () => randomBytes(512 * 1024));
      await storage.put('u1/big.bin', Readable.from(chunks));
      const back = await buffer(await storage.get('u1/big.bin'));
      expect(back.equals(Buffer.concat(chunks))).toBe(true);
    });

    it('replaces an object written twice under the same key', async () => {
      const storage = getStorage();
      await storage.put('u1/twice.bin', Buffer.from('first'));
      await storage.put('u1/twice.bin', Buffer.from('second'));
      expect((await buffer(await storage.get('u1/twice.bin'))).toString()).toBe('second');
    });

    it('reports missing objects: get throws StorageNotFoundError, exists is false, delete is a no-op', async () => {
      const storage = getStorage();
      await expect(storage.get('u1/missing.bin')).rejects.toBeInstanceOf(StorageNotFoundError);
      expect(await storage.exists('u1/missing.bin')).toBe(false);
      await expect(storage.delete('u1/missing.bin')).resolves.toBeUndefined();
    });

    it('deletes an object', async () => {
      const storage = getStorage();
      await storage.put('u1/gone.bin', Buffer.from('x'));
      await storage.delete('u1/gone.bin');
      expect(await storage.exists('u1/gone.bin')).toBe(false);
      await expect(storage.get('u1/gone.bin')).rejects.toBeInstanceOf(StorageNotFoundError);
    });

    it('lists by prefix with size and modification time', async () => {
      const storage = getStorage();
      const before = Date.now() - 60_000;
      await storage.put('list/a/one.bin', Buffer.from('1'));
      await storage.put('list/a/two.bin', Buffer.from('22'));
      await storage.put('list/b/three.bin', Buffer.from('333'));
      expect(await collect(storage, 'list/a/')).toEqual(['list/a/one.bin', 'list/a/two.bin']);
      expect(await collect(storage, 'list/')).toEqual([
        'list/a/one.bin',
        'list/a/two.bin',
        'list/b/three.bin',
      ]);
      expect(await collect(storage, 'list/b/th')).toEqual(['list/b/three.bin']);
      expect(await collect(storage, 'nothing-here/')).toEqual([]);
      const items = [];
      for await (const item of storage.list('list/b/')) items.push(item);
      expect(items[0]?.size).toBe(3);
      expect(items[0]?.lastModified.getTime()).toBeGreaterThan(before);
    });

    it('refuses keys that could escape the storage root or come from user filenames', async () => {
      const storage = getStorage();
      for (const key of [
        '../etc/passwd',
        '/abs/key',
        'a/../../b',
        'Name With Spaces.pdf',
        'a//b',
        '',
        'a/./b',
      ]) {
        await expect(storage.put(key, Buffer.from('x')), key).rejects.toThrow(/Invalid storage key/);
      }
      await expect(storage.get('../secret')).rejects.toThrow(/Invalid storage key/);
      await expect(storage.list('../')[Symbol.asyncIterator]().next()).rejects.toThrow(/Invalid storage key/);
    });

    it('keeps the old object when a streamed put fails midway', async () => {
      const storage = getStorage();
      await storage.put('u1/keep.bin', Buffer.from('old'));
      function* failing(): Generator<Buffer> {
        yield randomBytes(1024);
        throw new Error('client went away');
      }
      await expect(storage.put('u1/keep.bin', Readable.from(failing()))).rejects.toThrow();
      expect((await buffer(await storage.get('u1/keep.bin'))).toString()).toBe('old');
    });
  });
}
