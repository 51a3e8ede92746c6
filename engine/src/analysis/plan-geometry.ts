// The document plan's first steps: those that change the page's frame. A photographed page is cut out of its
// surroundings and rectified, then a page scanned sideways or upside down is turned upright. Each runs only when
// its measurement is confident; the rest of the plan measures the page as these steps leave it.
import type { RawImage } from '../image.js';
import { quadParams, turnImage, warpQuad } from '../pixels/geometry.js';
import { toGrey } from '../pixels/index.js';
import type { StepCall } from '../steps/registry.js';
import { MIN_GLYPHS, measureOrientation, type Orientation } from './orientation.js';
import { findPageQuad } from './page-quad.js';

export interface GeometryPlan {
  steps: StepCall[];
  /** The page as the steps leave it, for the measurements that follow. */
  image: RawImage;
  measures: Record<string, number>;
  /** Quarter turns clockwise among the steps. */
  turns: Orientation['turns'];
  /**
   * The page has glyphs enough to vote on which way up it stands, yet they did not agree: another measure (the
   * OCR's orientation detection) may settle it.
   */
  turnUnsure: boolean;
}

/** How a page is turned: by the glyph vote, or by a number of quarter turns clockwise decided elsewhere (0: none). */
export type TurnChoice = 'vote' | Orientation['turns'];

export function planGeometry(
  img: RawImage,
  dpi: number,
  opts: { turn?: TurnChoice; rectify?: boolean } = {},
): GeometryPlan {
  const steps: StepCall[] = [];
  let image = img;
  const found = opts.rectify === false ? undefined : findPageQuad(toGrey(img, 'max'));
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
  let turns: Orientation['turns'];
  let turnUnsure = false;
  if (opts.turn === undefined || opts.turn === 'vote') {
    const orientation = measureOrientation(toGrey(image, 'max'), dpi);
    turns = orientation.turns;
    turnUnsure = !orientation.confident && orientation.glyphs >= MIN_GLYPHS;
  } else turns = opts.turn;
  measures.turns = turns;
  if (turns !== 0) {
    steps.push({ name: 'turn-page', params: { turns } });
    image = turnImage(image, turns);
  }
  return { steps, image, measures, turns, turnUnsure };
}
