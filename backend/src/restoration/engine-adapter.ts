// PageEngine over @folio/engine's page-level API. The engine runs each page in its worker threads with a
// time limit; this adapter only passes the job's abort signal and the limit through.
import { assembleOutput, loadDocument, restorePage, type RestoredPage } from '@folio/engine';
import type { EngineDocument, PageEngine, RestoredOutput } from './page-engine.js';

export class FolioPageEngine implements PageEngine {
  constructor(private readonly pageTimeoutMs: number) {}

  async open(bytes: Buffer): Promise<EngineDocument> {
    const doc = await loadDocument(bytes);
    const timeoutMs = this.pageTimeoutMs;
    return {
      pageCount: doc.pageCount,
      restorePage: (index, signal) => restorePage(doc, index, { signal, timeoutMs }),
      async assemble(pages): Promise<RestoredOutput> {
        const output = await assembleOutput(doc, pages as (RestoredPage | null)[]);
        return {
          bytes: Buffer.from(output.bytes.buffer, output.bytes.byteOffset, output.bytes.byteLength),
          mime: output.mime,
          extension: output.extension,
        };
      },
    };
  }
}
