// Chooses the steps for one page from measurements. Conservative: a step runs only when its damage is measured.
import type { RawImage } from '../image.js';
import type { StepCall } from '../steps/registry.js';
import { histogram, percentile, toGrey } from '../pixels/index.js';
import { colourBeyondCast } from '../pixels/levels.js';
import { edgeBlur } from './measure-photo.js';
import { estimateSmear, isClearSmear } from './smear.js';
import { findStreaks } from '../pixels/streaks.js';
import { MAX_ANGLE_DEG } from '../pixels/axis-lines.js';
import { planGeometry, type GeometryPlan, type TurnChoice } from './plan-geometry.js';
import { turnImage, warpQuad } from '../pixels/geometry.js';
import { findPageQuad } from './page-quad.js';
import { planPhoto } from './plan-photo.js';
import { paperOffWhite, stainedShare, untouchedDamage } from './damage.js';
import {
  findTextLines,
  levelsStretched,
  MIN_TEXT_LINES,
  MIN_TEXT_LINES_ON_PAPER,
  textLineCount,
} from '../pixels/text-lines.js';
import {
  classifyPage,
  dotsPerGlyph,
  estimateNoise,
  oneHueShare,
  PAPER_PAGE_SHARE,
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
  /** A text page whose glyphs did not tell which way up it stands (GeometryPlan.turnUnsure). */
  turnUnsure?: boolean;
  /**
   * Steps that take out damage across the whole page: a blur it shares (motion) and scanner streaks. The first of
   * `steps` and of `conservative`, and run before the trained network, which learned to sharpen lighter blur and
   * would darken a streak into a rule.
   */
  beforeNetwork: StepCall[];
  steps: StepCall[];
  /** The steps kept when the word guard rejects the full plan. */
  conservative: StepCall[];
}

/**
 * Lone dots per glyph (`dotsPerGlyph`) above which the network's page gets the median. Clean pages through the
 * network show at most 0.11 (stops, commas and dots of i standing a little apart: 90 generated pages, the public
 * set, public-profile seed 317290 and dev-profile seed 7006); salt and pepper left 0.15–1.32 on 20 of those 22
 * pages. Blur, bleed-through and phone-photo noise leave that many on some pages too (11 of 68).
 */
const MAX_LONE_DOTS = 0.125;

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

/**
 * Whether a page gets the document steps: only when it shows text lines. Paper share sets how many lines are needed
 * (a page that is mostly plain paper is rarely a picture); a colourful page with text (a magazine page, a poster)
 * keeps its colours on the photo plan unless it is mostly paper. Colourful means colour beyond one tint: yellowed
 * or sepia paper is colourful by chroma alone, but each channel follows the grey level there; mottled yellowing does
 * not follow the grey level, yet its tint keeps one hue.
 */
/** Share of tinted pixels within one hue window above which a page's colour is a stain, not a picture. */
const ONE_HUE_SHARE = 0.97;

function routedAsText(img: RawImage, kind: PageKind, features: PageFeatures, textLines: number): boolean {
  if (kind === 'document') return textLines >= MIN_TEXT_LINES_ON_PAPER;
  // A mixed page that is mostly paper is mixed by its colour alone; where that colour is one tint (yellowed paper) it
  // needs no more lines than a document. Faded ink under noise on mottled yellow paper shows few lines to the detector
  // (dev5 seed 20261211 doc_018, a thermal-fax form of 25 lines: 4 found, paper share 0.97); on the photo plan it read
  // worse than it came.
  const needed = features.paperShare >= PAPER_PAGE_SHARE ? MIN_TEXT_LINES_ON_PAPER : MIN_TEXT_LINES;
  if (textLines < needed) return false;
  return features.colourfulShare <= 0.3 || colourBeyondCast(img) < 1.5 || oneHueShare(img) >= ONE_HUE_SHARE;
}

/**
 * Text lines of the page, or of the page with its levels stretched where too few show to route it as text (faded
 * ink on yellowed paper). Pictures gain no lines so: at most 3 on 38 generated and public photos, either way.
 */
export function countTextLines(img: RawImage, dpi: number): number {
  const found = textLineCount(findTextLines(img, dpi));
  if (found >= MIN_TEXT_LINES) return found;
  return Math.max(found, textLineCount(findTextLines(levelsStretched(img), dpi)));
}

