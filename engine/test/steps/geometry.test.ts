import { describe, expect, it } from 'vitest';
import type { RawImage } from '../../src/image.js';
import { rectifyPerspective, turnPage } from '../../src/steps/geometry.js';
import { turnImage } from '../../src/pixels/geometry.js';

/** 3 × 2 RGB image whose pixels are numbered 0..5 (all three channels). */
const small: RawImage = {
  width: 3,
  height: 2,
  channels: 3,
  data: Uint8Array.from([0, 1, 2, 3, 4, 5].flatMap((v) => [v, v, v])),
};
const firstChannel = (img: RawImage) => [...img.data].filter((_, i) => i % 3 === 0);

describe('turnImage and turn-page', () => {
  it('turns a quarter clockwise: the left column becomes the top row, read bottom up', () => {
    const t = turnImage(small, 1);
    expect([t.width, t.height]).toEqual([2, 3]);
    expect(firstChannel(t)).toEqual([3, 0, 4, 1, 5, 2]);
  });

  it('turns half round and a quarter counter-clockwise, and four quarters are the identity', () => {
    expect(firstChannel(turnImage(small, 2))).toEqual([5, 4, 3, 2, 1, 0]);
    expect(firstChannel(turnImage(small, 3))).toEqual([2, 5, 1, 4, 0, 3]);
    const round = [1, 1, 1, 1].reduce((img, t) => turnImage(img, t), small);
    expect(round).toEqual(small);
  });

  it('runs as a registered step from its params', async () => {
    expect(firstChannel(await turnPage.run(small, { turns: 2 }))).toEqual([5, 4, 3, 2, 1, 0]);
    expect(await turnPage.run(small, {})).toBe(small);
  });
});

describe('rectify-perspective', () => {
  it('returns the page unchanged without a full set of corners', async () => {
    expect(await rectifyPerspective.run(small, { x0: 0, y0: 0 })).toBe(small);
  });

  it('with the picture’s own corners, gives the picture back', async () => {
    const out = await rectifyPerspective.run(small, {
      x0: 0,
      y0: 0,
      x1: 3,
      y1: 0,
      x2: 3,
      y2: 2,
      x3: 0,
      y3: 2,
    });
    expect(out).toEqual(small);
  });
});
