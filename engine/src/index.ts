// Public API of @folio/engine.
export { EngineInputError, inputErrors, PageTimeoutError, type EngineInputErrorCode } from './errors.js';
export type { RawImage } from './image.js';
export { sniffFormat, type InputFormat } from './io/sniff.js';
export { inspectInput, type InputInfo, type InputLimits } from './io/inspect.js';
export { MAX_PAGE_PIXELS } from './io/limits.js';
export { PDF_BOUNDS } from './io/pdf-bounds.js';
export { renderThumbnail, type Thumbnail } from './io/thumbnail.js';
export { Sandbox, defaultSandboxOptions, residentMb, type SandboxOptions } from './io/sandbox.js';
export type { Doc, PageSize } from './io/decode.js';
export type { OcrWord } from './io/encode.js';
export type { RestoreMode } from './analysis/plan.js';
export type { PageKind } from './analysis/measure.js';
export { describeFallback, type PageOptions, type RestoredPage } from './pipeline/page.js';
export {
  DEFAULT_PAGE_TIMEOUT_MS,
  assembleOutput,
  loadDocument,
  restore,
  restoreDocument,
  restorePage,
  type AssembledOutput,
  type PageCheckpoints,
  type PageDone,
  type PageOutcome,
  type PageReport,
  type RestoreDocumentOptions,
  type RestoreOptions,
  type RestorePageOptions,
  type RestoreProgress,
  type RestoreResult,
} from './pipeline/restore.js';
export { closeEnginePool, warmEnginePool } from './pipeline/pool.js';
export {
  createDefaultRegistry,
  StepRegistry,
  type Step,
  type StepCall,
  type StepKind,
  type StepParams,
} from './steps/index.js';
