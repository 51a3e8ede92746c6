// Marks the page network drew darker than the input shows them: bleed-through from the back of the sheet comes out
// of the network as black fragments, often mirrored letters, which Tesseract reads as words. Each dark component of the network's page is judged by what lies under it in the input: how deep it is
// against the local paper, next to the page's own ink, and how sharp its edges are. Bleed-through is seen through
// the paper, so it is paler than the print and blurred; the print is the page's deepest and sharpest ink.
import { createImage, type RawImage } from '../image.js';
import { boxMean, toGrey, type Grey } from '../pixels/index.js';
import { labelComponents } from '../pixels/components.js';
import { sobel } from '../pixels/kernels.js';
import { estimateBackground } from './document.js';

/** Grey level under which a pixel of the network's page is ink. */
const NET_INK = 200;

/**
 * Logistic weights of a mark being print rather than a pale mark, from its depth next to the page's ink depth
 * (`inkDepthOf`) and its edge sharpness (see `markFeatures`); a mark is cleared when the odds that it is print fall
 * under 1 to 4. Fitted by `npm run fit:pale-marks -- --set DIR` on the development set bleed9
 * (engine/training/profiles/bleed9.json, seed 90417: aged, water-damaged, carbon-copy and photocopied pages; the
 * 25,150 marks of 3 px or more on the network's pages of its 14 unskewed pages, labelled by the clean page), print
 * removed weighing three times a mark left. With MAX_PALE_DEPTH, 62 of its 20,871 marks of print are cleared (0.3 %),
 * and 2,121 of the 4,279 others.
 */
export const PALE_MARK_MODEL = { depth: 9.65, sharpness: 18.85, bias: -7.91, minOdds: 0.25 };

/**
 * Deepest a mark may be and still be cleared, whatever the page's ink: print washed out under a water stain is pale
 * and soft like bleed-through, and only its depth parts them (dev seed 55123 pdf_003, page 1: five lines under a stain,
 * 0.16 deep at their 5th percentile, were cleared against the page's ink depth of 0.56, CER 0.053 → 0.172). The marks
 * of bleed-through the network leaves on bleed9 measure 0.11 at the median, 0.14 at the 75th percentile: 82 % of them
 * (half their pixels) lie under the bar.
 */
const MAX_PALE_DEPTH = 0.15;

/**
 * Fewest pixels of a mark judged, at 150 DPI (scaled with the area at other resolutions): lone specks are the speck
 * steps' to judge, and the salt-and-pepper plan counts them (clearing the paler ones hid the rest from it).
 */
const MIN_MARK_PIXELS = 3;

export interface MarkFeatures {
  /** Pixels of the mark on the network's page. */
  area: number;
  /** 1 − the input's 10th-percentile grey under the mark, as a share of the local paper (0: paper). */
  depth: number;
  /** 90th-percentile Sobel gradient under the mark, per grey level of its depth. */
  sharpness: number;
}

/** The dark components of the network's page (labelled) with what the input shows under each. */
export function markFeatures(
  input: RawImage,
  netPage: RawImage,
  dpi: number,
): { marks: MarkFeatures[]; labels: Int32Array } {
  const grey = toGrey(input, 'max');
  const { width, height } = grey;
  const background = estimateBackground(grey, dpi);
  const smooth = boxMean(grey.data, width, height, 1);
  const net = toGrey(netPage, 'luma').data;
  const mask = new Uint8Array(net.length);
  for (let i = 0; i < net.length; i++) mask[i] = net[i]! < NET_INK ? 1 : 0;
  const found = labelComponents(mask, width, height, { order: true });
  const order = found.order!;
  const starts = found.starts!;
  const marks: MarkFeatures[] = [];
  // Each mark's values, in buffers shared by all marks (sorted in place for the percentiles).
  const ratios = new Float32Array(order.length);
  const edges = new Float32Array(order.length);
  for (let k = 0; k < found.count; k++) {
    const from = starts[k]!;
    const to = starts[k + 1]!;
    for (let j = from; j < to; j++) {
      const i = order[j]!;
      ratios[j] = smooth[i]! / Math.max(1, background[i]!);
      edges[j] = sobelAt(smooth, width, height, i);
    }
    const area = to - from;
    const depth = 1 - ratios.subarray(from, to).sort()[Math.floor(0.1 * (area - 1))]!;
    const edge = edges.subarray(from, to).sort()[Math.floor(0.9 * (area - 1))]!;
    marks.push({ area, depth, sharpness: edge / Math.max(1, depth * 255) });
  }
  return { marks, labels: found.labels };
}

/** The page's ink depth: the median depth of its marks, each counted by its pixels (up to 1,000): print outweighs specks. */
export function inkDepthOf(marks: readonly MarkFeatures[]): number {
  const weighted = marks.map((m) => ({ depth: m.depth, weight: Math.min(m.area, 1000) }));
  weighted.sort((a, b) => a.depth - b.depth);
  const total = weighted.reduce((sum, m) => sum + m.weight, 0);
  let seen = 0;
  for (const m of weighted) {
    seen += m.weight;
    if (seen >= total / 2) return m.depth;
  }
  return 0;
}

/** Whether a mark is pale (in itself and next to the page's ink) and blurred: bleed-through or a stain's rim, not print. */
export function isPaleMark(
  mark: MarkFeatures,
  inkDepth: number,
  dpi: number,
  model = PALE_MARK_MODEL,
): boolean {
  if (mark.area < MIN_MARK_PIXELS * (dpi / 150) ** 2 || mark.depth >= MAX_PALE_DEPTH) return false;
  const logit =
    model.depth * (mark.depth / Math.max(inkDepth, 1e-3)) + model.sharpness * mark.sharpness + model.bias;
  return Math.exp(logit) < model.minOdds;
}

/** The network's page with the marks the input shows only as pale, blurred marks turned to paper. */
export function clearPaleMarks(input: RawImage, netPage: RawImage, dpi: number): RawImage {
  const { marks, labels } = markFeatures(input, netPage, dpi);
  const inkDepth = inkDepthOf(marks);
  const cleared = marks.map((m) => isPaleMark(m, inkDepth, dpi));
  if (!cleared.includes(true)) return netPage;
  const net = toGrey(netPage, 'luma');
  const out = createImage(net.width, net.height, 1) as Grey;
  for (let i = 0; i < labels.length; i++) {
    const label = labels[i]!;
    out.data[i] = label >= 0 && cleared[label] ? 255 : net.data[i]!;
  }
  return out;
}

/** Sobel gradient magnitude / 8 (grey levels per pixel) at pixel i; 0 on the border. */
function sobelAt(src: Float32Array, width: number, height: number, i: number): number {
  const x = i % width;
  const y = (i - x) / width;
  if (x === 0 || y === 0 || x === width - 1 || y === height - 1) return 0;
  return sobel(src, width, i) / 8;
}
