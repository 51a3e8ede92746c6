// A zip streamed entry by entry: each stored object is opened only when yazl reaches it, so memory stays
// flat whatever the number and size of the files, and nothing is buffered whole.
import type { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import { uniqueNames } from './filename.js';

export interface ZipEntry {
  name: string;
  mtime: Date;
  open: () => Promise<Readable>;
}

export function streamZip(entries: readonly ZipEntry[]): Readable {
  const zip = new ZipFile();
  const names = uniqueNames(entries.map((entry) => entry.name));
  entries.forEach((entry, index) => {
    // PDFs and images are already compressed; storing them saves CPU for nothing lost.
    zip.addReadStreamLazy(names[index] ?? entry.name, { mtime: entry.mtime, compress: false }, (callback) => {
      entry.open().then(
        (stream) => callback(null, stream),
        (error: unknown) => callback(error, undefined as unknown as NodeJS.ReadableStream),
      );
    });
  });
  const output = zip.outputStream as Readable;
  // yazl reports a failed entry on the ZipFile; the reader must see it on the stream it consumes.
  zip.on('error', (error: Error) => output.destroy(error));
  zip.end();
  return output;
}
