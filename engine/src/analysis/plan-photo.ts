// Chooses the photo steps from measurements of the input. Each step is gated by the signature of its damage
// (blocking on the 8 px grid, grain, lifted black point, soft edges), so an undamaged photo is left alone.
import type { RawImage } from '../image.js';
import type { StepCall } from '../steps/registry.js';
import {
  blockiness,
  duplicatedLines,
  edgeBlur,
  enlargement,
  estimateDefocus,
  estimateMotion,
  grainNoise,
  specks,
} from './measure-photo.js';
import { fadeLevels } from '../pixels/levels.js';
import { LIFTED_BLACK } from './damage.js';
import { estimateSmear, isClearSmear } from './smear.js';

/** Edge blur (Gaussian sigma, px) of sharp photos; restoration only removes the blur beyond it. */
const NATURAL_BLUR = 0.6;

const round2 = (v: number) => Math.round(v * 100) / 100;

/** True when all colour channels carry the same values (a grey picture stored as RGB). */
function isNeutral(img: RawImage): boolean {
  if (img.channels < 3) return true;
  const step = Math.max(1, Math.floor((img.width * img.height) / 50_000));
  for (let i = 0; i < img.width * img.height; i += step) {
    const p = i * img.channels;
    if (img.data[p] !== img.data[p + 1] || img.data[p] !== img.data[p + 2]) return false;
  }
  return true;
}

/** The trained photo network's step (engine/weights/photo-net.onnx). */
export const PHOTO_NET_STEP = 'restore-photo-net';
/** The trained dust network's step (engine/weights/dust-net.onnx). */
export const DUST_NET_STEP = 'remove-dust-net';

/**
 * Enlargement period strength above which a photo was surely enlarged. Dev photos (seeds 5201–5203, 120 photos):
 * those never enlarged read at most 4.4; enlarged ones from 3 (bicubic: soft, deblur-photo's gate sees those) to
 * 50 (repeated pixels: sharp, only this measure and the repeated lines see them).
 */
const ENLARGED_STRENGTH = 8;

/**
 * Specks per megapixel from which the dust network is tried (dev photos with dust 1,000–3,150, blurred or enlarged
 * ones at most 88). Sharp photos without dust reach it too; the dust step's self-check turns those away.
 */
const DUSTY_SPECKS = 400;

/** Share of repeated rows and columns above which a photo was enlarged by repeating pixels (0.5 at 2×). */
const ENLARGED_BY_REPEATING = 0.3;

/**
 * Grain above which a photo counts as noisy for the network. Dev photos (seeds 5201, 5202): the enlarged ones
 * measure 0.07–0.71, JPEGs of sensor noise 0.65–2.5; on 9 of those 10 the network lost up to 1.5 dB to the DCT
 * denoiser.
 */
const PHOTO_NET_MAX_GRAIN = 1;

export function planPhoto(
  img: RawImage,
  measures: Record<string, number>,
  /** Whether the trained photo and dust networks may be planned (their weights are at hand, the caller wants them). */
  opts: { photoNet?: boolean; dustNet?: boolean } = {},
): { steps: StepCall[]; conservative: StepCall[] } {
  const steps: StepCall[] = [];
  const block = blockiness(img);
  const grain = grainNoise(img);
  const blur = edgeBlur(img);
  const { low, high } = fadeLevels(img);
  const lift = Math.min(...low);
  const white = Math.max(...high);
  Object.assign(measures, { blockiness: block, grain, blur, blackLift: lift, whiteLevel: white });

  // 0. A faded colour print: black point lifted in every channel and no channel reaching white. Dust and
  // scratches lie on top of the print, so on a faded print they are the specks outside its black-to-white band.
  const faded = img.channels >= 3 && !isNeutral(img) && lift >= LIFTED_BLACK && white <= 215;
  const jpeg = block > 1.3;
  const deblur = planDeblur(img, measures, { jpeg, grain, blur, faded });

  // A small photo enlarged: the trained network restores it in one pass, better than the classical steps (27 dev
  // photos: −0.06 to +1.96 dB, 24 by more than 0.1). On noisy photos (sensor noise under the JPEG) the DCT denoiser
  // does better, and the network never learned fading or dust: those photos keep the classical steps.
  if (opts.photoNet && !faded && grain <= PHOTO_NET_MAX_GRAIN && enlargedPhoto(img, deblur, measures))
    return { steps: [{ name: PHOTO_NET_STEP, params: {} }], conservative: [] };

  // Dust and scratches on a sharp photo (no blur, JPEG or grain took the specks' edges): the dust network alone.
  // Faded prints get it below, before remove-dust.
  if (opts.dustNet && !faded && !jpeg && grain <= 2 && deblur.length === 0 && dustyPhoto(img, measures))
    return { steps: [{ name: DUST_NET_STEP, params: {} }], conservative: [] };

  // A faded print: the dust network first where it is wanted (its self-check keeps it only where it took out dark
  // specks), then remove-dust for the specks outside the print's band that it left.
  if (faded && opts.dustNet) steps.push({ name: DUST_NET_STEP, params: {} });
  if (faded) steps.push({ name: 'remove-dust', params: { threshold: 25, above: white, below: lift } });

  // 1. Noise first, so that the later gains (levels, deblurring) do not amplify it. JPEG blocking is the
  // stronger signature: its artefacts are removed with a threshold from the blocking strength.
  // Blocks at every pixel on small photos (best result), every 2nd above 0.6 MP (a quarter of the work).
  const stride = img.width * img.height <= 600_000 ? 1 : 2;
  if (jpeg) {
    // Threshold from the blocking strength, plus the grain left on top (sensor noise before the compression).
    const sigma = round2(Math.min(14, 9 * (block - 1) + 3 * grain));
    steps.push({ name: 'denoise-dct', params: { sigma, chromaSigma: sigma * 2, stride } });
  } else if (grain > 2) {
    // Grain and sensor noise are measured coefficient by coefficient (the step's noise spectrum).
    steps.push({ name: 'denoise-dct', params: { spectrum: true, stride } });
  }

  // 2. Levels, cast and colour of the faded print (the step measures them on the image cleaned of dust and noise),
  // before the deblurring: a deconvolution's ringing shifts the levels the step measures, and the self-check judges
  // a deconvolution by its change in grey levels, which the levels stretch doubles on a deeply faded print. Deblurred
  // first, a faded orange cat took a wrong 16.5 px smear that passed the self-check, and the levels measured on its
  // ringing turned the cat blue (dev seed 6101 photo_026: −3.0 dB); with the levels first the self-check rejects the
  // smear (+3.5 dB).
  if (faded) steps.push({ name: 'restore-fade', params: {} });

  // 3. Deblurring.
  steps.push(...deblur);
  return { steps, conservative: [] };
}

