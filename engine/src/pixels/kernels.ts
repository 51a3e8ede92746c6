// Blur kernels and their transfer functions (the defocus measure and the deconvolution share them), and the Sobel
// gradient.

/** Pillbox (defocus) kernel of radius r as the generator of real defocus draws it: weight clamp(r + 0.5 − d). */
export function diskKernel(radius: number): { size: number; weights: Float64Array } {
  const R = Math.ceil(radius);
  const size = 2 * R + 1;
  const weights = new Float64Array(size * size);
  let sum = 0;
  for (let y = -R; y <= R; y++)
    for (let x = -R; x <= R; x++) {
      const w = Math.min(1, Math.max(0, radius + 0.5 - Math.hypot(x, y)));
      weights[(y + R) * size + x + R] = w;
      sum += w;
    }
  for (let i = 0; i < weights.length; i++) weights[i]! /= sum;
  return { size, weights };
}

/**
 * Transfer function of a symmetric kernel at (fx, fy) cycles per pixel (real, since the kernel is symmetric).
 * Returns a function that caches the row factors, for evaluation over a whole frequency grid.
 */
export function kernelTransfer(kernel: {
  size: number;
  weights: Float64Array;
}): (fx: number, fy: number) => number {
  const { size, weights } = kernel;
  const R = (size - 1) / 2;
  // Fold the symmetric kernel onto its quadrant: H = Σ_{x,y ≥ 0} w'·cos(2π fx x)·cos(2π fy y).
  const quad = new Float64Array((R + 1) * (R + 1));
  for (let y = -R; y <= R; y++)
    for (let x = -R; x <= R; x++)
      quad[Math.abs(y) * (R + 1) + Math.abs(x)]! += weights[(y + R) * size + x + R]!;
  const cy = new Float64Array(R + 1);
  const cx = new Float64Array(R + 1);
  let lastFy = Number.NaN;
  return (fx, fy) => {
    if (fy !== lastFy) {
      for (let y = 0; y <= R; y++) cy[y] = Math.cos(2 * Math.PI * fy * y);
      lastFy = fy;
    }
    for (let x = 0; x <= R; x++) cx[x] = Math.cos(2 * Math.PI * fx * x);
    let h = 0;
    for (let y = 0; y <= R; y++) {
      let row = 0;
      for (let x = 0; x <= R; x++) row += quad[y * (R + 1) + x]! * cx[x]!;
      h += row * cy[y]!;
    }
    return h;
  };
}

/** Sobel gradient magnitude at pixel i (not on the border). */
export function sobel(src: Float32Array, width: number, i: number): number {
  const gx =
    src[i - width + 1]! +
    2 * src[i + 1]! +
    src[i + width + 1]! -
    src[i - width - 1]! -
    2 * src[i - 1]! -
    src[i + width - 1]!;
  const gy =
    src[i + width - 1]! +
    2 * src[i + width]! +
    src[i + width + 1]! -
    src[i - width - 1]! -
    2 * src[i - width]! -
    src[i - width + 1]!;
  return Math.sqrt(gx * gx + gy * gy);
}
