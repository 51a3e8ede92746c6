// Format detection from magic bytes: the file name and the declared MIME type are not trusted.

export type InputFormat = 'pdf' | 'png' | 'jpeg' | 'tiff' | 'webp';

export const MIME_BY_FORMAT: Record<InputFormat, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpeg: 'image/jpeg',
  tiff: 'image/tiff',
  webp: 'image/webp',
};

export const EXTENSION_BY_FORMAT: Record<InputFormat, string> = {
  pdf: 'pdf',
  png: 'png',
  jpeg: 'jpg',
  tiff: 'tif',
  webp: 'webp',
};

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false;
  return signature.every((b, i) => bytes[offset + i] === b);
}

const PDF_MARKER = [0x25, 0x50, 0x44, 0x46, 0x2d]; // "%PDF-"

export function sniffFormat(bytes: Uint8Array): InputFormat | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a]))
    return 'tiff';
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8))
    return 'webp';
  // Readers accept a PDF header anywhere in the first KiB (some producers prepend junk).
  const head = bytes.subarray(0, 1024);
  for (let i = 0; i + PDF_MARKER.length <= head.length; i++) {
    if (startsWith(head, PDF_MARKER, i)) return 'pdf';
  }
  return null;
}
