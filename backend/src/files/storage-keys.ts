// Storage keys of files: made from the server-generated file id only, never from a filename or user input.

export const FILE_OBJECTS_PREFIX = 'objects/';

export function contentKey(fileId: string): string {
  return `${FILE_OBJECTS_PREFIX}${fileId}/content`;
}

export function previewKey(fileId: string, mime: 'image/webp' | 'image/png'): string {
  return `${FILE_OBJECTS_PREFIX}${fileId}/preview.${mime === 'image/png' ? 'png' : 'webp'}`;
}

export function previewMimeOfKey(key: string): string {
  return key.endsWith('.png') ? 'image/png' : 'image/webp';
}

const KEY_PATTERN = /^objects\/([0-9a-f-]{36})\/(content|preview\.webp|preview\.png)$/;

/** The file id an object belongs to, or undefined for keys this module did not make. */
export function fileIdOfKey(key: string): string | undefined {
  return KEY_PATTERN.exec(key)?.[1];
}
