// Ink against the local paper, shared by the orientation measure and the word guard.
import type { Grey } from './index.js';

/** Ink (1) where a pixel is clearly darker than its neighbourhood (Bradley's mean threshold, window ≈ dpi/4). */
export function inkMask(grey: Grey, dpi: number, darker = 0.25): Uint8Array {
  const { width: w, height: h, data } = grey;
  const integral = new Float64Array((w + 1) * (h + 1));
  for (let y = 0; y < h; y++) {
    let row = 0;
    for (let x = 0; x < w; x++) {
      row += data[y * w + x]!;
      integral[(y + 1) * (w + 1) + x + 1] = integral[y * (w + 1) + x + 1]! + row;
    }
  }
  const r = Math.max(4, Math.round(dpi / 8));
  const ink = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    const y0 = Math.max(0, y - r);
    const y1 = Math.min(h, y + r + 1);
    for (let x = 0; x < w; x++) {
      const x0 = Math.max(0, x - r);
      const x1 = Math.min(w, x + r + 1);
      const sum =
        integral[y1 * (w + 1) + x1]! -
        integral[y0 * (w + 1) + x1]! -
        integral[y1 * (w + 1) + x0]! +
        integral[y0 * (w + 1) + x0]!;
      const mean = sum / ((x1 - x0) * (y1 - y0));
      if (data[y * w + x]! < mean * (1 - darker)) ink[y * w + x] = 1;
    }
  }
  return ink;
}
