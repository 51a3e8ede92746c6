// Upload validation: what the bytes are (never the name), how many pages, and whether we accept them.
import { EngineInputError, type InputInfo } from '@folio/engine';
import { BadRequestError, HttpError, UnsupportedMediaTypeError } from '../errors.js';
import type { FileReader } from './file-reader.js';

export interface InspectLimits {
  maxPages: number;
  /** The engine's MAX_PAGE_PIXELS: what it accepts here, it can decode later. */
  maxPixels: number;
}

const EXTENSION_BY_FORMAT: Record<InputInfo['format'], string> = {
  pdf: 'pdf',
  png: 'png',
  jpeg: 'jpg',
  tiff: 'tif',
  webp: 'webp',
};

export interface InspectedFile extends InputInfo {
  extension: string;
}

/** Inspects the bytes with the engine; refusals become HTTP errors whose detail is the engine's clear message. */
export async function inspectUpload(
  reader: FileReader,
  bytes: Buffer,
  limits: InspectLimits,
): Promise<InspectedFile> {
  try {
    const info = await reader.inspect(bytes, limits);
    return { ...info, extension: EXTENSION_BY_FORMAT[info.format] };
  } catch (error) {
    throw toHttpError(error);
  }
}

function toHttpError(error: unknown): unknown {
  if (!(error instanceof EngineInputError)) return error;
  switch (error.code) {
    case 'unsupported':
      return new UnsupportedMediaTypeError(error.message);
    case 'corrupt':
      return new HttpError(422, error.message);
    case 'empty':
    case 'encrypted':
    case 'too_many_pages':
    case 'too_large_pixels':
    case 'too_complex':
      return new BadRequestError(error.message);
  }
}
