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

/**
 * In-place 2-D FFT of a square T×T complex plane (rows, then columns); `rowRe` and `rowIm` are scratch rows of
 * length T. The inverse scales by 1/T².
 */
export function fft2(
  re: Float64Array,
  im: Float64Array,
  T: number,
  rowRe: Float64Array,
  rowIm: Float64Array,
  inverse = false,
): void {
  for (let y = 0; y < T; y++) {
    rowRe.set(re.subarray(y * T, y * T + T));
    rowIm.set(im.subarray(y * T, y * T + T));
    fft(rowRe, rowIm, inverse);
    re.set(rowRe, y * T);
    im.set(rowIm, y * T);
  }
  for (let x = 0; x < T; x++) {
    for (let y = 0; y < T; y++) {
      rowRe[y] = re[y * T + x]!;
      rowIm[y] = im[y * T + x]!;
    }
    fft(rowRe, rowIm, inverse);
    for (let y = 0; y < T; y++) {
      re[y * T + x] = rowRe[y]!;
      im[y * T + x] = rowIm[y]!;
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
  const rowRe = new Float64Array(W);
  const rowIm = new Float64Array(W);
  const colRe = new Float64Array(H);
  const colIm = new Float64Array(H);
  const pass = (inverse: boolean) => {
    for (let y = 0; y < H; y++) {
      rowRe.set(re.subarray(y * W, y * W + W));
      rowIm.set(im.subarray(y * W, y * W + W));
      fft(rowRe, rowIm, inverse);
      re.set(rowRe, y * W);
      im.set(rowIm, y * W);
    }
    for (let x = 0; x < W; x++) {
      for (let y = 0; y < H; y++) {
        colRe[y] = re[y * W + x]!;
        colIm[y] = im[y * W + x]!;
      }
      fft(colRe, colIm, inverse);
      for (let y = 0; y < H; y++) {
        re[y * W + x] = colRe[y]!;
        im[y * W + x] = colIm[y]!;
      }
    }
  };
  pass(false);
  for (let y = 0; y < H; y++) {
    const fy = (y <= H / 2 ? y : y - H) / H;
    for (let x = 0; x < W; x++) {
      const fx = (x <= W / 2 ? x : x - W) / W;
      const g = gain(fx, fy);
      re[y * W + x]! *= g;
      im[y * W + x]! *= g;
    }
  }
  pass(true);
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) out[y * width + x] = re[(y + pad) * W + x + pad]!;
  return out;
}
