import { describe, expect, it } from 'vitest';
import { findPageQuad } from '../../src/analysis/page-quad.js';
import { planPage } from '../../src/analysis/plan.js';
import { createImage, type RawImage } from '../../src/image.js';
import { runSteps } from '../../src/pipeline/page.js';
import { createDefaultRegistry } from '../../src/steps/index.js';
import { applyHomography, homography, warpQuad, type Quad } from '../../src/pixels/geometry.js';
import { toGrey } from '../../src/pixels/index.js';
import { onDesk, textPage } from './pages.js';

const W = 900;
const H = 1100;

/** Mean absolute grey difference. */
function meanAbsDiff(a: RawImage, b: RawImage): number {
  const ga = toGrey(a, 'max');
  const gb = toGrey(b, 'max');
  let s = 0;
  for (let i = 0; i < ga.data.length; i++) s += Math.abs(ga.data[i]! - gb.data[i]!);
  return s / ga.data.length;
}

const QUADS: Record<string, Quad> = {
  'tilted towards the top': [
    { x: 70, y: 40 },
    { x: 835, y: 55 },
    { x: 880, y: 1075 },
    { x: 25, y: 1060 },
  ],
  'turned a little and leaning left': [
    { x: 22, y: 58 },
    { x: 861, y: 20 },
    { x: 874, y: 1040 },
    { x: 48, y: 1083 },
  ],
};

describe('findPageQuad', () => {
  for (const [name, quad] of Object.entries(QUADS)) {
    it(`finds the corners of a page photographed ${name} within 2 px, and rectify-perspective restores it`, async () => {
      const page = textPage({ width: W, height: H, font: 'DejaVu Serif' });
      const photo = onDesk(page, quad, W, H);
      const found = findPageQuad(toGrey(photo, 'max'));
      expect(found).not.toBeNull();
      found!.quad.forEach((p, i) => {
        expect(Math.hypot(p.x - quad[i]!.x, p.y - quad[i]!.y), `corner ${i}`).toBeLessThan(2);
      });
      // The quad has the picture's proportions, so the page comes back at the picture's size.
      expect([found!.width, found!.height]).toEqual([W, H]);
      const plan = planPage(photo, 150, 'auto');
      expect(plan.geometry.map((s) => s.name)).toEqual(['rectify-perspective']);
      const rectified = await runSteps(photo, plan.geometry, createDefaultRegistry());
      expect([rectified.width, rectified.height]).toEqual([W, H]);
      // The page as it was: as close as rectifying with the true corners gets (both resample the text twice);
      // the photo itself is far off.
      const best = meanAbsDiff(warpQuad(photo, quad, W, H), page);
      expect(best).toBeLessThan(8);
      expect(meanAbsDiff(rectified, page)).toBeLessThan(best + 1.5);
      expect(meanAbsDiff(photo, page)).toBeGreaterThan(20);
    });
  }

  it('sizes a page that does not fill the picture from its sides', () => {
    const page = textPage({ width: 700, height: 900 });
    const quad: Quad = [
      { x: 120, y: 80 },
      { x: 860, y: 100 },
      { x: 840, y: 1030 },
      { x: 130, y: 1020 },
    ];
    const found = findPageQuad(toGrey(onDesk(page, quad, 1000, 1100), 'max'));
    expect(found).not.toBeNull();
    // The mean lengths of opposite sides: (740 + 710) / 2 and (940 + 930) / 2.
    expect(Math.abs(found!.width - 725)).toBeLessThan(5);
    expect(Math.abs(found!.height - 935)).toBeLessThan(5);
  });

  it('leaves alone a plain scan, a scan with a dark border on one side, and an upright page on a dark surface', () => {
    const page = textPage({ width: W, height: H });
    expect(findPageQuad(toGrey(page))).toBeNull();
    const bordered = createImage(W, H, 1);
    bordered.data.set(page.data);
    for (let y = 0; y < H; y++) for (let x = 0; x < 40; x++) bordered.data[y * W + x] = 30;
    expect(findPageQuad(toGrey(bordered))).toBeNull();
    // Upright and square to the picture: nothing to rectify (a scanner's dark surround, handled by clean-borders).
    const upright: Quad = [
      { x: 40, y: 40 },
      { x: W - 40, y: 40 },
      { x: W - 40, y: H - 40 },
      { x: 40, y: H - 40 },
    ];
    expect(findPageQuad(toGrey(onDesk(page, upright, W, H), 'max'))).toBeNull();
  });

  it('finds no page in a picture without one', () => {
    // Dark and light blotches, like a photo: no straight bright-to-dark sides.
    const photo = createImage(W, H, 3);
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++)
        for (let c = 0; c < 3; c++)
          photo.data[(y * W + x) * 3 + c] = Math.round(
            128 + 100 * Math.sin(x / 57 + c) * Math.cos(y / 43) + 20 * Math.sin((x * y) / 5000),
          );
    expect(findPageQuad(toGrey(photo, 'max'))).toBeNull();
  });
});

describe('homography', () => {
  it('maps each of four points onto its partner', () => {
    const from = QUADS['tilted towards the top']!;
    const to: Quad = [
      { x: 0, y: 0 },
      { x: 10, y: 0 },
      { x: 10, y: 20 },
      { x: 0, y: 20 },
    ];
    const m = homography(from, to)!;
    from.forEach((p, i) => {
      const q = applyHomography(m, p);
      expect(q.x).toBeCloseTo(to[i]!.x, 6);
      expect(q.y).toBeCloseTo(to[i]!.y, 6);
    });
  });
});
