// Where a photographed page lies in the picture: a bright quadrilateral on a darker surface (a desk, a table).
// Each side is found by scanning from the picture's edge inwards for the first clear rise from dark surface to
// paper, then fitting a straight line through those edge points; the corners are where the lines meet.
import type { Point, Quad } from '../pixels/geometry.js';
import type { Grey } from '../pixels/index.js';

export interface PageQuad {
  /** Corners in pixel-edge coordinates, clockwise from the top left. */
  quad: Quad;
  /** The rectified page's size in pixels. */
  width: number;
  height: number;
  /** Share of the picture inside the quad. */
  areaShare: number;
  /** Largest offset, in pixels, of a side's one end from the other across its axis (0 for an upright rectangle). */
  slant: number;
}

type Side = 'left' | 'right' | 'top' | 'bottom';

/** Rows (or columns) averaged per scan line, and the step between scan lines. */
const BAND = 4;
/** How deep into the picture a side is looked for (share of the width or height). */
const MAX_DEPTH = 0.25;
/** Paper must be this many times brighter than the surface beside it, and by this many grey levels. */
const MIN_CONTRAST = 1.35;
const MIN_STEP = 25;
/** Share of a side's scan lines that must give an edge point on its line. */
const MIN_SUPPORT = 0.5;
/** Interior angles of the quad within this many degrees of 90. */
const MAX_ANGLE_ERROR = 15;
/** The quad's share of the picture. */
const MIN_AREA_SHARE = 0.45;
/**
 * A quad that is an upright rectangle is a scanner's dark border around a page, not a perspective: the slant
 * must reach this share of the page's size (and 4 px).
 */
const MIN_SLANT = 0.004;

/**
 * The profile of one scan line from the picture's edge inwards: mean grey of a band of BAND rows (or columns),
 * index 0 at the edge.
 */
function scanProfile(grey: Grey, side: Side, at: number, depth: number): Float32Array {
  const { data, width, height } = grey;
  const p = new Float32Array(depth);
  for (let k = 0; k < depth; k++) {
    let sum = 0;
    for (let b = 0; b < BAND; b++) {
      const across = at + b;
      const x = side === 'left' ? k : side === 'right' ? width - 1 - k : across;
      const y = side === 'top' ? k : side === 'bottom' ? height - 1 - k : across;
      sum += data[y * width + x]!;
    }
    p[k] = sum / BAND;
  }
  return p;
}

/**
 * Depth (pixel-edge coordinates from the picture's edge) of the first clear rise from a dark surface to paper,
 * or null when the first rise is not one (the picture's edge is paper or ink).
 */
function firstRise(p: Float32Array): number | null {
  const mean = (a: number, b: number) => {
    let s = 0;
    for (let k = a; k <= b; k++) s += p[k]!;
    return s / (b - a + 1);
  };
  for (let k = 6; k < p.length - 6; k++) {
    const outside = mean(k - 6, k - 3);
    const inside = mean(k + 3, k + 6);
    if (inside < MIN_CONTRAST * outside || inside - outside < MIN_STEP) continue;
    // The rise is where the step is steepest, a few pixels on.
    let at = k;
    let best = inside - outside;
    for (let j = k + 1; j <= Math.min(k + 6, p.length - 7); j++) {
      const step = mean(j + 3, j + 6) - mean(j - 6, j - 3);
      if (step > best) {
        best = step;
        at = j;
      }
    }
    const low = mean(at - 6, at - 3);
    const high = mean(at + 3, at + 6);
    // Everything before the rise must be surface: never near the paper's level.
    for (let j = 0; j < at - 3; j++) if (p[j]! > low + 0.5 * (high - low)) return null;
    const mid = (low + high) / 2;
    for (let j = at - 3; j <= at + 3; j++) {
      if (p[j]! >= mid) {
        const prev = p[j - 1]!;
        const frac = p[j]! > prev ? (mid - prev) / (p[j]! - prev) : 0;
        return j - 1 + frac + 0.5;
      }
    }
    return null;
  }
  return null;
}

/** A line across = slope × along + offset, fitted with outliers (residual > 2 px) dropped; null if unsupported. */
function fitLine(
  points: readonly [number, number][],
  lines: number,
): { slope: number; offset: number } | null {
  let kept = points;
  let fit: { slope: number; offset: number } | null = null;
  for (let round = 0; round < 4; round++) {
    if (kept.length < Math.max(8, MIN_SUPPORT * lines)) return null;
    let sa = 0;
    let sc = 0;
    let saa = 0;
    let sac = 0;
    for (const [a, c] of kept) {
      sa += a;
      sc += c;
      saa += a * a;
      sac += a * c;
    }
    const n = kept.length;
    const den = n * saa - sa * sa;
    if (den === 0) return null;
    const slope = (n * sac - sa * sc) / den;
    fit = { slope, offset: (sc - slope * sa) / n };
    const f = fit;
    const tolerance = round === 0 ? 8 : 2;
    kept = kept.filter(([a, c]) => Math.abs(c - (f.slope * a + f.offset)) <= tolerance);
  }
  return kept.length >= Math.max(8, MIN_SUPPORT * lines) ? fit : null;
}

