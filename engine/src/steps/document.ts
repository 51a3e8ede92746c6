// Document steps. They work on grey pages (the first step drops colour by keeping the brightest channel) and
// scale their window sizes with the page DPI so that they behave alike at 150 and 300 DPI.
import { createImage } from '../image.js';
import { otsuThreshold } from '../analysis/measure.js';
import { num, type Step } from './registry.js';
import {
  boxMean,
  enlarge,
  histogram,
  rankFilter,
  reduce,
  sharpOf,
  sharpToRaw,
  toGrey,
  type Grey,
} from './pixels.js';

const scaleOf = (params: Record<string, unknown>) => num(params as never, 'dpi', 150) / 150;

/** Paper background as a smooth full-size map: block max, grey closing wider than any stroke, blur. */
export function estimateBackground(grey: Grey, dpi: number): Float32Array {
  const factor = Math.max(2, Math.round((4 * dpi) / 150));
  const small = reduce(grey.data, grey.width, grey.height, factor, 'max');
  const radius = Math.max(2, Math.round((14 * dpi) / 150 / factor));
  const closed = rankFilter(
    rankFilter(small.data, small.width, small.height, radius, true),
    small.width,
    small.height,
    radius,
    false,
  );
  const smooth = boxMean(closed, small.width, small.height, Math.max(1, Math.round(radius / 2)));
  return enlarge(smooth, small.width, small.height, grey.width, grey.height, factor);
}

export const whitenPaper: Step = {
  name: 'whiten-paper',
  kind: 'document',
  description:
    'Grey page from the brightest colour channel: yellowed, tinted or stained paper turns white, ink stays dark',
  run: (img) => toGrey(img, 'max'),
};

export const cleanBorders: Step = {
  name: 'clean-borders',
  kind: 'document',
  description: 'Whitens dark scanner-lid borders, punched holes and desk background that touch the page edge',
  run(img, params) {
    const grey = toGrey(img, 'max');
    const dpi = num(params, 'dpi', 150);
    const factor = Math.max(2, Math.round((4 * dpi) / 150));
    const small = reduce(grey.data, grey.width, grey.height, factor, 'max');
    // A border is far darker than the paper even after removing the ink (block max + opening of text gaps).
    const radius = Math.max(1, Math.round((6 * dpi) / 150 / factor));
    const bg = rankFilter(small.data, small.width, small.height, radius, true);
    const sorted = Float64Array.from(bg).sort();
    const paper = sorted[Math.floor(sorted.length * 0.7)]!;
    const limit = paper * num(params, 'ratio', 0.55);
    const { width: sw, height: sh } = small;
    const mark = new Uint8Array(sw * sh);
    const queue: number[] = [];
    const seed = (i: number) => {
      if (!mark[i] && bg[i]! < limit) {
        mark[i] = 1;
        queue.push(i);
      }
    };
    for (let x = 0; x < sw; x++) {
      seed(x);
      seed((sh - 1) * sw + x);
    }
    for (let y = 0; y < sh; y++) {
      seed(y * sw);
      seed(y * sw + sw - 1);
    }
    while (queue.length > 0) {
      const i = queue.pop()!;
      const x = i % sw;
      if (x > 0) seed(i - 1);
      if (x < sw - 1) seed(i + 1);
      if (i >= sw) seed(i - sw);
      if (i < sw * (sh - 1)) seed(i + sw);
    }
    let marked = 0;
    for (const m of mark) marked += m;
    if (marked === 0) return grey;
    // Grow the mask a little: the shadow along a border edge is dark too.
    const grown = rankFilter(mark, sw, sh, 1, true);
    const out = createImage(grey.width, grey.height, 1);
    out.data.set(grey.data);
    const white = Math.round(paper);
    for (let y = 0; y < grey.height; y++) {
      const row = Math.min(sh - 1, Math.floor(y / factor)) * sw;
      for (let x = 0; x < grey.width; x++) {
        if (grown[row + Math.min(sw - 1, Math.floor(x / factor))]) out.data[y * grey.width + x] = white;
      }
    }
    return out;
  },
};

