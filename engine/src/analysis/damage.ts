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
 * Spread over the colour channels of how far a patch's paper lies below the page's (levels) from which the patch
 * counts as stained: a stain darkens blue more than red, an even tint or a grey shadow darkens the channels alike.
 */
export const STAIN_TINT = 10;
/**
 * Share of a page's patches stained (stainedShare) from which the page counts as stained. The generator's stains on
 * the 30 clean pages of seed 20261204 (light to severe; seed 20261205) stain 0.5–17 % of the patches on 19 pages;
 * the others are thin coffee rings, below a patch's 90th percentile. The 90 clean pages of that seed, of the public
 * set and of dev3 seed 20261207 measure 0.
 */
export const STAINED_SHARE = 0.005;

/**
 * Share of the page's patches (a quarter inch square) whose paper is stained: a patch's paper is the 90th
 * percentile of each colour channel (however much ink the patch holds), the page's paper the median of those over
 * the patches, and a patch is stained where its channels lie below the page's by amounts that spread by STAIN_TINT
 * or more. A stain or a water blotch on white paper tints part of the page while the page as a whole stays white
 * (paperOffWhite); an evenly tinted or grey page, a shadow and grey fills stain nothing.
 */
export function stainedShare(img: RawImage, dpi: number): number {
  if (img.channels < 3) return 0;
  const size = Math.max(8, Math.round(dpi / 4));
  const { width, height, channels, data } = img;
  const hists = [new Uint32Array(256), new Uint32Array(256), new Uint32Array(256)];
  const papers: number[][] = [[], [], []];
  for (let y0 = 0; y0 + size <= height; y0 += size) {
    for (let x0 = 0; x0 + size <= width; x0 += size) {
      for (const h of hists) h.fill(0);
      for (let y = y0; y < y0 + size; y++) {
        for (let p = (y * width + x0) * channels, end = p + size * channels; p < end; p += channels) {
          hists[0]![data[p]!]!++;
          hists[1]![data[p + 1]!]!++;
          hists[2]![data[p + 2]!]!++;
        }
      }
      for (let c = 0; c < 3; c++) papers[c]!.push(percentile(hists[c]!, size * size, 0.9));
    }
  }
  const patches = papers[0]!.length;
  if (patches === 0) return 0;
  const page = papers.map((levels) => [...levels].sort((a, b) => a - b)[patches >> 1]!);
  let stained = 0;
  for (let i = 0; i < patches; i++) {
    const below = papers.map((levels, c) => page[c]! - levels[i]!);
    if (Math.max(...below) - Math.min(...below) >= STAIN_TINT) stained++;
  }
  return stained / patches;
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
 * Grain (estimateNoise, grey levels) that counts as damage though too light for the denoiser: every clean page of the
 * public set and of dev seed 20261231 measures 0; light sensor and Gaussian noise measure 2.9–4.5 (public doc_026 and
 * doc_027, seed 20261231 doc_029, fresh seed 788000 doc_004 and doc_020), and those pages were returned as they came.
 */
export const NOISY_PAGE = 1.5;

/**
 * Whether a document plan measured damage on its page: a frame to straighten, a step of DAMAGE_STEPS, grain
 * (`measures.noise`, NOISY_PAGE on), paper far from white (`measures.paperOffWhite`, PAPER_OFF_WHITE on) or stained
 * in places (`measures.stainedShare`, STAINED_SHARE on).
 */
export function documentDamageMeasured(plan: Pick<PagePlan, 'geometry' | 'steps' | 'measures'>): boolean {
  return (
    plan.geometry.length > 0 ||
    plan.steps.some((s) => DAMAGE_STEPS.has(s.name)) ||
    (plan.measures.noise ?? 0) >= NOISY_PAGE ||
    (plan.measures.paperOffWhite ?? 0) >= PAPER_OFF_WHITE ||
    (plan.measures.stainedShare ?? 0) >= STAINED_SHARE
  );
}
