// The OCR back-ends by name (no OCR code loaded here, so the settings can name them cheaply).

/** Which OCR back-end reads pages: 'auto' is the native binary when it runs, tesseract.js otherwise. */
export type OcrBackend = 'auto' | 'native' | 'tesseract.js' | 'paddle';

export const OCR_BACKENDS: readonly OcrBackend[] = ['auto', 'native', 'tesseract.js', 'paddle'];
