// Typed errors of the model layer, so callers can fall back to classical steps instead of failing a page.

export type ModelLoadErrorCode = 'missing' | 'invalid';

/** A model file could not be turned into a runnable session (absent, truncated, corrupt or unsupported). */
export class ModelLoadError extends Error {
  override readonly name = 'ModelLoadError';
  constructor(
    readonly code: ModelLoadErrorCode,
    readonly modelId: string,
    readonly file: string,
    options?: { cause?: unknown },
  ) {
    super(
      code === 'missing'
        ? `Model ${modelId} is not installed (${file}); run \`npm run models -w @folio/engine\`.`
        : `Model ${modelId} could not be loaded from ${file}: ${describe(options?.cause)}`,
      options,
    );
  }
}

/** The model ran but failed or produced something unusable. */
export class ModelRunError extends Error {
  override readonly name = 'ModelRunError';
  constructor(
    readonly modelId: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`Model ${modelId}: ${message}`, options);
  }
}

function describe(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}
