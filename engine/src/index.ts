// Public API of @folio/engine.
export { EngineInputError, PageTimeoutError, type EngineInputErrorCode } from './errors.js';
export type { RawImage } from './image.js';
export { sniffFormat, type InputFormat } from './io/sniff.js';
export { inspectInput, type InputInfo, type InputLimits } from './io/inspect.js';
export { renderThumbnail, type Thumbnail } from './io/thumbnail.js';
