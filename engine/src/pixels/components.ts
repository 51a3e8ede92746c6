// Connected components of a mask: the engine's one labeller (8-connected unless asked for 4, depth-first from each
// component's first pixel in raster order, neighbours taken row by row).

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
  const n = width * height;
  const four = opts.connectivity === 4;
  const labels = new Int32Array(n).fill(-1);
  const stack = new Int32Array(n);
  const order = opts.order ? new Int32Array(n) : undefined;
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
      if (order) order[reached++] = i;
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
    ...(order ? { order, starts: Int32Array.from(starts) } : {}),
  };
}
