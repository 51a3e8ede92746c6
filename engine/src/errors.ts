// Typed errors of the engine. EngineInputError messages are written to be shown to a user as they are.

export type EngineInputErrorCode =
  'empty' | 'unsupported' | 'corrupt' | 'encrypted' | 'too_many_pages' | 'too_large_pixels' | 'too_complex';

/** The input file cannot be restored as given (bad, protected or too large). */
export class EngineInputError extends Error {
  override readonly name = 'EngineInputError';
  constructor(
    readonly code: EngineInputErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export const inputErrors = {
  empty: () => new EngineInputError('empty', 'The file is empty.'),
  unsupported: () =>
    new EngineInputError(
      'unsupported',
      'This file type is not supported. Please upload a PDF, PNG, JPEG, TIFF or WEBP file.',
    ),
  corrupt: (cause?: unknown) =>
    new EngineInputError('corrupt', 'The file is damaged or incomplete and cannot be read.', { cause }),
  encrypted: () =>
    new EngineInputError(
      'encrypted',
      'This PDF is password-protected. Please remove the password and upload it again.',
    ),
  tooManyPages: (pages: number, max: number) =>
    new EngineInputError('too_many_pages', `The document has ${pages} pages; the maximum is ${max} pages.`),
  tooLargePixels: (width: number, height: number, maxPixels: number) =>
    new EngineInputError(
      'too_large_pixels',
      `The image is too large (${width} × ${height} pixels); the maximum is ${formatMegapixels(maxPixels)} megapixels.`,
    ),
  tooComplex: () =>
    new EngineInputError(
      'too_complex',
      'This PDF is too complex to process: a page draws too many or too large images or shapes.',
    ),
};

function formatMegapixels(pixels: number): string {
  const mp = pixels / 1_000_000;
  return Number.isInteger(mp) ? String(mp) : mp.toFixed(1);
}

/** A page took longer than its time limit. */
export class PageTimeoutError extends Error {
  override readonly name = 'PageTimeoutError';
  constructor(
    readonly pageIndex: number,
    readonly timeoutMs: number,
  ) {
    super(`Page ${pageIndex + 1} took longer than ${timeoutMs} ms.`);
  }
}