export const flattenBackground: Step = {
  name: 'flatten-background',
  kind: 'document',
  description:
    'Divides the page by its estimated paper background: removes uneven lighting, shadows, yellowing and stains',
  run(img, params) {
    const grey = toGrey(img, 'max');
    const bg = estimateBackground(grey, num(params, 'dpi', 150));
    const out = createImage(grey.width, grey.height, 1);
    for (let i = 0; i < out.data.length; i++) {
      const b = Math.max(bg[i]!, 24);
      out.data[i] = Math.min(255, (grey.data[i]! * 255) / b);
    }
    return out;
  },
};

/** Union-find-free labelling by flood fill; returns the label per pixel and each component's pixel count. */
function labelDark(mask: Uint8Array, width: number, height: number): { labels: Int32Array; areas: number[] } {
  const labels = new Int32Array(mask.length).fill(-1);
  const areas: number[] = [];
  const stack: number[] = [];
  for (let start = 0; start < mask.length; start++) {
    if (!mask[start] || labels[start] !== -1) continue;
    const id = areas.length;
    let area = 0;
    labels[start] = id;
    stack.push(start);
    while (stack.length > 0) {
      const i = stack.pop()!;
      area++;
      const x = i % width;
      const y = (i - x) / width;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= width) continue;
          const j = ny * width + nx;
          if (mask[j] && labels[j] === -1) {
            labels[j] = id;
            stack.push(j);
          }
        }
      }
    }
    areas.push(area);
  }
  return { labels, areas };
}

export const removeSpeckles: Step = {
  name: 'remove-speckles',
  kind: 'document',
  description: 'Removes isolated dark specks (dust, toner) much smaller than a glyph and away from any text',
  run(img, params) {
    const grey = toGrey(img, 'max');
    const s = scaleOf(params);
    const { width, height } = grey;
    const threshold = Math.min(otsuThreshold(grey), 200);
    const mask = new Uint8Array(width * height);
    for (let i = 0; i < mask.length; i++) mask[i] = grey.data[i]! < threshold ? 1 : 0;
    const { labels, areas } = labelDark(mask, width, height);
    const maxArea = Math.max(2, Math.round(num(params, 'maxArea', 10) * s * s));
    // "Text" = pixels of components bigger than a speck; a small component near text is punctuation.
    const text = new Float32Array(width * height);
    for (let i = 0; i < mask.length; i++) if (mask[i] && areas[labels[i]!]! > maxArea) text[i] = 1;
    const near = boxMean(text, width, height, Math.max(2, Math.round(num(params, 'isolation', 12) * s)));
    const out = createImage(width, height, 1);
    out.data.set(grey.data);
    const paper = 255;
    for (let i = 0; i < mask.length; i++) {
      if (!mask[i]) continue;
      const area = areas[labels[i]!]!;
      if (area <= maxArea && near[i]! === 0) out.data[i] = paper;
    }
    return out;
  },
};

export const removeSaltPepper: Step = {
  name: 'remove-salt-pepper',
  kind: 'document',
  description: 'Median of 3×3 for pages covered with 1-2 px specks and drop-outs',
  async run(img) {
    return sharpToRaw(sharpOf(toGrey(img, 'max')).median(3), 1);
  },
};

export const deskew: Step = {
  name: 'deskew',
  kind: 'document',
  description: 'Rotates the page by the measured text-line angle (projection profile), keeping its size',
  async run(img, params) {
    const angle = num(params, 'angle', 0);
    if (angle === 0) return img;
    const grey = toGrey(img, 'max');
    const rotated = await sharpToRaw(
      sharpOf(grey).rotate(angle, { background: { r: 255, g: 255, b: 255 } }),
      1,
    );
    const left = Math.max(0, Math.floor((rotated.width - grey.width) / 2));
    const top = Math.max(0, Math.floor((rotated.height - grey.height) / 2));
    return sharpToRaw(sharpOf(rotated).extract({ left, top, width: grey.width, height: grey.height }), 1);
  },
};

