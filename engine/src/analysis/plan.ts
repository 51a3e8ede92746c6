// Chooses the steps for one page from measurements. Conservative: a step runs only when its damage is measured.
import type { RawImage } from '../image.js';
import type { StepCall } from '../steps/registry.js';
import { histogram, percentile, toGrey } from '../steps/pixels.js';
import { edgeBlur } from './measure-photo.js';
import { planGeometry } from './plan-geometry.js';
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
  /** Which plan the page got: mixed pages full of colour take the photo plan. */
  route: 'document' | 'photo';
  features: PageFeatures;
  measures: Record<string, number>;
  /** Steps that change the page's frame (perspective, quarter turns): run first, before the guard reads it. */
  geometry: StepCall[];
  steps: StepCall[];
  /** The steps kept when the word guard rejects the full plan. */
  conservative: StepCall[];
}

/** The 16 pixels two steps away from a pixel (the ring of its 5×5 window). */
const RING: ReadonlyArray<readonly [number, number]> = [-2, -1, 0, 1, 2].flatMap((d) => [
  [d, -2] as const,
  [d, 2] as const,
  ...(Math.abs(d) < 2 ? [[-2, d] as const, [2, d] as const] : []),
]);

/**
 * Share of isolated dark specks: pixels darker by more than 70 than their 4 neighbours and than the whole ring
 * two pixels out. Salt-and-pepper dots stand alone on paper; the dark pixels of small print (serifs, dots, thin
 * joins) always have more ink within two pixels, so clean small print does not count.
 */
export function speckShare(img: RawImage): number {
  const grey = toGrey(img, 'max');
  const { data, width, height } = grey;
  let specks = 0;
  for (let y = 2; y < height - 2; y++) {
    for (let x = 2; x < width - 2; x++) {
      const i = y * width + x;
      const v = data[i]! + 70;
      if (v >= data[i - 1]! || v >= data[i + 1]! || v >= data[i - width]! || v >= data[i + width]!) continue;
      if (RING.every(([dx, dy]) => v < data[i + dy * width + dx]!)) specks++;
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
  // A mixed page full of colour, or tinted all over (a faded colour print: sepia, a colour cast), is treated as a
  // picture; a grey one (a phone photo of a page) as text, unless it has next to no ink and no black anywhere: a
  // strongly faded print, whose tones only look like paper.
  if (
    kind === 'photo' ||
    (kind === 'mixed' &&
      (features.colourfulShare > 0.3 || features.meanChroma > 15 || fadedPicture(img, features)))
  )
    return { kind, route: 'photo', features, measures, geometry: [], ...planPhoto(img, measures) };
  // A photographed page is rectified and a turned page turned upright first; what follows measures the result.
  const geometry = planGeometry(img, dpi);
  img = geometry.image;
  Object.assign(measures, geometry.measures);
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
  if (specks > 0.0005) steps.push({ name: 'remove-salt-pepper', params: {} });
  else if (noise > 6) steps.push({ name: 'denoise-document', params: {} });
  // Camera and scanner noise that the Laplacian estimate misses (correlated, JPEG-smoothed): a light blur
  // before flattening keeps Tesseract's binarisation from breaking every stroke into grains.
  else if (paperNoise > 3) steps.push({ name: 'smooth-document', params: { dpi } });
  const smoothed = steps.some((s) => s.name === 'smooth-document');
  both({ name: 'flatten-background', params: { dpi } });
  both({ name: 'clear-edge-marks', params: { dpi } });
  steps.push({ name: 'remove-speckles', params: { dpi } });
  const skew = estimateSkew(grey);
  measures.skew = skew;
  if (Math.abs(skew) >= 0.3) both({ name: 'deskew', params: { angle: skew } });
  // Like remove-speckles, it finds its own damage (none on any clean public page); after deskew, so that a
  // column rule of a skewed scan is straight again and stays.
  steps.push({ name: 'remove-scratches', params: { dpi } });
  // Folds and creases: straight lines from edge to edge with shaded paper beside them (none on any clean public
  // page); after deskew, like remove-scratches.
  steps.push({ name: 'repair-creases', params: { dpi } });
  // Faded ink (even the darkest pixels are light grey): Tesseract reads nothing until the ink is darkened.
  const inkLevel = percentile(histogram(grey.data), grey.data.length, 0.005);
  measures.inkLevel = inkLevel;
  // Soft, jagged edges (a low-resolution scan enlarged, a blurred fax): a light blur evens the grey edge pixels
  // so Tesseract's threshold cuts smooth strokes (doc CER on the dev set: low-resolution pages 0.20 → 0.14).
  const edges = edgeBlur(grey);
  measures.edgeBlur = edges;
  if (edges >= 0.7 && !smoothed && inkLevel <= 140)
    steps.push({ name: 'smooth-document', params: { dpi: dpi * 0.7 } });
  // Faded ink fades unevenly (worse in some lines than others), so the ink is first darkened line by line, then
  // the whole page's levels are stretched.
  if (inkLevel > 140) {
    steps.push({ name: 'restore-ink-contrast', params: { dpi } });
    steps.push({ name: 'stretch-contrast', params: {} });
  }
  // Otherwise stretch-contrast and repair-strokes stay available but out of the default plan: on the dev set a global
  // levels change and stroke filling cost more words (faint and small print) than they won.
  return { kind, route: 'document', features, measures, geometry: geometry.steps, steps, conservative };
}
