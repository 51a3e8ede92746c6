// Page geometry on pixels: quarter turns, homographies and the perspective warp of a page's quad (the geometry
// steps run them, and the plan runs them to measure the corrected page).
import { createImage, type RawImage } from '../image.js';

/** A point in pixel-edge coordinates: pixel (x, y) covers [x, x + 1) × [y, y + 1). */
export interface Point {
  x: number;
  y: number;
}

/** The page's corners in the image, clockwise from the top left. */
export type Quad = [Point, Point, Point, Point];

/** Turns an image by `turns` quarter turns clockwise (width and height swap for odd turns). */
export function turnImage(img: RawImage, turns: number): RawImage {
  const t = ((Math.round(turns) % 4) + 4) % 4;
  if (t === 0) return img;
  const { width: w, height: h, channels: c, data } = img;
  const odd = t % 2 === 1;
  const out = createImage(odd ? h : w, odd ? w : h, c);
  const ow = out.width;
  // Pixel (x, y) goes to: clockwise (h−1−y, x); half (w−1−x, h−1−y); counter-clockwise (y, w−1−x). Along a
  // source row the destination moves by a fixed step.
  const step = (t === 1 ? ow : t === 2 ? -1 : -ow) * c;
  for (let y = 0; y < h; y++) {
    let dst = (t === 1 ? h - 1 - y : t === 2 ? (h - 1 - y) * ow + w - 1 : (w - 1) * ow + y) * c;
    let src = y * w * c;
    for (let x = 0; x < w; x++, dst += step, src += c) {
      for (let k = 0; k < c; k++) out.data[dst + k] = data[src + k]!;
    }
  }
  return out;
}

/** The middle of an image: `share` of its width and of its height, centred. */
export function centralCrop(img: RawImage, share: number): RawImage {
  const w = Math.max(1, Math.round(img.width * share));
  const h = Math.max(1, Math.round(img.height * share));
  const x0 = (img.width - w) >> 1;
  const y0 = (img.height - h) >> 1;
  const c = img.channels;
  const out = createImage(w, h, c);
  for (let y = 0; y < h; y++) {
    const from = ((y0 + y) * img.width + x0) * c;
    out.data.set(img.data.subarray(from, from + w * c), y * w * c);
  }
  return out;
}

/**
 * The homography (row-major 3×3, h33 = 1) that maps the four `from` points onto the four `to` points, by
 * Gaussian elimination of the usual 8×8 system; null when the points are degenerate (three on a line).
 */
export function homography(from: readonly Point[], to: readonly Point[]): number[] | null {
  const a: number[][] = [];
  for (let i = 0; i < 4; i++) {
    const { x, y } = from[i]!;
    const { x: u, y: v } = to[i]!;
    a.push([x, y, 1, 0, 0, 0, -u * x, -u * y, u]);
    a.push([0, 0, 0, x, y, 1, -v * x, -v * y, v]);
  }
  for (let col = 0; col < 8; col++) {
    let pivot = col;
    for (let r = col + 1; r < 8; r++) if (Math.abs(a[r]![col]!) > Math.abs(a[pivot]![col]!)) pivot = r;
    if (Math.abs(a[pivot]![col]!) < 1e-10) return null;
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    const row = a[col]!;
    for (let r = 0; r < 8; r++) {
      if (r === col) continue;
      const f = a[r]![col]! / row[col]!;
      if (f === 0) continue;
      for (let k = col; k < 9; k++) a[r]![k]! -= f * row[k]!;
    }
  }
  return [...a.map((r, i) => r[8]! / r[i]!), 1];
}

export function applyHomography(m: readonly number[], p: Point): Point {
  const d = m[6]! * p.x + m[7]! * p.y + m[8]!;
  return { x: (m[0]! * p.x + m[1]! * p.y + m[2]!) / d, y: (m[3]! * p.x + m[4]! * p.y + m[5]!) / d };
}

/**
 * The quad's page warped onto a `width` × `height` rectangle (bilinear; outside the image, the nearest edge
 * pixel). Each output pixel centre is mapped through the homography from the rectangle to the quad.
 */
export function warpQuad(img: RawImage, quad: Quad, width: number, height: number): RawImage {
  const rect: Point[] = [
    { x: 0, y: 0 },
    { x: width, y: 0 },
    { x: width, y: height },
    { x: 0, y: height },
  ];
  const m = homography(rect, quad);
  if (!m) return img;
  const { width: w, height: h, channels: c, data } = img;
  const out = createImage(width, height, c);
  for (let y = 0; y < height; y++) {
    const py = y + 0.5;
    // Numerators and denominator at x + 0.5, stepped along the row.
    let nx = m[0]! * 0.5 + m[1]! * py + m[2]!;
    let ny = m[3]! * 0.5 + m[4]! * py + m[5]!;
    let d = m[6]! * 0.5 + m[7]! * py + m[8]!;
    for (let x = 0; x < width; x++, nx += m[0]!, ny += m[3]!, d += m[6]!) {
      // Pixel-edge coordinates to pixel-centre coordinates.
      const sx = Math.min(w - 1, Math.max(0, nx / d - 0.5));
      const sy = Math.min(h - 1, Math.max(0, ny / d - 0.5));
      const x0 = Math.min(w - 2, Math.floor(sx));
      const y0 = Math.min(h - 2, Math.floor(sy));
      const fx = sx - x0;
      const fy = sy - y0;
      const i00 = (y0 * w + x0) * c;
      const i10 = i00 + c;
      const i01 = i00 + w * c;
      const i11 = i01 + c;
      const o = (y * width + x) * c;
      for (let k = 0; k < c; k++) {
        const top = data[i00 + k]! + (data[i10 + k]! - data[i00 + k]!) * fx;
        const bottom = data[i01 + k]! + (data[i11 + k]! - data[i01 + k]!) * fx;
        out.data[o + k] = Math.round(top + (bottom - top) * fy);
      }
    }
  }
  return out;
}

/** The quad as step parameters (x0, y0 … x3, y3; rectify-perspective reads them back). */
export function quadParams(quad: Quad): Record<string, number> {
  const params: Record<string, number> = {};
  quad.forEach((p, i) => {
    params[`x${i}`] = Math.round(p.x * 100) / 100;
    params[`y${i}`] = Math.round(p.y * 100) / 100;
  });
  return params;
}
