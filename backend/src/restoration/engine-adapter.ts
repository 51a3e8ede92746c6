// PageEngine over @folio/engine's page loop (`restoreDocument`): the engine runs the pages in its worker
// threads with a time limit each and builds the output in one; this adapter passes the job's hooks through.
import {
  assembleOutput,
  loadDocument,
  restoreDocument,
  warmEnginePool,
  type PageOutcome,
  type RestoreDocumentOptions,
  type RestoredPage,
} from '@folio/engine';
import type { PageCheckpoint } from './checkpoint.js';
import type { EngineDocument, PageEngine, RestoredOutput } from './page-engine.js';

export class FolioPageEngine implements PageEngine {
  /** `runPage` replaces how one page is run (tests wrap the engine's own to record or fail pages). */
  constructor(
    private readonly pageTimeoutMs: number,
    private readonly runPage?: RestoreDocumentOptions['runPage'],
  ) {}

  warm(): void {
    warmEnginePool();
  }

  async open(bytes: Buffer): Promise<EngineDocument> {
    const doc = await loadDocument(bytes);
    const { pageTimeoutMs, runPage } = this;
    return {
      pageCount: doc.pageCount,
      async restorePages(hooks): Promise<PageCheckpoint[]> {
        return restoreDocument(doc, {
          pageTimeoutMs,
          signal: hooks.signal,
          // A checkpoint holds what the engine returned, after a JSON round trip.
          checkpoint: {
            load: async (index) => (await hooks.checkpoint.load(index)) as PageOutcome | undefined,
            save: (index, outcome) => hooks.checkpoint.save(index, outcome),
          },
          onPageStart: (index) => hooks.onPageStart(index),
          onPageDone: (page) => hooks.onPageDone(page),
          ...(runPage ? { runPage } : {}),
        });
      },
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
