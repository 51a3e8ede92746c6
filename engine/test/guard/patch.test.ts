// Word-by-word fallback: pixels inside the guard's boxes come from the conservative output, and the text
// layer's words there are replaced in reading order.
import { describe, expect, it } from 'vitest';
import type { RawImage } from '../../src/image.js';
import type { OcrWord } from '../../src/io/encode.js';
import { mergeWords, padBoxes, patchBoxes, patchBoxesLevelled } from '../../src/guard/patch.js';
import { lineSpans } from '../../src/guard/word-fallback.js';

const word = (text: string, x0: number, y0: number, x1: number, y1: number): OcrWord => ({
  text,
  x0,
  y0,
  x1,
  y1,
  confidence: 95,
});

describe('padBoxes', () => {
  it('grows boxes to whole pixels and clips them to the image', () => {
    expect(padBoxes([{ x0: 1.5, y0: 10, x1: 20.2, y1: 18 }], 3, 22, 100)).toEqual([
      { x0: 0, y0: 7, x1: 22, y1: 21 },
    ]);
  });
});

describe('patchBoxes', () => {
  it('takes the pixels inside the boxes from the other image and leaves the rest', () => {
    const base: RawImage = { width: 4, height: 3, channels: 3, data: new Uint8Array(36).fill(200) };
    const from: RawImage = { width: 4, height: 3, channels: 3, data: new Uint8Array(36).fill(10) };
    const out = patchBoxes(base, from, [{ x0: 1, y0: 1, x1: 3, y1: 2 }]);
    const px = (x: number, y: number) => out.data[(y * 4 + x) * 3]!;
    expect([px(0, 1), px(1, 1), px(2, 1), px(3, 1)]).toEqual([200, 10, 10, 200]);
    expect(px(1, 0)).toBe(200);
    expect(px(2, 2)).toBe(200);
    expect(base.data[15]).toBe(200);
  });

  it('refuses images of different shapes', () => {
    const a: RawImage = { width: 2, height: 2, channels: 1, data: new Uint8Array(4) };
    const b: RawImage = { width: 2, height: 2, channels: 3, data: new Uint8Array(12) };
    expect(() => patchBoxes(a, b, [])).toThrow(RangeError);
  });
});

describe('patchBoxesLevelled', () => {
  it('brings a pale word back as dark ink on white paper, keeping the order of tones', () => {
    // 20×10 grey: paper 190 (a stain), a pale "word" of 140 in the middle rows, a lighter edge of 165 around it.
    const from: RawImage = { width: 20, height: 10, channels: 1, data: new Uint8Array(200).fill(190) };
    for (let x = 5; x < 15; x++) {
      from.data[4 * 20 + x] = 140;
      from.data[5 * 20 + x] = 140;
      from.data[3 * 20 + x] = 165;
    }
    const base: RawImage = { width: 20, height: 10, channels: 1, data: new Uint8Array(200).fill(255) };
    const out = patchBoxesLevelled(base, from, [{ x0: 2, y0: 1, x1: 18, y1: 8 }]);
    const px = (x: number, y: number) => out.data[y * 20 + x]!;
    expect(px(10, 4)).toBeLessThanOrEqual(60);
    expect(px(2, 1)).toBe(255);
    expect(px(10, 3)).toBeGreaterThan(px(10, 4));
    expect(px(10, 3)).toBeLessThan(255);
    expect(px(0, 0)).toBe(255);
  });

  it('keeps ink that is darker than the target as dark as it was', () => {
    const from: RawImage = { width: 10, height: 10, channels: 1, data: new Uint8Array(100).fill(230) };
    from.data.fill(20, 40, 50);
    const base: RawImage = { width: 10, height: 10, channels: 1, data: new Uint8Array(100).fill(255) };
    const out = patchBoxesLevelled(base, from, [{ x0: 0, y0: 0, x1: 10, y1: 10 }]);
    expect(out.data[45]).toBe(20);
    expect(out.data[5]).toBe(255);
  });
});

describe('mergeWords', () => {
  it('puts the re-read words where the replaced ones stood', () => {
    const outside = [
      word('The', 0, 0, 30, 10),
      word('qnick', 40, 0, 80, 10),
      word('fox', 90, 0, 120, 10),
      word('jumps', 0, 20, 50, 30),
    ];
    const boxes = [{ x0: 35, y0: -2, x1: 85, y1: 12 }];
    const merged = mergeWords(outside, [word('quick', 41, 0, 79, 10)], boxes);
    expect(merged.map((w) => w.text)).toEqual(['The', 'quick', 'fox', 'jumps']);
  });

  it('keeps re-read words whose box held no word before', () => {
    const merged = mergeWords(
      [word('a', 0, 0, 5, 5)],
      [word('lost', 50, 50, 80, 60)],
      [{ x0: 40, y0: 40, x1: 90, y1: 70 }],
    );
    expect(merged.map((w) => w.text)).toEqual(['a', 'lost']);
  });
});

describe('lineSpans', () => {
  it('joins the words of one line into one box from the first to the last, and keeps stray words', () => {
    const lines = [
      { x0: 0, y0: 0, x1: 300, y1: 20 },
      { x0: 0, y0: 30, x1: 300, y1: 50 },
    ];
    const words = [
      { x0: 10, y0: 2, x1: 40, y1: 18 },
      { x0: 200, y0: 3, x1: 250, y1: 19 },
      { x0: 50, y0: 32, x1: 90, y1: 48 },
      { x0: 400, y0: 100, x1: 420, y1: 110 },
    ];
    expect(lineSpans(words, lines)).toEqual([
      { x0: 10, y0: 2, x1: 250, y1: 19 },
      { x0: 50, y0: 32, x1: 90, y1: 48 },
      { x0: 400, y0: 100, x1: 420, y1: 110 },
    ]);
  });
});
