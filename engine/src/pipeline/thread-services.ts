// The services of this thread (OCR for the text layer, the word guard), created lazily on first use.
import type { PageServices } from './services.js';

export function threadServices(): PageServices {
  return {};
}
