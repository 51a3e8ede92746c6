// Which way the OCR read a page's words: across, or running down the page (a page lying sideways).
import { describe, expect, it } from 'vitest';
import { readSideways } from '../../src/guard/quality.js';
import type { OcrWord } from '../../src/ocr/recognize.js';

/** A word whose box is `w` wide and `h` tall. */
const word = (text: string, w: number, h: number): OcrWord => ({
  text,
  confidence: 95,
  x0: 0,
  y0: 0,
  x1: w,
  y1: h,
});

describe('readSideways', () => {
  it('is true where most words of three letters or more stand taller than wide', () => {
    const down = ['committee', 'member', 'agreed', 'schedule', 'meeting', 'closed'].map((t) =>
      word(t, 20, 90),
    );
    expect(readSideways([...down, word('treasurer', 110, 20), word('report', 70, 20)])).toBe(true);
  });

  it('is false for words read across, and for short words or too few words, whatever their boxes', () => {
    const across = ['committee', 'member', 'agreed', 'schedule', 'meeting', 'closed'].map((t) =>
      word(t, 90, 20),
    );
    expect(readSideways(across)).toBe(false);
    // "I", "a", "of" stand tall read across; they do not count.
    expect(readSideways(['I', 'a', 'of', 'to', 'I', 'a', 'in'].map((t) => word(t, 8, 20)))).toBe(false);
    expect(readSideways(['committee', 'member', 'agreed', 'closed'].map((t) => word(t, 20, 90)))).toBe(false);
  });
});
