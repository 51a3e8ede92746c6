// The document plan's first steps: those that change the page's frame. A photographed page is cut out of its
// surroundings and rectified, then a page scanned sideways or upside down is turned upright. Each runs only when
// its measurement is confident; the rest of the plan measures the page as these steps leave it.
import type { RawImage } from '../image.js';
import { quadParams, turnImage, warpQuad } from '../pixels/geometry.js';
import { toGrey } from '../pixels/index.js';
import type { StepCall } from '../steps/registry.js';
import { measureOrientation } from './orientation.js';
import { findPageQuad } from './page-quad.js';

export interface GeometryPlan {
  steps: StepCall[];
  /** The page as the steps leave it, for the measurements that follow. */
  image: RawImage;
  measures: Record<string, number>;
}

export function planGeometry(
  img: RawImage,
  dpi: number,
  /** Whether a page may be turned (false where the turn the glyphs voted for was refuted). */
  opts: { turn?: boolean } = {},
): GeometryPlan {
  const steps: StepCall[] = [];
  let image = img;
  const found = findPageQuad(toGrey(img, 'max'));
  const measures: Record<string, number> = {
    pageQuadShare: found ? Math.round(found.areaShare * 1000) / 1000 : 0,
  };
  if (found) {
    steps.push({
      name: 'rectify-perspective',
      params: { ...quadParams(found.quad), width: found.width, height: found.height },
    });
    image = warpQuad(image, found.quad, found.width, found.height);
  }
  if (opts.turn === false) return { steps, image, measures };
  const orientation = measureOrientation(toGrey(image, 'max'), dpi);
  measures.turns = orientation.turns;
  if (orientation.turns !== 0) {
    steps.push({ name: 'turn-page', params: { turns: orientation.turns } });
    image = turnImage(image, orientation.turns);
  }
  return { steps, image, measures };
}
