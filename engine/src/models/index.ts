// Neural models of the engine: converted ESRGAN super-resolution behind an ONNX Runtime session wrapper.
export {
  DEFAULT_MODELS_DIR,
  MODELS,
  UPSCALE_FACTORS,
  UPSCALE_SIZES,
  packageInfo,
  upscaleModel,
  upscaleModelId,
  type ModelSpec,
  type UpscaleFactor,
  type UpscaleModelSize,
} from './catalog.js';
export { ModelLoadError, ModelRunError, type ModelLoadErrorCode } from './errors.js';
export {
  OnnxSession,
  configureModels,
  modelSettings,
  releaseSessions,
  sessionFor,
  type ModelRuntimeSettings,
} from './session.js';
export { upscale, type UpscaleOptions } from './upscale.js';