export function planPage(
  img: RawImage,
  dpi: number,
  mode: RestoreMode,
  /**
   * Whether the photo plan may use the trained photo and dust networks (off unless the caller has them), how a
   * document page is turned (by the glyph vote unless a turn was decided elsewhere), and whether a photographed page
   * may be rectified (unless the caller found that its rectification reads worse).
   */
  opts: { photoNet?: boolean; dustNet?: boolean; turn?: TurnChoice; rectify?: boolean } = {},
): PagePlan {
  const features = pageFeatures(img);
  const kind: PageKind =
    mode === 'document' ? 'document' : mode === 'photo' ? 'photo' : classifyPage(features);
  const noise = estimateNoise(img);
  const textLines = countTextLines(img, dpi);
  const measures: Record<string, number> = { noise, dpi, textLines };
  const photoPlan = (): PagePlan => {
    const photo = planPhoto(img, measures, opts);
    // A damaged picture is never returned unchanged: damage the photo plan's gates let through gets its step.
    if (photo.steps.length === 0) photo.steps.push(...untouchedDamage(img, measures));
    return { kind, route: 'photo', features, measures, geometry: [], beforeNetwork: [], ...photo };
  };
  const documentPlan = (geometry: GeometryPlan, pageKind: PageKind = kind): PagePlan => {
    Object.assign(measures, geometry.measures);
    measures.paperOffWhite = paperOffWhite(img);
    measures.stainedShare = Math.round(stainedShare(img, dpi) * 1000) / 1000;
    const document = planDocumentSteps(geometry.image, dpi, noise);
    Object.assign(measures, document.measures);
    const beforeNetwork = [
      ...planTextDeblur(geometry.image, measures),
      ...planStreaks(geometry.image, dpi, measures),
    ];
    return {
      kind: pageKind,
      route: 'document',
      features,
      measures,
      geometry: geometry.steps,
      turnUnsure: geometry.turnUnsure,
      beforeNetwork,
      steps: [...beforeNetwork, ...document.steps],
      conservative: [...beforeNetwork, ...document.conservative],
    };
  };
  if (mode === 'photo') return photoPlan();
  const geometryOptions: { turn: TurnChoice; rectify?: boolean } = {
    turn: opts.turn ?? 'vote',
    rectify: opts.rectify,
  };
  // Routing by text lines, not by tones alone: a yellowed form is tinted all over and a faded grey print looks
  // like paper, but only the form has lines of characters.
  if (mode === 'auto' && !routedAsText(img, kind, features, textLines)) {
    // A photographed page: the desk around it makes it look like a picture, and the perspective and the camera's
    // noise and blur hide its lines. The page cut out and rectified is measured instead (seed 149382 doc_005, a
    // form: 6 lines found on the photo, 13 on the page, which then reads as a document).
    const onPage = opts.rectify === false ? undefined : rectifiedPageKind(img, dpi);
    if (onPage) {
      measures.rectifiedTextLines = onPage.textLines;
      return documentPlan(planGeometry(img, dpi, geometryOptions), onPage.kind);
    }
    // A page scanned sideways shows its lines standing. It takes the document plan once it is turned upright; while
    // nothing says which quarter turn that is, it stays on the photo plan (the document steps keep ink off text lines
    // they find across the page), and the caller may ask another measure.
    const standing = countTextLines(turnImage(img, 1), dpi);
    if (!routedAsText(img, kind, features, standing)) return photoPlan();
    measures.standingTextLines = standing;
    const geometry = planGeometry(img, dpi, geometryOptions);
    if (geometry.turns % 2 === 0) return { ...photoPlan(), turnUnsure: geometry.turnUnsure };
    return documentPlan(geometry);
  }
  // A photographed page is rectified and a turned page turned upright first; what follows measures the result.
  return documentPlan(planGeometry(img, dpi, geometryOptions));
}

/** The kind and text lines of the page a photo shows, cut out and rectified, when it reads as text. */
function rectifiedPageKind(img: RawImage, dpi: number): { kind: PageKind; textLines: number } | undefined {
  const found = findPageQuad(toGrey(img, 'max'));
  if (!found) return undefined;
  const page = warpQuad(img, found.quad, found.width, found.height);
  const features = pageFeatures(page);
  const kind = classifyPage(features);
  const textLines = countTextLines(page, dpi);
  return routedAsText(page, kind, features, textLines) ? { kind, textLines } : undefined;
}

/**
 * Deconvolution of a page smeared by motion, when its cepstrum shows one slanted smear of at least 4 px. On the
 * generated motion-blurred pages Tesseract read the deconvolved page as well as the clean one (seed 149382 doc_026,
 * a 13.5 px smear: CER 0.709 → 0.011); the network alone left it at 0.687.
 */
function planTextDeblur(img: RawImage, measures: Record<string, number>): StepCall[] {
  const smear = estimateSmear(img);
  measures.smearContrast = Math.round(smear.contrast * 1000) / 1000;
  if (!isClearSmear(smear)) return [];
  measures.smearAngle = smear.angle;
  measures.smearLength = smear.length;
  return [{ name: 'remove-motion-blur', params: { angle: smear.angle, length: smear.length, nsr: 0.003 } }];
}

/**
 * Scanner streaks (thin dark lines along the whole sheet, crossing the text: findStreaks) are painted out before
 * anything else reads the page: Tesseract takes one for a column rule, and the network darkens it.
 */
function planStreaks(img: RawImage, dpi: number, measures: Record<string, number>): StepCall[] {
  const streaks = findStreaks(toGrey(img, 'max'), dpi).length;
  measures.streaks = streaks;
  return streaks > 0 ? [{ name: 'remove-streaks', params: { dpi } }] : [];
}

/**
 * The document steps for a page already upright and flat (what planGeometry leaves, or the network's output,
 * which is planned again): the full plan, its conservative subset, and what was measured. `noise` is the page's
 * Laplacian noise estimate when the caller has it.
 */
