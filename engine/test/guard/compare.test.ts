// The guard's word comparison on its own: which differences count as repairs and which as rewrites.
import { describe, expect, it } from 'vitest';
import { type OcrResult, type OcrWord } from '../../src/ocr/index.js';
import { compareWords, reduceBy } from '../../src/guard/index.js';

/** One line of words laid out left to right, 100 px per word, all read with the given confidence. */
function page(texts: string[], confidence = 95): OcrResult {
  const words: OcrWord[] = texts.map((text, i) => ({
    text,
    confidence,
    x0: i * 100,
    y0: 0,
    x1: i * 100 + 90,
    y1: 20,
  }));
  return {
    text: texts.join(' '),
    words,
    lines: [{ text: texts.join(' '), confidence, x0: 0, y0: 0, x1: texts.length * 100, y1: 20, words }],
  };
}

const same = { x: 1, y: 1 };

describe('compareWords', () => {
  it('accepts completed fragments and one fixed letter in long words', () => {
    const result = compareWords(
      page(['greed', 'signea', 'the', 'contract']),
      page(['agreed', 'signed', 'the', 'contract']),
      same,
    );
    expect(result.accept).toBe(true);
    expect(result.repairedWords).toEqual([
      { input: 'greed', output: 'agreed' },
      { input: 'signea', output: 'signed' },
    ]);
    expect([result.inputWords, result.keptWords]).toEqual([3, 3]);
  });

  it('rejects a one-letter change in a number', () => {
    const result = compareWords(
      page(['invoice', '12345', 'paid']),
      page(['invoice', '12346', 'paid']),
      same,
      { maxLostShare: 0.9 },
    );
    expect(result.accept).toBe(false);
    expect(result.changedWords).toEqual([{ input: '12345', output: '12346' }]);
  });

  it('accepts two words the input had read as one', () => {
    const input = page(['agreed', 'thatthe', 'work']);
    const output = page(['agreed', 'that', 'work']);
    output.words.splice(2, 0, { ...output.words[1]!, text: 'the', x0: 150 });
    output.words[1]!.x1 = 140;
    const result = compareWords(input, output, same);
    expect(result.repairedWords).toEqual([{ input: 'thatthe', output: 'that the' }]);
    expect(result.accept).toBe(true);
  });

  it('tolerates one OCR flip on a page, not two, not a rewrite and never a number', () => {
    const words = ['Each', 'contributor', 'grants', 'your', 'permission', 'under', 'these', 'terms'];
    const flipped = (changes: Record<number, string>) => page(words.map((w, i) => changes[i] ?? w));
    expect(compareWords(page(words), flipped({ 3: 'yoiir' }), same).accept).toBe(true);
    expect(compareWords(page(words), flipped({ 0: 'Gach', 3: 'yoiir' }), same).accept).toBe(false);
    expect(compareWords(page(words), flipped({ 3: 'mine' }), same).accept).toBe(false);
    expect(compareWords(page([...words, '2026']), page([...words, '2028']), same).accept).toBe(false);
  });

  it('does not let a short word hide inside a longer word elsewhere', () => {
    const result = compareWords(
      page(['and', 'standard', 'rules']),
      page(['rules', 'standard', 'standard']),
      same,
      { minLength: 3, maxFlippedWords: 0 },
    );
    expect(result.lostWords.length + result.changedWords.length).toBe(1);
    expect(result.accept).toBe(false);
  });

  it('ignores unsure, short and non-alphanumeric input words', () => {
    const input = page(['ok', '$16.93', 'word']);
    input.words[2]!.confidence = 40;
    const result = compareWords(input, page(['xx', 'yy', 'zz']), same);
    expect(result.inputWords).toBe(0);
    expect(result.accept).toBe(true);
  });

  it('matches words of a scaled output at their scaled places', () => {
    const out = page(['alpha', 'betx', 'gamma']);
    for (const w of out.words) Object.assign(w, { x0: w.x0 * 2, x1: w.x1 * 2, y0: w.y0 * 2, y1: w.y1 * 2 });
    const result = compareWords(page(['alpha', 'beta', 'gamma']), out, { x: 2, y: 2 });
    expect(result.changedWords).toEqual([{ input: 'beta', output: 'betx' }]);
  });

  it('reduces an image by whole factors with a box filter', () => {
    const img = {
      width: 4,
      height: 2,
      channels: 1 as const,
      data: new Uint8Array([0, 10, 20, 30, 2, 12, 22, 33]),
    };
    expect(reduceBy(img, 2, 2)).toEqual({ width: 2, height: 1, channels: 1, data: new Uint8Array([6, 26]) });
  });
});