/** One side's line in picture coordinates: for left/right x = slope·y + offset, for top/bottom y = slope·x + offset. */
function findSide(grey: Grey, side: Side): { slope: number; offset: number } | null {
  const vertical = side === 'left' || side === 'right';
  const length = vertical ? grey.height : grey.width;
  const size = vertical ? grey.width : grey.height;
  const depth = Math.floor(size * MAX_DEPTH);
  const points: [number, number][] = [];
  let lines = 0;
  for (let at = Math.floor(length * 0.1); at + BAND <= Math.ceil(length * 0.9); at += BAND) {
    lines++;
    const d = firstRise(scanProfile(grey, side, at, depth));
    if (d === null) continue;
    const across = side === 'left' || side === 'top' ? d : size - d;
    points.push([at + BAND / 2, across]);
  }
  return fitLine(points, lines);
}

const cross = (o: Point, a: Point, b: Point) => (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
const dist = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);

/** Where a vertical side (x = a·y + b) meets a horizontal one (y = c·x + d). */
function meet(v: { slope: number; offset: number }, h: { slope: number; offset: number }): Point {
  const y = (h.slope * v.offset + h.offset) / (1 - h.slope * v.slope);
  return { x: v.slope * y + v.offset, y };
}

/**
 * The page's quad when a photographed page lies on a darker surface with all four sides in the picture; null
 * when any side is missing, the quad is not a plausible page (angles, area), or it is an upright rectangle.
 */
export function findPageQuad(grey: Grey): PageQuad | null {
  const { width: W, height: H } = grey;
  if (W < 64 || H < 64) return null;
  const left = findSide(grey, 'left');
  const right = left && findSide(grey, 'right');
  const top = right && findSide(grey, 'top');
  const bottom = top && findSide(grey, 'bottom');
  if (!left || !right || !top || !bottom) return null;
  const quad: Quad = [meet(left, top), meet(right, top), meet(right, bottom), meet(left, bottom)];
  const margin = 0.02 * Math.max(W, H);
  if (quad.some((p) => p.x < -margin || p.y < -margin || p.x > W + margin || p.y > H + margin)) return null;
  // Convex, clockwise (in picture coordinates, y down), every angle near a right angle.
  for (let i = 0; i < 4; i++) {
    const prev = quad[(i + 3) % 4]!;
    const p = quad[i]!;
    const next = quad[(i + 1) % 4]!;
    if (cross(p, next, prev) <= 0) return null;
    const cos =
      ((prev.x - p.x) * (next.x - p.x) + (prev.y - p.y) * (next.y - p.y)) / (dist(p, prev) * dist(p, next));
    if (Math.abs(90 - (Math.acos(Math.max(-1, Math.min(1, cos))) * 180) / Math.PI) > MAX_ANGLE_ERROR)
      return null;
  }
  let area = 0;
  for (let i = 0; i < 4; i++) {
    const a = quad[i]!;
    const b = quad[(i + 1) % 4]!;
    area += a.x * b.y - b.x * a.y;
  }
  const areaShare = Math.abs(area) / 2 / (W * H);
  if (areaShare < MIN_AREA_SHARE || areaShare > 0.995) return null;
  const [tl, tr, br, bl] = quad;
  const slant = Math.max(
    Math.abs(tl.x - bl.x),
    Math.abs(tr.x - br.x),
    Math.abs(tl.y - tr.y),
    Math.abs(bl.y - br.y),
  );
  if (slant < Math.max(4, MIN_SLANT * Math.max(W, H))) return null;
  // The page's size: the picture's own when the quad has about its proportions (the page was framed to fill
  // it), else the mean lengths of opposite sides.
  const pageW = (dist(tl, tr) + dist(bl, br)) / 2;
  const pageH = (dist(tl, bl) + dist(tr, br)) / 2;
  const framed = Math.abs(pageW / pageH / (W / H) - 1) <= 0.12;
  return {
    quad,
    width: framed ? W : Math.round(pageW),
    height: framed ? H : Math.round(pageH),
    areaShare,
    slant,
  };
}
