// What the job runner needs from the restoration engine: open a document, restore one page at a time (the
// engine runs the pixel work in its worker threads), and assemble the output from the pages it got.
// Restored pages are opaque to the runner; they only have to survive a JSON checkpoint.

export interface RestoredOutput {
  bytes: Buffer;
  mime: string;
  /** Without the dot, e.g. "pdf". */
  extension: string;
}

export interface EngineDocument {
  readonly pageCount: number;
  restorePage(index: number, signal: AbortSignal): Promise<unknown>;
  /** A page given as null failed; the engine keeps the original page there. */
  assemble(pages: readonly unknown[]): Promise<RestoredOutput>;
}

export interface PageEngine {
  open(bytes: Buffer): Promise<EngineDocument>;
}
