// In-place radix-2 complex FFT, a square 2-D transform, and frequency-domain filtering of a real plane.

/** In-place iterative radix-2 FFT of (re, im), length a power of two; inverse scales by 1/n. */
export function fft(re: Float64Array, im: Float64Array, inverse = false): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      let t = re[i]!;
      re[i] = re[j]!;
      re[j] = t;
      t = im[i]!;
      im[i] = im[j]!;
      im[j] = t;
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const ang = ((inverse ? 2 : -2) * Math.PI) / len;
    const wr = Math.cos(ang);
    const wi = Math.sin(ang);
    const half = len >> 1;
    for (let i = 0; i < n; i += len) {
      let cr = 1;
      let ci = 0;
      for (let k = 0; k < half; k++) {
        const a = i + k;
        const b = a + half;
        const xr = re[b]! * cr - im[b]! * ci;
        const xi = re[b]! * ci + im[b]! * cr;
        re[b] = re[a]! - xr;
        im[b] = im[a]! - xi;
        re[a]! += xr;
        im[a]! += xi;
        const nr = cr * wr - ci * wi;
        ci = cr * wi + ci * wr;
        cr = nr;
      }
    }
  }
  if (inverse) {
    for (let i = 0; i < n; i++) {
      re[i]! /= n;
      im[i]! /= n;
    }
  }
}

/** In-place 2-D FFT of a width × height complex plane (rows, then columns); the inverse scales by 1/(width·height). */
export function fft2(
  re: Float64Array,
  im: Float64Array,
  width: number,
  height: number,
  inverse = false,
): void {
  const rowRe = new Float64Array(width);
  const rowIm = new Float64Array(width);
  for (let y = 0; y < height; y++) {
    rowRe.set(re.subarray(y * width, y * width + width));
    rowIm.set(im.subarray(y * width, y * width + width));
    fft(rowRe, rowIm, inverse);
    re.set(rowRe, y * width);
    im.set(rowIm, y * width);
  }
  const colRe = new Float64Array(height);
  const colIm = new Float64Array(height);
  for (let x = 0; x < width; x++) {
    for (let y = 0; y < height; y++) {
      colRe[y] = re[y * width + x]!;
      colIm[y] = im[y * width + x]!;
    }
    fft(colRe, colIm, inverse);
    for (let y = 0; y < height; y++) {
      re[y * width + x] = colRe[y]!;
      im[y * width + x] = colIm[y]!;
    }
  }
}

export function nextPow2(n: number): number {
  let p = 1;
  while (p < n) p <<= 1;
  return p;
}

/**
 * Filters a real plane in the frequency domain: the plane is mirrored out by `pad` pixels, zero-extended to
 * powers of two, transformed, multiplied by gain(fx, fy) (cycles per pixel, −0.5..0.5) and transformed back.
 */
export function filterPlane(
  src: Float32Array,
  width: number,
  height: number,
  pad: number,
  gain: (fx: number, fy: number) => number,
): Float32Array {
  const pw = width + 2 * pad;
  const ph = height + 2 * pad;
  const W = nextPow2(pw);
  const H = nextPow2(ph);
  const re = new Float64Array(W * H);
  const im = new Float64Array(W * H);
  const mirror = (v: number, n: number) => {
    let m = v;
    // Reflect until inside (pads are smaller than the image, so once or twice is enough).
    for (let k = 0; k < 4 && (m < 0 || m >= n); k++) m = m < 0 ? -m - 1 : 2 * n - m - 1;
    return Math.min(n - 1, Math.max(0, m));
  };
  // Fill the whole power-of-two canvas by reflection so that the wrap-around has no hard seam.
  for (let y = 0; y < H; y++) {
    const sy = mirror(y - pad, height);
    for (let x = 0; x < W; x++) re[y * W + x] = src[sy * width + mirror(x - pad, width)]!;
  }
  fft2(re, im, W, H);
  for (let y = 0; y < H; y++) {
    const fy = (y <= H / 2 ? y : y - H) / H;
    for (let x = 0; x < W; x++) {
      const fx = (x <= W / 2 ? x : x - W) / W;
      const g = gain(fx, fy);
      re[y * W + x]! *= g;
      im[y * W + x]! *= g;
    }
  }
  fft2(re, im, W, H, true);
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) out[y * width + x] = re[(y + pad) * W + x + pad]!;
  return out;
}
