// A page's guard reads its input once for all the candidates it checks, and reads everything else as asked; a line
// read as two pieces side by side puts the reading order in doubt.
import { describe, expect, it } from 'vitest';
import type { RawImage } from '../../src/image.js';
import type { OcrResult, Recognizer } from '../../src/ocr/index.js';
import { readingInputOnce, splitLines } from '../../src/pipeline/thread-services.js';

const image = (): RawImage => ({ width: 2, height: 2, channels: 1, data: new Uint8Array(4) });
const result = (text: string): OcrResult => ({ text, words: [], lines: [] });

/** A recognizer that counts its reads and fails the first `failures` of them. */
function counting(failures = 0): { recognize: Recognizer; reads: () => number } {
  let reads = 0;
  return {
    recognize: (_img, opts) => {
      reads += 1;
      if (reads <= failures) return Promise.reject(new Error('time limit'));
      return Promise.resolve(result(`read ${reads} at ${opts?.dpi ?? '?'}`));
    },
    reads: () => reads,
  };
}

describe('readingInputOnce', () => {
  it('reads the input once per set of options and every other image each time', async () => {
    const input = image();
    const other = image();
    const { recognize, reads } = counting();
    const guarded = readingInputOnce(recognize, input);
    const first = await guarded(input, { dpi: 150 });
    expect(await guarded(input, { dpi: 150 })).toBe(first);
    expect(reads()).toBe(1);
    expect((await guarded(input, { dpi: 300 })).text).toBe('read 2 at 300');
    await guarded(other, { dpi: 150 });
    await guarded(other, { dpi: 150 });
    expect(reads()).toBe(4);
  });

  it('tries a failed read of the input again', async () => {
    const input = image();
    const { recognize, reads } = counting(1);
    const guarded = readingInputOnce(recognize, input);
    await expect(guarded(input, { dpi: 150 })).rejects.toThrow('time limit');
    expect((await guarded(input, { dpi: 150 })).text).toBe('read 2 at 150');
    expect(reads()).toBe(2);
  });
});

describe('splitLines', () => {
  const line = (x0: number, x1: number, y0 = 100, y1 = 130) => ({ x0, y0, x1, y1 });

  it('finds one line read as two pieces side by side, not columns or lines above each other', () => {
    // A paragraph's line cut by a white scratch: a word space between the two pieces.
    expect(splitLines([line(100, 480), line(492, 900)])).toBe(true);
    // Two columns: a gutter wider than a line height.
    expect(splitLines([line(100, 480), line(540, 900)])).toBe(false);
    // Lines above each other, or overlapping by less than half their height.
    expect(splitLines([line(100, 900), line(100, 900, 140, 170)])).toBe(false);
    expect(splitLines([line(100, 480), line(492, 900, 118, 148)])).toBe(false);
  });
});
