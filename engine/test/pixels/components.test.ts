import { describe, expect, it } from 'vitest';
import { labelComponents } from '../../src/pixels/components.js';

// 0 1 2 3 4 5
// # # . . . #    row 0
// . . # . . #    row 1
// . . . . . .    row 2
// # . . # # .    row 3
const mask = Uint8Array.from([1, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 1, 0]);

describe('labelComponents', () => {
  it('numbers 8-connected components in the raster order of their first pixel, with areas and boxes', () => {
    const c = labelComponents(mask, 6, 4);
    expect(c.count).toBe(4);
    expect([...c.areas]).toEqual([3, 2, 1, 2]);
    expect(c.boxes).toEqual([
      { x0: 0, y0: 0, x1: 2, y1: 1 },
      { x0: 5, y0: 0, x1: 5, y1: 1 },
      { x0: 0, y0: 3, x1: 0, y1: 3 },
      { x0: 3, y0: 3, x1: 4, y1: 3 },
    ]);
    expect([...c.labels]).toEqual([
      0, 0, -1, -1, -1, 1, -1, -1, 0, -1, -1, 1, -1, -1, -1, -1, -1, -1, 2, -1, -1, 3, 3, -1,
    ]);
    expect(c.order).toBeUndefined();
  });

  it('keeps a diagonal step apart with 4-connectivity', () => {
    const c = labelComponents(mask, 6, 4, { connectivity: 4 });
    expect(c.count).toBe(5);
    expect([...c.areas]).toEqual([2, 2, 1, 1, 2]);
    expect(c.labels[8]).toBe(2);
  });

  it('gives each component its pixels in fill order (depth first)', () => {
    const c = labelComponents(mask, 6, 4, { order: true });
    const pixels = (k: number) => [...c.order!.subarray(c.starts![k], c.starts![k + 1])];
    // From pixel 0 the fill reaches 1, and from 1 the diagonal 8.
    expect(pixels(0)).toEqual([0, 1, 8]);
    expect(pixels(1)).toEqual([5, 11]);
    expect(pixels(3)).toEqual([21, 22]);
    expect(c.starts![c.count]).toBe(8);
  });

  it('labels by joining runs exactly as the depth-first fill does, on random masks of every density', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (const density of [0.05, 0.3, 0.6, 0.9]) {
      for (const connectivity of [4, 8] as const) {
        const width = 37;
        const height = 23;
        const m = Uint8Array.from({ length: width * height }, () => (random() < density ? 1 : 0));
        const runs = labelComponents(m, width, height, { connectivity });
        const fill = labelComponents(m, width, height, { connectivity, order: true });
        expect(runs.count).toBe(fill.count);
        expect([...runs.labels]).toEqual([...fill.labels]);
        expect([...runs.areas]).toEqual([...fill.areas]);
        expect(runs.boxes).toEqual(fill.boxes);
      }
    }
  });
});