export function planDocumentSteps(
  img: RawImage,
  dpi: number,
  noise = estimateNoise(img),
  /**
   * Whether `img` is the trained network's output. The network takes out stains, bleed-through and one-pixel
   * specks, so lone dots left on its page are salt and pepper, often softened by JPEG, noise or a low resolution
   * beyond `speckShare`'s reach (fresh seed 317290 doc_009: the dots in its gutter made Tesseract read the two
   * columns as one, CER 0.767; with the median 0.026). On the page as it came, stains and bleed-through break into
   * lone dots too, so there the one-pixel specks must be found as well.
   */
  cleanedByNetwork = false,
): { steps: StepCall[]; conservative: StepCall[]; measures: Record<string, number> } {
  const measures: Record<string, number> = {};
  // Small print alone shows one-pixel stops, dots and serifs as often as light salt and pepper (seed 167593's clean
  // doc_017, FreeSerif at 9.4 pt in two columns: 0.00052, and the median then cost it 1.1 points of CER), but each
  // beside its glyph: not lone. The lone dots are counted only where they decide (about 40 ms a page).
  const specks = speckShare(img);
  measures.specks = specks;
  if (cleanedByNetwork || specks > 0.0005) measures.loneDots = dotsPerGlyph(img, dpi);
  const saltAndPepper = (measures.loneDots ?? 0) > MAX_LONE_DOTS;
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
  // The network's page is clean but for the specks: its letters keep their pixels.
  if (saltAndPepper)
    steps.push({ name: 'remove-salt-pepper', params: cleanedByNetwork ? { dpi, specksOnly: 1 } : {} });
  else if (noise > 6) steps.push({ name: 'denoise-document', params: {} });
  // Camera and scanner noise that the Laplacian estimate misses (correlated, JPEG-smoothed): a light blur
  // before flattening keeps Tesseract's binarisation from breaking every stroke into grains.
  else if (paperNoise > 3) steps.push({ name: 'smooth-document', params: { dpi } });
  const smoothed = steps.some((s) => s.name === 'smooth-document');
  both({ name: 'flatten-background', params: { dpi } });
  both({ name: 'clear-edge-marks', params: { dpi } });
  // Under salt and pepper the specks within the gutters between columns go too (remove-speckles' clearGutters).
  steps.push({ name: 'remove-speckles', params: saltAndPepper ? { dpi, clearGutters: 1 } : { dpi } });
  const skew = estimateSkew(grey, dpi);
  measures.skew = skew;
  if (Math.abs(skew) >= 0.3) both({ name: 'deskew', params: { angle: skew } });
  // The network takes a crease's shading and leaves its ridge: a thin dark line on white paper across the sheet, which
  // Tesseract takes for a rule that joins the columns line by line (fresh seed 641437 doc_015, two columns creased
  // across: CER 0.046 before deskew and 0.728 after, when the line lies along the rows; 0.019 with it painted out).
  // It is painted out as a streak, at any angle a crease may have; after deskew, where it lies along the page.
  if (cleanedByNetwork) steps.push({ name: 'remove-streaks', params: { dpi, maxAngleDeg: MAX_ANGLE_DEG } });
  // Like remove-speckles, it finds its own damage (none on any clean public page); after deskew, so that a
  // column rule of a skewed scan is straight again and stays.
  steps.push({ name: 'remove-scratches', params: { dpi } });
  // Folds and creases: straight lines from edge to edge with shaded paper beside them (none on any clean public
  // page); after deskew, like remove-scratches.
  steps.push({ name: 'repair-creases', params: { dpi } });
  // Faded ink (even the darkest pixels are light grey, or close to a dim paper's level): Tesseract reads nothing
  // until the ink is darkened.
  const hist = histogram(grey.data);
  const inkLevel = percentile(hist, grey.data.length, 0.005);
  const paperLevel = percentile(hist, grey.data.length, 0.9);
  measures.inkLevel = inkLevel;
  measures.paperLevel = paperLevel;
  const fadedInk = inkLevel > 140 || inkLevel > 0.55 * paperLevel;
  // Soft, jagged edges (a low-resolution scan enlarged, a blurred fax): a light blur evens the grey edge pixels
  // so Tesseract's threshold cuts smooth strokes (doc CER on the dev set: low-resolution pages 0.20 → 0.14).
  const edges = edgeBlur(grey);
  measures.edgeBlur = edges;
  if (edges >= 0.7 && !smoothed && !fadedInk)
    steps.push({ name: 'smooth-document', params: { dpi: dpi * 0.7 } });
  // Faded ink fades unevenly (worse in some lines than others), so the ink is first darkened line by line, then
  // the whole page's levels are stretched.
  if (fadedInk) {
    steps.push({ name: 'restore-ink-contrast', params: { dpi } });
    steps.push({ name: 'stretch-contrast', params: {} });
  }
  // Otherwise stretch-contrast and repair-strokes stay available but out of the default plan: on the dev set a global
  // levels change and stroke filling cost more words (faint and small print) than they won.
  return { steps, conservative, measures };
}