/**
 * Whether the photo was enlarged from a smaller one: soft edges no motion or focus blur explains (the deblurring
 * plan chose deblur-photo, and the spectrum shows no focus ring at all), exactly repeated lines, or a clear
 * enlargement period (pixels repeated, with or without JPEG on top). Measured in that order, each only when the one
 * before found nothing. A ring too faint for deblur-defocus still tells a defocused photo from an enlarged one: on a
 * smooth photo defocused by 2.4 px (dev seed 8804 photo_003, a ring measured at 2.3 px), the network, which learned
 * enlargements, lost 1.9 dB where deblur-photo gains 2.3.
 */
function enlargedPhoto(img: RawImage, deblur: StepCall[], measures: Record<string, number>): boolean {
  if (deblur[0]?.name === 'deblur-photo' && !(measures.defocusRadius! > 0)) return true;
  const repeated = duplicatedLines(img);
  measures.duplicatedLines = round2(repeated);
  if (repeated >= ENLARGED_BY_REPEATING) return true;
  const period = enlargement(img);
  Object.assign(measures, { enlargement: round2(period.strength), enlargementPeriod: round2(period.period) });
  return period.strength >= ENLARGED_STRENGTH;
}

/** Whether dust and scratches lie on the photo: many isolated specks (see `specks`). */
function dustyPhoto(img: RawImage, measures: Record<string, number>): boolean {
  const found = specks(img);
  measures.specks = Math.round(found);
  return found >= DUSTY_SPECKS;
}

function planDeblur(
  img: RawImage,
  measures: Record<string, number>,
  seen: { jpeg: boolean; grain: number; blur: number; faded: boolean },
): StepCall[] {
  const { jpeg, grain, blur, faded } = seen;
  // Camera shake: a directional loss of fine detail with a clear smear length. Deconvolved along the smear
  // (the zero crossing comes about one gradient-correlation width, ~0.7 px, before the smear length).
  // A smear the cepstrum shows clearly is measured there: its length and angle are surer (seed 149382's coffee
  // photo, a 5.6 px smear at 148.5°: 5.25 px at 149° against 6.6 px at 140°, +2.1 dB instead of +0.35).
  const smear = estimateSmear(img);
  measures.smearContrast = Math.round(smear.contrast * 1000) / 1000;
  if (isClearSmear(smear)) {
    const nsr = jpeg || grain > 2 ? 0.1 : 0.01;
    return [{ name: 'deblur-motion', params: { angle: smear.angle, length: smear.length, nsr } }];
  }
  const motion = estimateMotion(img);
  Object.assign(measures, {
    motionScore: motion.score,
    motionAngle: motion.angle,
    motionLength: motion.length,
  });
  if (motion.score < 0.84 && motion.length >= 4 && motion.length <= 18) {
    const nsr = jpeg || grain > 2 ? 0.1 : 0.01;
    return [
      { name: 'deblur-motion', params: { angle: motion.angle, length: round2(motion.length + 0.7), nsr } },
    ];
  }

  // Defocus with a round zero ring in the spectrum: Wiener deconvolution of that pillbox. Noise, JPEG and a
  // faded print's low contrast (8-bit steps, dust and scratch residue made larger by the levels) want more
  // regularisation.
  const defocus = estimateDefocus(img);
  Object.assign(measures, { defocusRadius: round2(defocus.radius), defocusDepth: round2(defocus.depth) });
  if (defocus.depth >= 0.1 && defocus.radius >= 1) {
    const nsr = jpeg || grain > 2 || faded ? 0.03 : 0.003;
    return [{ name: 'deblur-defocus', params: { radius: round2(defocus.radius), nsr } }];
  }

  // Soft edges (defocus without a visible ring, soft upscaling): Wiener deconvolution of the excess blur,
  // gentler after denoising.
  if (blur > 0.95) {
    const sigma = Math.sqrt(blur * blur - NATURAL_BLUR * NATURAL_BLUR);
    const nsr = jpeg || grain > 2 ? 0.1 : 0.01 + 0.01 * Math.max(0, sigma - 1) * 4;
    return [{ name: 'deblur-photo', params: { sigma: round2(sigma), nsr } }];
  }
  return [];
}
