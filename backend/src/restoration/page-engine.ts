// What the job runner needs from the restoration engine: open a document, restore its pages (the engine owns
// the page loop: pages run in parallel in its worker threads) through a checkpoint seam and progress hooks,
// and assemble the output from the pages it got. Restored pages are opaque to the runner; they only have to
// survive a JSON checkpoint.
import type { PageCheckpoint } from './checkpoint.js';

export interface RestoredOutput {
  bytes: Buffer;
  mime: string;
  /** Without the dot, e.g. "pdf". */
  extension: string;
}

/** A page done: `ms` is its wall time in this run (0 when it came from a checkpoint). */
export interface PageDone {
  index: number;
  outcome: PageCheckpoint;
  ms: number;
  fromCheckpoint: boolean;
}

export interface PageHooks {
  signal: AbortSignal;
  /** Finished pages of earlier runs are taken from here; each page is saved here before it is reported done. */
  checkpoint: {
    load(index: number): Promise<PageCheckpoint | undefined>;
    save(index: number, outcome: PageCheckpoint): Promise<void>;
  };
  onPageStart(index: number): Promise<void>;
  onPageDone(page: PageDone): Promise<void>;
}

export interface EngineDocument {
  readonly pageCount: number;
  /** Every page's outcome; rejects only when the signal aborts or a hook throws. */
  restorePages(hooks: PageHooks): Promise<PageCheckpoint[]>;
  /** A page given as null failed; the engine keeps the original page there. */
  assemble(pages: readonly unknown[]): Promise<RestoredOutput>;
}

export interface PageEngine {
  open(bytes: Buffer): Promise<EngineDocument>;
  /** Starts the engine's threads now and keeps them (a job worker calls this when it starts consuming jobs). */
  warm?(): void;
}
