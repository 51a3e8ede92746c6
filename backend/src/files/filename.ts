// Display names of uploaded files. Names are only ever shown and sent back in Content-Disposition;
// storage keys are made by the server and never come from here.
import path from 'node:path';

const MAX_NAME_LENGTH = 200;
// C0/C1 control characters, DEL, and bidi/zero-width format characters that disguise extensions.
// eslint-disable-next-line no-control-regex
const UNSAFE_CHARS = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;
const RESERVED_CHARS = /[<>:"|?*\\/]/g;

/** The name as the user's file was called: last path component, no control characters, bounded length. */
export function cleanClientName(name: string | undefined): string {
  const lastPart = (name ?? '').replace(UNSAFE_CHARS, '').split(/[/\\]/).pop() ?? '';
  return truncateCodePoints(lastPart.trim(), MAX_NAME_LENGTH);
}

/**
 * A safe display name: last path component only (both separators), no control or reserved characters,
 * no leading dots, bounded length, and the extension of the detected format (content decides the type).
 */
export function sanitizeFilename(name: string | undefined, extension: string): string {
  const cleaned = (name ?? '').replace(UNSAFE_CHARS, '');
  const lastPart = cleaned.split(/[/\\]/).pop() ?? '';
  let base = lastPart.replace(RESERVED_CHARS, '_').replace(/\s+/g, ' ').trim().replace(/^\.+/, '');
  const userExt = path.extname(base).slice(1);
  const ext = userExt.toLowerCase();
  // "scan.JPEG" stays .jpeg; "photo.pdf" that holds a PNG becomes "photo.png"; "notes.txt" → "notes.txt.pdf".
  const keepsExt = ext !== '' && sameFormat(ext, extension);
  if (keepsExt || KNOWN_EXTENSIONS.has(ext)) base = base.slice(0, -(ext.length + 1));
  base = base.trim().replace(/[. ]+$/, '');
  if (base === '') base = 'file';
  const keptExt = keepsExt ? userExt : extension;
  const maxBase = MAX_NAME_LENGTH - keptExt.length - 1;
  return `${truncateCodePoints(base, maxBase)}.${keptExt}`;
}

const KNOWN_EXTENSIONS = new Set(['pdf', 'png', 'jpg', 'jpeg', 'jpe', 'tif', 'tiff', 'webp']);
const SYNONYMS: Record<string, string> = { jpeg: 'jpg', jpe: 'jpg', tiff: 'tif' };

function sameFormat(a: string, b: string): boolean {
  return (SYNONYMS[a] ?? a) === (SYNONYMS[b] ?? b);
}

function truncateCodePoints(text: string, max: number): string {
  const points = Array.from(text);
  return points.length <= max ? text : points.slice(0, max).join('').trim();
}

/** `file_type` of spec §3: the lowercased extension of the display name. */
export function fileTypeOf(filename: string): string {
  const ext = path.extname(filename).toLowerCase().slice(1);
  return ext === '' ? 'bin' : ext;
}

/**
 * Content-Disposition with an ASCII fallback and the exact UTF-8 name (RFC 6266 / RFC 5987),
 * e.g. `attachment; filename="Resume.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9.pdf`.
 */
export function contentDisposition(
  filename: string,
  disposition: 'attachment' | 'inline' = 'attachment',
): string {
  const fallback = filename
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${disposition}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** Makes every name in a list unique (`a.pdf`, `a (2).pdf`, ...), case-insensitively, for zip entries. */
export function uniqueNames(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    const ext = path.extname(name);
    const base = name.slice(0, name.length - ext.length);
    let candidate = name;
    for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${base} (${n})${ext}`;
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}