export const stretchContrast: Step = {
  name: 'stretch-contrast',
  kind: 'document',
  description:
    'Levels: darkest ink to black and everything near the paper level to white (drops faint bleed-through and tint)',
  run(img, params) {
    const grey = toGrey(img, 'max');
    const hist = histogram(grey.data);
    const total = grey.data.length;
    // Paper: the brightest well-populated level; ink: the 2nd percentile of the darker-than-Otsu pixels.
    const t = otsuThreshold(grey);
    let inkCount = 0;
    for (let v = 0; v < t; v++) inkCount += hist[v]!;
    let acc = 0;
    let ink = 0;
    for (let v = 0; v < t; v++) {
      acc += hist[v]!;
      if (acc >= inkCount * 0.02) {
        ink = v;
        break;
      }
    }
    let paper = 255;
    let peak = 0;
    for (let v = t; v < 256; v++) {
      if (hist[v]! > peak) {
        peak = hist[v]!;
        paper = v;
      }
    }
    if (inkCount < total * 0.001 || paper - ink < 40) return grey;
    const whiteAt = paper - num(params, 'whiteFraction', 0.12) * (paper - ink);
    const blackAt = Math.min(ink, whiteAt - 20);
    const gamma = num(params, 'gamma', 1);
    const lut = new Uint8Array(256);
    for (let v = 0; v < 256; v++) {
      const u = Math.min(1, Math.max(0, (v - blackAt) / (whiteAt - blackAt)));
      lut[v] = Math.round(255 * Math.pow(u, gamma));
    }
    const out = createImage(grey.width, grey.height, 1);
    for (let i = 0; i < total; i++) out.data[i] = lut[grey.data[i]!]!;
    return out;
  },
};

export const repairStrokes: Step = {
  name: 'repair-strokes',
  kind: 'document',
  description:
    'Fills single-pixel drop-outs inside strokes (light pixels mostly surrounded by ink), never widening gaps',
  run(img, params) {
    const grey = toGrey(img, 'max');
    const { width, height } = grey;
    const threshold = Math.min(otsuThreshold(grey), 200);
    const need = num(params, 'neighbours', 6);
    const out = createImage(width, height, 1);
    out.data.set(grey.data);
    for (let pass = 0; pass < num(params, 'passes', 1); pass++) {
      const src = out.data.slice();
      for (let y = 1; y < height - 1; y++) {
        for (let x = 1; x < width - 1; x++) {
          const i = y * width + x;
          if (src[i]! < threshold) continue;
          let dark = 0;
          let sum = 0;
          for (let dy = -1; dy <= 1; dy++) {
            for (let dx = -1; dx <= 1; dx++) {
              if (dx === 0 && dy === 0) continue;
              const v = src[i + dy * width + dx]!;
              if (v < threshold) {
                dark++;
                sum += v;
              }
            }
          }
          if (dark >= need) out.data[i] = Math.round(sum / dark);
        }
      }
    }
    return out;
  },
};

export const sharpenText: Step = {
  name: 'sharpen-text',
  kind: 'document',
  description: 'Mild unsharp mask for soft (defocused or motion-blurred) text',
  async run(img, params) {
    const sharpened = sharpOf(toGrey(img, 'max')).sharpen({
      sigma: num(params, 'sigma', 1.2),
      m1: 0.5,
      m2: num(params, 'amount', 1.5),
    });
    return sharpToRaw(sharpened, 1);
  },
};

export const denoiseDocument: Step = {
  name: 'denoise-document',
  kind: 'document',
  description: 'Edge-preserving smoothing of scanner and sensor noise (3×3 median, then a light blend)',
  async run(img) {
    return sharpToRaw(sharpOf(toGrey(img, 'max')).median(3), 1);
  },
};

export const upscaleDocument: Step = {
  name: 'upscale-document',
  kind: 'document',
  description:
    'Enlarges low-resolution text (Lanczos, then a light unsharp mask) so small print keeps its shapes',
  async run(img, params) {
    const grey = toGrey(img, 'max');
    const scale = num(params, 'scale', 2);
    const enlarged = sharpOf(grey)
      .resize({
        width: Math.round(grey.width * scale),
        height: Math.round(grey.height * scale),
        kernel: 'lanczos3',
      })
      .sharpen({ sigma: 1, m1: 0.5, m2: 1 });
    return sharpToRaw(enlarged, 1);
  },
};

export const documentSteps: Step[] = [
  whitenPaper,
  cleanBorders,
  flattenBackground,
  removeSaltPepper,
  removeSpeckles,
  deskew,
  stretchContrast,
  repairStrokes,
  sharpenText,
  denoiseDocument,
  upscaleDocument,
];
