// Motion blur measured from the cepstrum: a straight smear of length L multiplies an image's spectrum by a sinc
// whose zeros repeat every 1/L along the smear, so the logarithm of the spectrum ripples, and its inverse transform
// (the cepstrum) dips at distance L in the smear's direction. Text pages and photos alike.
import type { RawImage } from '../image.js';
import { fft2 } from '../pixels/fft.js';
import { toGrey } from '../pixels/index.js';

export interface Smear {
  /** Direction of the smear in degrees, 0–179 (0: along x; 90: along y, image rows going down). */
  angle: number;
  /** Length of the smear in pixels (the dip's distance less its measured bias). */
  length: number;
  /**
   * How far the dip stands out: its depth less the deeper of the median over all directions and the depth across
   * it (negative; about 0 where no direction stands out).
   */
  contrast: number;
}

/** Tile side of the averaged log spectrum: room for smears up to a tenth of it either way. */
const TILE = 256;
/** At most this many tiles are transformed (about 5 ms each). */
const MAX_TILES = 16;
const MIN_LAG = 3;
const MAX_LAG = 25;
/**
 * The dip sits past the smear's length: on generated pages of known smear (4.8–13.5 px) it lay 0.2–0.9 px beyond.
 */
const LAG_BIAS = 0.5;

const NONE: Smear = { angle: 0, length: 0, contrast: 0 };

/**
 * How far the dip must stand out before an image counts as smeared. Motion-blurred pages (smears of 4.8–13.5 px,
 * public set and seeds 149382, 5001, 5002) showed −0.24 to −0.50, motion-blurred photos without noise −0.25 to −0.30;
 * every other page of those sets and of dev-profile seed 7006 (120 pages, damaged and clean) at most −0.05 off the
 * axes, other photos (public set, seeds 149382 and 5003) at most −0.09. Along the axes a low resolution enlarged by
 * repeating pixels dips as deep (−0.33), so only slanted smears count.
 */
const CLEAR_CONTRAST = -0.12;
/** Shorter smears are left alone (the page network learned to sharpen them). */
const MIN_SMEAR = 4;
/** Degrees a smear must lie off the axes, unless it is longer than MIN_ON_AXIS. */
const MIN_OFF_AXIS = 3;
/**
 * Length from which a smear along an axis counts: a page enlarged 2–4× repeats its pixels every 2–4 px, and the dip
 * lies there or at its double (measured 2.5–3.5 px on the generated pages above), never beyond 8 px. A page smeared
 * along its rows (seed 9502 doc_004, 15.2 px at 177.5°) dips at 14.5 px, 0° (−0.33).
 */
const MIN_ON_AXIS = 9;

/** Whether a measured smear is clear enough to deconvolve. */
export function isClearSmear(smear: Smear): boolean {
  const offAxis = Math.min(smear.angle % 90, 90 - (smear.angle % 90));
  const long = smear.length >= (offAxis >= MIN_OFF_AXIS ? MIN_SMEAR : MIN_ON_AXIS);
  return smear.contrast <= CLEAR_CONTRAST && long;
}

/**
 * The image's smear: tiles of its central part (a tenth of each side left out: borders and margins) that are not
 * flat, each Hann-windowed; their log power spectra averaged; the cepstrum searched at every degree for its deepest
 * dip between 3 and 25 px.
 */
export function estimateSmear(img: RawImage): Smear {
  const grey = toGrey(img, 'luma');
  const { data, width, height } = grey;
  const x0 = Math.floor(width / 10);
  const y0 = Math.floor(height / 10);
  const across = Math.floor((width - 2 * x0) / TILE);
  const down = Math.floor((height - 2 * y0) / TILE);
  if (across < 1 || down < 1) return NONE;
  const hann = Float64Array.from(
    { length: TILE },
    (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * (i + 0.5)) / TILE),
  );
  const logPower = new Float64Array(TILE * TILE);
  const re = new Float64Array(TILE * TILE);
  const im = new Float64Array(TILE * TILE);
  // Evenly spread over the page when there are more tiles than the budget.
  const count = Math.min(MAX_TILES, across * down);
  const chosen = Array.from({ length: count }, (_, i) => Math.floor((i * across * down) / count));
  let used = 0;
  for (const k of chosen) {
    const bx = x0 + (k % across) * TILE;
    const by = y0 + Math.floor(k / across) * TILE;
    let sum = 0;
    let sum2 = 0;
    for (let y = 0; y < TILE; y++)
      for (let x = 0; x < TILE; x++) {
        const v = data[(by + y) * width + bx + x]!;
        sum += v;
        sum2 += v * v;
      }
    const mean = sum / (TILE * TILE);
    // Plain paper carries no smear to measure.
    if (sum2 / (TILE * TILE) - mean * mean < 25) continue;
    for (let y = 0; y < TILE; y++)
      for (let x = 0; x < TILE; x++) {
        re[y * TILE + x] = (data[(by + y) * width + bx + x]! - mean) * hann[y]! * hann[x]!;
        im[y * TILE + x] = 0;
      }
    fft2(re, im, TILE, TILE);
    for (let i = 0; i < TILE * TILE; i++) logPower[i]! += Math.log(re[i]! * re[i]! + im[i]! * im[i]! + 1e-3);
    used++;
  }
  if (used === 0) return NONE;
  re.set(logPower);
  im.fill(0);
  fft2(re, im, TILE, TILE, true);
  // The scale is the same for every direction: only the relative depth of the dip matters.
  const cepstrum = re;
  const at = (fx: number, fy: number) => {
    const xa = Math.floor(fx);
    const ya = Math.floor(fy);
    const tx = fx - xa;
    const ty = fy - ya;
    const v = (x: number, y: number) =>
      cepstrum[(((y % TILE) + TILE) % TILE) * TILE + (((x % TILE) + TILE) % TILE)]!;
    return (
      (v(xa, ya) * (1 - tx) + v(xa + 1, ya) * tx) * (1 - ty) +
      (v(xa, ya + 1) * (1 - tx) + v(xa + 1, ya + 1) * tx) * ty
    );
  };
  const deepest: { value: number; lag: number }[] = [];
  for (let angle = 0; angle < 180; angle++) {
    const c = Math.cos((angle * Math.PI) / 180);
    const s = Math.sin((angle * Math.PI) / 180);
    let best = { value: Infinity, lag: 0 };
    for (let lag = MIN_LAG; lag <= MAX_LAG; lag += 0.25) {
      const value = at(lag * c, lag * s) / used;
      if (value < best.value) best = { value, lag };
    }
    deepest.push(best);
  }
  let angle = 0;
  for (let a = 1; a < 180; a++) if (deepest[a]!.value < deepest[angle]!.value) angle = a;
  const sorted = deepest.map((d) => d.value).sort((a, b) => a - b);
  const median = sorted[90]!;
  const across90 = deepest[(angle + 90) % 180]!.value;
  const { value, lag } = deepest[angle]!;
  return { angle, length: Math.max(0, lag - LAG_BIAS), contrast: value - Math.max(median, across90) };
}
