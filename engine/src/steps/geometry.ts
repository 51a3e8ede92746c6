// Geometry steps: they change the page's frame (quarter turns, perspective) and so run before every other step
// and before the word guard reads the input (see analysis/plan-geometry.ts).
import { turnImage, warpQuad, type Quad } from '../pixels/geometry.js';
import { num, type Step, type StepParams } from './registry.js';

function quadOf(params: StepParams): Quad | null {
  const pts = [0, 1, 2, 3].map((i) => ({ x: num(params, `x${i}`, NaN), y: num(params, `y${i}`, NaN) }));
  return pts.every((p) => Number.isFinite(p.x) && Number.isFinite(p.y)) ? (pts as Quad) : null;
}

export const turnPage: Step = {
  name: 'turn-page',
  kind: 'document',
  description: 'Turns a page scanned sideways or upside down upright (quarter turns clockwise)',
  run: (img, params) => turnImage(img, num(params, 'turns', 0)),
};

export const rectifyPerspective: Step = {
  name: 'rectify-perspective',
  kind: 'document',
  description:
    "Warps a photographed page's quad (corners x0,y0 … x3,y3, clockwise from top left) to an upright rectangle",
  run(img, params) {
    const quad = quadOf(params);
    if (!quad) return img;
    const width = Math.round(num(params, 'width', img.width));
    const height = Math.round(num(params, 'height', img.height));
    return warpQuad(img, quad, width, height);
  },
};

export const geometrySteps: Step[] = [turnPage, rectifyPerspective];
