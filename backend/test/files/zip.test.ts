import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { streamZip } from '../../src/files/zip.js';

describe('streamZip', () => {
  it('opens one entry at a time, in order, and makes names unique', async () => {
    const opened: string[] = [];
    let open = 0;
    let maxOpen = 0;
    const entry = (name: string, text: string) => ({
      name,
      mtime: new Date('2026-01-02T03:04:05Z'),
      open: () => {
        opened.push(text);
        maxOpen = Math.max(maxOpen, ++open);
        const stream = Readable.from([Buffer.from(text), Buffer.alloc(256 * 1024, text)]);
        stream.once('end', () => open--);
        return Promise.resolve(stream);
      },
    });
    const zip = await buffer(
      streamZip([entry('a.txt', 'one'), entry('a.txt', 'two'), entry('b.txt', 'three')]),
    );
    expect(opened).toEqual(['one', 'two', 'three']);
    expect(maxOpen).toBe(1);

    const dir = await mkdtemp(path.join(tmpdir(), 'folio-zip-'));
    try {
      await writeFile(path.join(dir, 'out.zip'), zip);
      execFileSync('unzip', ['-q', 'out.zip', '-d', 'x'], { cwd: dir });
      expect((await readdir(path.join(dir, 'x'))).sort()).toEqual(['a (2).txt', 'a.txt', 'b.txt']);
      const expected = Buffer.concat([Buffer.from('two'), Buffer.alloc(256 * 1024, 'two')]);
      expect((await readFile(path.join(dir, 'x', 'a (2).txt'))).equals(expected)).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('fails the stream when an entry cannot be opened', async () => {
    const stream = streamZip([
      { name: 'gone.pdf', mtime: new Date(), open: () => Promise.reject(new Error('object vanished')) },
    ]);
    await expect(buffer(stream)).rejects.toThrow('object vanished');
  });
});
