// Chooses the steps for one page from measurements. Conservative: a step runs only when its damage is measured.
import type { RawImage } from '../image.js';
import type { StepCall } from '../steps/registry.js';
import { histogram, percentile, toGrey } from '../steps/pixels.js';
import { planPhoto } from './plan-photo.js';
import {
  channelRange,
  classifyPage,
  estimateNoise,
  estimatePaperNoise,
  estimateSkew,
  pageFeatures,
  type PageFeatures,
  type PageKind,
} from './measure.js';

export type RestoreMode = 'auto' | 'document' | 'photo';

export interface PagePlan {
  kind: PageKind;
  features: PageFeatures;
  measures: Record<string, number>;
  steps: StepCall[];
  /** The steps kept when the word guard rejects the full plan. */
  conservative: StepCall[];
}

/** Share of pixels that differ strongly from all of their 4 neighbours in the same direction (specks). */
export function speckShare(img: RawImage): number {
  const grey = toGrey(img, 'max');
  const { data, width, height } = grey;
  let specks = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const v = data[i]!;
      const a = data[i - 1]!;
      const b = data[i + 1]!;
      const c = data[i - width]!;
      const d = data[i + width]!;
      if (
        (v + 70 < a && v + 70 < b && v + 70 < c && v + 70 < d) ||
        (v > a + 70 && v > b + 70 && v > c + 70 && v > d + 70)
      )
        specks++;
    }
  }
  return specks / (width * height);
}

function fadedPicture(img: RawImage, features: PageFeatures): boolean {
  return features.inkShare < 0.04 && Math.min(...channelRange(img).low) > 30;
}

export function planPage(img: RawImage, dpi: number, mode: RestoreMode): PagePlan {
  const features = pageFeatures(img);
  const kind: PageKind =
    mode === 'document' ? 'document' : mode === 'photo' ? 'photo' : classifyPage(features);
  const noise = estimateNoise(img);
  const measures: Record<string, number> = { noise, dpi };
  // A mixed page full of colour is treated as a picture; a grey one (a phone photo of a page) as text, unless it
  // has next to no ink and no black anywhere: a strongly faded print, whose tones only look like paper.
  if (
    kind === 'photo' ||
    (kind === 'mixed' && (features.colourfulShare > 0.3 || fadedPicture(img, features)))
  )
    return { kind, features, measures, ...planPhoto(img, measures) };
  const specks = speckShare(img);
  measures.specks = specks;
  const steps: StepCall[] = [];
  const conservative: StepCall[] = [];
  const both = (call: StepCall) => {
    steps.push(call);
    conservative.push(call);
  };
  if (img.channels !== 1) both({ name: 'whiten-paper', params: {} });
  both({ name: 'clean-borders', params: { dpi } });
  // The page as the document steps see it (brightest channel), measured once for noise, skew and ink.
  const grey = toGrey(img, 'max');
  const paperNoise = estimatePaperNoise(grey);
  measures.paperNoise = paperNoise;
  if (specks > 0.0015) steps.push({ name: 'remove-salt-pepper', params: {} });
  else if (noise > 6) steps.push({ name: 'denoise-document', params: { sigma: noise } });
  // Camera and scanner noise that the Laplacian estimate misses (correlated, JPEG-smoothed): a light blur
  // before flattening keeps Tesseract's binarisation from breaking every stroke into grains.
  else if (paperNoise > 3) steps.push({ name: 'smooth-document', params: { dpi } });
  both({ name: 'flatten-background', params: { dpi } });
  both({ name: 'clear-edge-marks', params: { dpi } });
  steps.push({ name: 'remove-speckles', params: { dpi } });
  const skew = estimateSkew(grey);
  measures.skew = skew;
  if (Math.abs(skew) >= 0.3) both({ name: 'deskew', params: { angle: skew } });
  // Faded ink (even the darkest pixels are light grey): Tesseract reads nothing until the ink is darkened.
  const inkLevel = percentile(histogram(grey.data), grey.data.length, 0.005);
  measures.inkLevel = inkLevel;
  if (inkLevel > 140) steps.push({ name: 'stretch-contrast', params: {} });
  // Otherwise stretch-contrast and repair-strokes stay available but out of the default plan: on the dev set a global
  // levels change and stroke filling cost more words (faint and small print) than they won.
  return { kind, features, measures, steps, conservative };
}
