// Generated test pages: text rendered by sharp (librsvg) from an SVG, then damaged by plain pixel arithmetic, so a
// test states its damage exactly and needs no file from the eval set.
import sharp from 'sharp';
import type { RawImage } from '../src/image.js';
import { loadDocument, type Doc } from '../src/io/decode.js';

const WORDS =
  'Let the committee note that every member agreed to the revised schedule before the meeting closed and that ' +
  'the treasurer will report on the accounts of the previous quarter including travel costs and the library fund';

/** Baseline of the first line (pixels); line i sits at TEXT_TOP + i · 1.6 · fontSize. */
export const TEXT_TOP = 150;

export interface TextPageOptions {
  width?: number;
  height?: number;
  /** Left margin of the text (pixels). */
  left?: number;
  lines?: number;
  fontSize?: number;
  /** Grey level of the ink and of the paper. */
  ink?: number;
  paper?: number;
  /** The running text (WORDS by default). */
  text?: string;
}

/** A grey page of running text: `lines` lines of 11 words, each starting seven words further into WORDS. */
export async function textPage(opts: TextPageOptions = {}): Promise<RawImage> {
  const { width = 1275, height = 1650, left = 150, lines = 30, fontSize = 22, ink = 20, paper = 250 } = opts;
  const top = TEXT_TOP;
  const words = (opts.text ?? WORDS).split(' ');
  const rows: string[] = [];
  for (let i = 0; i < lines; i++) {
    const start = (i * 7) % words.length;
    const text = [...words.slice(start), ...words].slice(0, 11).join(' ');
    rows.push(
      `<text x="${left}" y="${top + i * fontSize * 1.6}" font-family="DejaVu Serif" font-size="${fontSize}" fill="rgb(${ink},${ink},${ink})">${text}</text>`,
    );
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="rgb(${paper},${paper},${paper})"/>${rows.join('')}</svg>`;
  const { data, info } = await sharp(Buffer.from(svg))
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height, channels: 1 };
}

/** Colour copy of a grey page multiplied by a paper tint (yellowing: blue lowest). */
export function tinted(page: RawImage, tint: [number, number, number], lift = 0): RawImage {
  const n = page.width * page.height;
  const data = new Uint8Array(n * 3);
  for (let i = 0; i < n; i++) {
    const v = page.data[i * page.channels]!;
    for (let c = 0; c < 3; c++) data[i * 3 + c] = Math.round(lift + v * tint[c]! * (1 - lift / 255));
  }
  return { data, width: page.width, height: page.height, channels: 3 };
}

/** The page darkened by a shadow along its left side: factor `from` at the left edge rising to 1 over `share` of the width. */
export function leftShadow(page: RawImage, from = 0.3, share = 0.15): RawImage {
  const out = { ...page, data: Uint8Array.from(page.data) };
  const span = page.width * share;
  for (let y = 0; y < page.height; y++) {
    for (let x = 0; x < span; x++) {
      const f = from + ((1 - from) * x) / span;
      for (let c = 0; c < page.channels; c++) {
        const i = (y * page.width + x) * page.channels + c;
        out.data[i] = Math.round(page.data[i]! * f);
      }
    }
  }
  return out;
}

/**
 * A grey picture without text: sky gradient, two rolling hills, a few round trees and fine texture (uniform noise
 * of `texture` levels), its tones squeezed into [low, high] (a faded, low-contrast print).
 */
export function greyPicture(width = 900, height = 600, low = 110, high = 190, texture = 12): RawImage {
  let seed = 515;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const trees = Array.from({ length: 9 }, () => ({
    x: rand() * width,
    y: height * (0.45 + rand() * 0.3),
    r: 15 + rand() * 40,
  }));
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const hill1 = height * (0.5 + 0.08 * Math.sin(x / 90));
      const hill2 = height * (0.68 + 0.06 * Math.sin(x / 55 + 1));
      let v = 230 - (120 * y) / height;
      if (y > hill1) v = 120 + 40 * Math.sin(x / 23) * Math.sin(y / 17);
      if (y > hill2) v = 70 + 30 * Math.sin((x + y) / 11);
      for (const t of trees) if ((x - t.x) ** 2 + (y - t.y) ** 2 < t.r * t.r) v = 40 + (20 * (y - t.y)) / t.r;
      v += (rand() - 0.5) * texture;
      data[y * width + x] = Math.round(low + ((high - low) * Math.max(0, Math.min(255, v))) / 255);
    }
  }
  return { data, width, height, channels: 1 };
}

/**
 * A grey page under a phone's light and noise: the light falls off from left to right by `falloff` (0.4: the right
 * edge gets 60 %), and every pixel takes uniform grain of ±`grain` levels.
 */
export function underPhoneLight(page: RawImage, falloff: number, grain: number): RawImage {
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const { width, height } = page;
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const v = page.data[(y * width + x) * page.channels]! * (1 - (falloff * x) / width);
      data[y * width + x] = Math.max(0, Math.min(255, Math.round(v + (rand() - 0.5) * 2 * grain)));
    }
  }
  return { data, width, height, channels: 1 };
}

/** A page as a one-page PNG document (150 DPI unless told), as an upload would give it to the engine. */
export async function docOf(img: RawImage, density = 150): Promise<Doc> {
  const png = await sharp(Buffer.from(img.data), {
    raw: { width: img.width, height: img.height, channels: img.channels },
  })
    .withMetadata({ density })
    .png()
    .toBuffer();
  return loadDocument(png);
}

/**
 * The page smeared by a straight motion of `length` pixels at `angle` degrees (0: along x, 90: down the page): the
 * mean of the page sampled (bilinear, edges repeated) at points spread evenly along the smear, as a camera moved
 * while its shutter was open.
 */
export function smeared(page: RawImage, length: number, angle: number): RawImage {
  const samples = Math.ceil(length * 4) + 1;
  const dx = Math.cos((angle * Math.PI) / 180);
  const dy = Math.sin((angle * Math.PI) / 180);
  const { width, height, channels } = page;
  const out = new Uint8Array(page.data.length);
  const at = (x: number, y: number, c: number) =>
    page.data[
      (Math.min(height - 1, Math.max(0, y)) * width + Math.min(width - 1, Math.max(0, x))) * channels + c
    ]!;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < channels; c++) {
        let sum = 0;
        for (let k = 0; k < samples; k++) {
          const t = -length / 2 + (k * length) / (samples - 1);
          const sx = x + t * dx;
          const sy = y + t * dy;
          const x0 = Math.floor(sx);
          const y0 = Math.floor(sy);
          const fx = sx - x0;
          const fy = sy - y0;
          sum +=
            (at(x0, y0, c) * (1 - fx) + at(x0 + 1, y0, c) * fx) * (1 - fy) +
            (at(x0, y0 + 1, c) * (1 - fx) + at(x0 + 1, y0 + 1, c) * fx) * fy;
        }
        out[(y * width + x) * channels + c] = Math.round(sum / samples);
      }
    }
  }
  return { data: out, width, height, channels };
}
