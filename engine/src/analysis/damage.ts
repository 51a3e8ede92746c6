// Damage that a plan's own gates may let through, so that a page measured as damaged is never returned unchanged.
import type { RawImage } from '../image.js';
import type { StepCall } from '../steps/registry.js';
import type { PagePlan } from './plan.js';
import { fadeLevels } from '../pixels/levels.js';
import { histogram, percentile } from '../pixels/index.js';

/** A picture whose tones span less than this (in some channel, 0.1 % to 99.5 %) is faded or veiled. */
export const LOW_CONTRAST_RANGE = 160;
/** Channels whose white levels differ by more than this carry a colour cast. */
export const CAST_SPREAD = 40;
/**
 * Darkest level (0.1 %, in every channel) from which a photo's blacks count as lifted. Fading and veils lift the
 * blacks of every channel (the generator's fades by 15 levels and more); a photo that still reaches black somewhere
 * has its full range, and a narrow range or unequal whites there are its colours: a retina photograph, red on
 * black, reaches 254 in red and 130 in blue, and stretching its blue made it lose 15.8 dB (dev seed 6101 photo_039).
 */
export const LIFTED_BLACK = 12;

/**
 * Steps for the damage a photo plan found nothing to do about: low contrast (a grey or lightly faded print that
 * restore-fade's colour gate skips) or a colour cast, under blacks lifted in every channel, get a capped
 * per-channel levels stretch. Sets `measures.range` and `measures.castSpread`.
 */
export function untouchedDamage(img: RawImage, measures: Record<string, number>): StepCall[] {
  const { low, high } = fadeLevels(img);
  const range = Math.min(...high.map((h, c) => h - low[c]!));
  const castSpread = Math.max(...high) - Math.min(...high);
  Object.assign(measures, { range, castSpread });
  if (Math.min(...low) < LIFTED_BLACK) return [];
  if (range < LOW_CONTRAST_RANGE || castSpread > CAST_SPREAD)
    return [{ name: 'correct-levels', params: { maxGain: 1.6 } }];
  return [];
}

/**
 * Levels below white, in some channel, from which a page's paper counts as far from white (yellowed, greyed, stained
 * all over). Generated clean pages measure 0; on dev4 seed 9904 and fresh seed 13479, the lightly yellowed or
 * water-damaged pages 16-23, the others with yellowing, water damage, uneven light or a phone's photo 28-84.
 */
export const PAPER_OFF_WHITE = 24;

/**
 * How far the page's paper lies below white: the largest, over its colour channels, of 255 less the channel's 75th
 * percentile (a page is mostly paper, so that level is the paper's).
 */
export function paperOffWhite(img: RawImage): number {
  const channels = img.channels === 4 ? 3 : img.channels;
  const pixels = img.width * img.height;
  let darkest = 255;
  for (let c = 0; c < channels; c++)
    darkest = Math.min(darkest, percentile(histogram(img.data, img.channels, c), pixels, 0.75));
  return 255 - darkest;
}

/**
 * Steps a document plan gives only a page it measured as damaged: skewed, smeared, streaked, noisy, speckled or faded
 * (the others run on every page and find their own damage, or none). None is planned for any clean page of the
 * public set or of seed 174071 (60 pages); `smooth-document` is left out, as small print's soft edges plan it too.
 */
const DAMAGE_STEPS = new Set([
  'deskew',
  'remove-motion-blur',
  'remove-streaks',
  'denoise-document',
  'remove-salt-pepper',
  'restore-ink-contrast',
]);

/**
 * Whether a document plan measured damage on its page: a frame to straighten, a step of DAMAGE_STEPS, or paper far
 * from white (`measures.paperOffWhite`, PAPER_OFF_WHITE on).
 */
export function documentDamageMeasured(plan: Pick<PagePlan, 'geometry' | 'steps' | 'measures'>): boolean {
  return (
    plan.geometry.length > 0 ||
    plan.steps.some((s) => DAMAGE_STEPS.has(s.name)) ||
    (plan.measures.paperOffWhite ?? 0) >= PAPER_OFF_WHITE
  );
}
