// Pages made in the test: plain English text rendered with @napi-rs/canvas, and such a page photographed on a
// desk (warped into a known quad over a dark, textured surface).
import { createCanvas } from '@napi-rs/canvas';
import { createImage, type RawImage } from '../../src/image.js';
import { homography, type Quad } from '../../src/pixels/geometry.js';

const WORDS = (
  'the quality of a restored page depends on how well its text can be read again by people and by machines ' +
  'every line was scanned from an old letter kept in a box for many years before anybody thought of copying ' +
  'it properly while some of the paper had yellowed and the ink had faded in places most words were still ' +
  'clear enough to be typed out by hand although a few had to be guessed from the rest of the sentence during ' +
  'the following weeks the whole collection of forty two folders was catalogued numbered and photographed'
).split(' ');

/** A grey page of text lines at 150 DPI: `font` CSS family, size in px, optional heading. */
export function textPage(
  opts: { width?: number; height?: number; font?: string; size?: number; lines?: number } = {},
): RawImage {
  const width = opts.width ?? 900;
  const height = opts.height ?? 1100;
  const size = opts.size ?? 22;
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = '#111';
  ctx.font = `${size}px "${opts.font ?? 'Liberation Serif'}"`;
  ctx.textBaseline = 'alphabetic';
  let w = 0;
  const lines = opts.lines ?? Math.floor((height - 160) / (size * 1.5));
  for (let l = 0; l < lines; l++) {
    let line = '';
    while (ctx.measureText(`${line} ${WORDS[w % WORDS.length]}`).width < width - 160) {
      line = line ? `${line} ${WORDS[w % WORDS.length]}` : WORDS[w % WORDS.length]!;
      w++;
    }
    // Sentences start with a capital now and then, as real text does.
    if (l % 3 === 0) line = line[0]!.toUpperCase() + line.slice(1);
    ctx.fillText(line, 80, 100 + l * size * 1.5);
  }
  const rgba = ctx.getImageData(0, 0, width, height).data;
  const out = createImage(width, height, 1);
  for (let i = 0; i < width * height; i++) out.data[i] = rgba[i * 4]!;
  return out;
}

/**
 * `page` photographed: warped into `quad` (corners clockwise from the top left, pixel-edge coordinates) of a
 * `width` × `height` RGB picture whose surroundings are a dark brown, gently textured desk.
 */
export function onDesk(page: RawImage, quad: Quad, width: number, height: number): RawImage {
  const toPage = homography(quad, [
    { x: 0, y: 0 },
    { x: page.width, y: 0 },
    { x: page.width, y: page.height },
    { x: 0, y: page.height },
  ])!;
  const out = createImage(width, height, 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const px = x + 0.5;
      const py = y + 0.5;
      const d = toPage[6]! * px + toPage[7]! * py + toPage[8]!;
      const u = (toPage[0]! * px + toPage[1]! * py + toPage[2]!) / d - 0.5;
      const v = (toPage[3]! * px + toPage[4]! * py + toPage[5]!) / d - 0.5;
      const o = (y * width + x) * 3;
      if (u >= 0 && v >= 0 && u <= page.width - 1 && v <= page.height - 1) {
        // Bilinear, paper slightly warm as under room light (its brightest channel unchanged).
        const x0 = Math.min(page.width - 2, Math.floor(u));
        const y0 = Math.min(page.height - 2, Math.floor(v));
        const fx = u - x0;
        const fy = v - y0;
        const at = (xx: number, yy: number) => page.data[yy * page.width + xx]!;
        const g =
          (at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx) * (1 - fy) +
          (at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx) * fy;
        out.data[o] = Math.round(g);
        out.data[o + 1] = Math.round(g * 0.97);
        out.data[o + 2] = Math.round(g * 0.92);
      } else {
        const grain = 1 + 0.08 * Math.sin(x / 7) * Math.cos(y / 11) + 0.04 * Math.sin((x + 2 * y) / 3);
        out.data[o] = Math.round(95 * grain);
        out.data[o + 1] = Math.round(70 * grain);
        out.data[o + 2] = Math.round(50 * grain);
      }
    }
  }
  return out;
}

/**
 * `page` photographed on a desk of coarse, high-contrast grain (woven cloth, rough wood): the desk shows as many
 * tones as a picture does, so the photo as a whole measures as mixed rather than as a page of paper.
 */
export function onBusyDesk(page: RawImage, quad: Quad, width: number, height: number): RawImage {
  const photo = onDesk(page, quad, width, height);
  const white = createImage(page.width, page.height, 1);
  white.data.fill(255);
  const paper = onDesk(white, quad, width, height);
  for (let p = 0; p < width * height; p++) {
    if (paper.data[p * 3]! >= 200) continue;
    const x = p % width;
    const y = Math.floor(p / width);
    const grain = 0.9 + 1.1 * (0.5 + 0.5 * Math.sin(x * 1.7 + y * 0.9 + 3 * Math.sin(y / 5)));
    for (let c = 0; c < 3; c++)
      photo.data[p * 3 + c] = Math.min(255, Math.round(photo.data[p * 3 + c]! * grain));
  }
  return photo;
}
