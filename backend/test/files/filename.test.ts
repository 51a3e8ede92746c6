import { describe, expect, it } from 'vitest';
import {
  cleanClientName,
  contentDisposition,
  fileTypeOf,
  sanitizeFilename,
  uniqueNames,
} from '../../src/files/filename.js';
import { HOSTILE_NAMES } from '../fixtures/bad-files.js';

describe('sanitizeFilename', () => {
  it.each(HOSTILE_NAMES)('turns $filename into $expected', ({ filename, expected }) => {
    expect(sanitizeFilename(filename, 'png')).toBe(expected);
  });

  it('keeps the user spelling of a matching extension and fixes a wrong one (content decides)', () => {
    expect(sanitizeFilename('Scan.JPEG', 'jpg')).toBe('Scan.JPEG');
    expect(sanitizeFilename('report.pdf', 'png')).toBe('report.png');
    expect(sanitizeFilename('notes.txt', 'pdf')).toBe('notes.txt.pdf');
    expect(sanitizeFilename('archive.tiff', 'tif')).toBe('archive.tiff');
    expect(sanitizeFilename(undefined, 'pdf')).toBe('file.pdf');
  });

  it('replaces reserved characters, keeps Unicode and bounds the length', () => {
    expect(sanitizeFilename('a<b>c:d"e|f?g*h.pdf', 'pdf')).toBe('a_b_c_d_e_f_g_h.pdf');
    expect(sanitizeFilename('Résumé 東京.pdf', 'pdf')).toBe('Résumé 東京.pdf');
    const long = sanitizeFilename(`${'x'.repeat(500)}.pdf`, 'pdf');
    expect(long.length).toBe(200);
    expect(long.endsWith('.pdf')).toBe(true);
  });
});

describe('cleanClientName', () => {
  it('keeps the name as the file was called, without its path or control characters', () => {
    expect(cleanClientName('../../etc/report.pdf')).toBe('report.pdf');
    expect(cleanClientName('C:\\Users\\me\\scan 1.PDF')).toBe('scan 1.PDF');
    expect(cleanClientName('a\u0000b\u202e.png')).toBe('ab.png');
    expect(cleanClientName(undefined)).toBe('');
  });
});

describe('fileTypeOf', () => {
  it('is the lowercased extension, or bin', () => {
    expect(fileTypeOf('Scan.JPEG')).toBe('jpeg');
    expect(fileTypeOf('a.pdf')).toBe('pdf');
    expect(fileTypeOf('noext')).toBe('bin');
  });
});

describe('contentDisposition', () => {
  it('gives an ASCII fallback and the exact UTF-8 name (RFC 5987)', () => {
    expect(contentDisposition('Résumé "final".pdf')).toBe(
      `attachment; filename="Resume _final_.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%22final%22.pdf`,
    );
    expect(contentDisposition("it's (1).png", 'inline')).toBe(
      `inline; filename="it's (1).png"; filename*=UTF-8''it%27s%20%281%29.png`,
    );
  });
});

describe('uniqueNames', () => {
  it('numbers repeated names case-insensitively', () => {
    expect(uniqueNames(['a.pdf', 'A.pdf', 'a.pdf', 'b.png', 'a (2).pdf'])).toEqual([
      'a.pdf',
      'A (2).pdf',
      'a (3).pdf',
      'b.png',
      'a (2) (2).pdf',
    ]);
  });
});
