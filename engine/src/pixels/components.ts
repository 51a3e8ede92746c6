// Connected components of a mask: the engine's one labeller (8-connected unless asked for 4). Components are numbered
// in the raster order of their first pixel. Without `order` the mask's runs of pixels are joined row by row
// (union-find): a page's ink is a few runs per row, so this touches far fewer pixels than a flood fill. With `order`
// each component is filled depth-first from its first pixel, neighbours taken row by row, and the fill's order is kept.

/** A component's bounding box, inclusive on both ends. */
export interface ComponentBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface Components {
  /** Components found, numbered 0.. in the raster order of their first pixel. */
  count: number;
  /** Each pixel's component, -1 off the mask. */
  labels: Int32Array;
  /** Pixels per component. */
  areas: Int32Array;
  boxes: ComponentBox[];
  /**
   * With `order`: every component's pixels in the order the fill reached them, component after component
   * (component k is `order.subarray(starts[k], starts[k + 1])`).
   */
  order?: Int32Array;
  starts?: Int32Array;
}

/** Labels the 8-connected (or 4-connected) components of the mask's non-zero pixels. */
export function labelComponents(
  mask: ArrayLike<number>,
  width: number,
  height: number,
  opts: { order?: boolean; connectivity?: 4 | 8 } = {},
): Components {
  return opts.order
    ? fillComponents(mask, width, height, opts.connectivity === 4)
    : joinRuns(mask, width, height, opts.connectivity === 4);
}

/** Runs of mask pixels row by row, joined with the runs they touch in the row above (union-find over runs). */
function joinRuns(mask: ArrayLike<number>, width: number, height: number, four: boolean): Components {
  let capacity = 1024;
  let starts = new Int32Array(capacity);
  let ends = new Int32Array(capacity);
  let parent = new Int32Array(capacity);
  const rowFirst = new Int32Array(height + 1);
  let runs = 0;
  const find = (r: number): number => {
    let root = r;
    while (parent[root] !== root) root = parent[root]!;
    while (parent[r] !== root) {
      const next = parent[r]!;
      parent[r] = root;
      r = next;
    }
    return root;
  };
  // Touching runs: overlapping columns (4-connected) or overlapping or diagonal neighbours (8-connected).
  const reach = four ? 0 : 1;
  for (let y = 0; y < height; y++) {
    rowFirst[y] = runs;
    const row = y * width;
    let above = y > 0 ? rowFirst[y - 1]! : 0;
    const aboveEnd = runs;
    for (let x = 0; x < width; x++) {
      if (!mask[row + x]) continue;
      const start = x;
      while (x < width && mask[row + x]) x++;
      if (runs === capacity) {
        capacity *= 2;
        const grow = (a: Int32Array) => {
          const b = new Int32Array(capacity);
          b.set(a);
          return b;
        };
        starts = grow(starts);
        ends = grow(ends);
        parent = grow(parent);
      }
      const r = runs++;
      starts[r] = start;
      ends[r] = x; // exclusive
      parent[r] = r;
      // Runs above that end before this one can reach are passed for good: the next run starts further right.
      while (above < aboveEnd && ends[above]! + reach <= start) above++;
      for (let a = above; a < aboveEnd && starts[a]! < x + reach; a++) {
        const ra = find(a);
        const rr = find(r);
        // The earlier run (in raster order) stays the root: component numbers follow their first pixel.
        if (ra < rr) parent[rr] = ra;
        else if (rr < ra) parent[ra] = rr;
      }
    }
  }
  rowFirst[height] = runs;
  const labels = new Int32Array(width * height).fill(-1);
  const idOf = new Int32Array(runs).fill(-1);
  const areas: number[] = [];
  const boxes: ComponentBox[] = [];
  for (let y = 0; y < height; y++) {
    for (let r = rowFirst[y]!; r < rowFirst[y + 1]!; r++) {
      const root = find(r);
      let id = idOf[root]!;
      const x0 = starts[r]!;
      const x1 = ends[r]! - 1;
      if (id === -1) {
        id = idOf[root] = areas.length;
        areas.push(0);
        boxes.push({ x0, y0: y, x1, y1: y });
      }
      areas[id]! += x1 - x0 + 1;
      const box = boxes[id]!;
      if (x0 < box.x0) box.x0 = x0;
      if (x1 > box.x1) box.x1 = x1;
      box.y1 = y;
      labels.fill(id, y * width + x0, y * width + x1 + 1);
    }
  }
  return { count: areas.length, labels, areas: Int32Array.from(areas), boxes };
}

/** Depth-first fill from each component's first pixel in raster order; keeps the order the fill reached pixels. */
function fillComponents(mask: ArrayLike<number>, width: number, height: number, four: boolean): Components {
  const n = width * height;
  const labels = new Int32Array(n).fill(-1);
  const stack = new Int32Array(n);
  const order = new Int32Array(n);
  const starts: number[] = [0];
  const areas: number[] = [];
  const boxes: ComponentBox[] = [];
  let reached = 0;
  for (let start = 0; start < n; start++) {
    if (!mask[start] || labels[start] !== -1) continue;
    const id = areas.length;
    let top = 0;
    stack[top++] = start;
    labels[start] = id;
    let area = 0;
    let x0 = width;
    let y0 = height;
    let x1 = -1;
    let y1 = -1;
    while (top > 0) {
      const i = stack[--top]!;
      order[reached++] = i;
      area++;
      const x = i % width;
      const y = (i - x) / width;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= width || (four && dx !== 0 && dy !== 0)) continue;
          const j = ny * width + nx;
          if (mask[j] && labels[j] === -1) {
            labels[j] = id;
            stack[top++] = j;
          }
        }
      }
    }
    areas.push(area);
    boxes.push({ x0, y0, x1, y1 });
    starts.push(reached);
  }
  return {
    count: areas.length,
    labels,
    areas: Int32Array.from(areas),
    boxes,
    order,
    starts: Int32Array.from(starts),
  };
}

/** Whether another component's ink lies within `gap` pixels of a component's box. */
export function hasOtherInk(
  labels: Int32Array,
  id: number,
  b: ComponentBox,
  gap: number,
  width: number,
  height: number,
): boolean {
  for (let y = Math.max(0, b.y0 - gap); y <= Math.min(height - 1, b.y1 + gap); y++) {
    for (let x = Math.max(0, b.x0 - gap); x <= Math.min(width - 1, b.x1 + gap); x++) {
      const other = labels[y * width + x]!;
      if (other >= 0 && other !== id) return true;
    }
  }
  return false;
}
