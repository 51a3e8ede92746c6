// List windowing for the file grids (spec: "500 files render and scroll smoothly"): which rows of cards to
// render for the visible part of the page. Rows outside the window are replaced by padding of their height, so
// the page keeps its full length and its scrollbar. Pure functions; hooks/use-windowed-grid.ts feeds them the
// measured layout.

export interface GridLayout {
  itemCount: number;
  columns: number;
  /** Vertical gap between rows, px. */
  rowGap: number;
  /** Heights of rows already rendered once, by row index. */
  measuredRowHeights: ReadonlyMap<number, number>;
  /** Height assumed for a row never rendered. */
  estimatedRowHeight: number;
}

/** The visible band of the page in grid coordinates: px from the top edge of the grid. */
export interface VisibleBand {
  top: number;
  bottom: number;
}

export interface GridWindow {
  /** Rows [firstRow, endRow) and items [firstIndex, endIndex) are rendered. */
  firstRow: number;
  endRow: number;
  firstIndex: number;
  endIndex: number;
  /** Stand-ins for the rows above and below the window. */
  paddingTop: number;
  paddingBottom: number;
}

export const rowCountOf = (itemCount: number, columns: number): number =>
  Math.ceil(itemCount / Math.max(1, columns));

/**
 * The rows that intersect the visible band widened by `overscan` px on both sides. The overscan keeps the next
 * rows mounted before they scroll in (React renders the new window a frame after the scroll event) and lets
 * Tab reach the card after the last visible one.
 */
export function gridWindow(layout: GridLayout, band: VisibleBand, overscan: number): GridWindow {
  const columns = Math.max(1, layout.columns);
  const rows = rowCountOf(layout.itemCount, columns);
  const heightOf = (row: number) => layout.measuredRowHeights.get(row) ?? layout.estimatedRowHeight;
  const from = band.top - overscan;
  const to = band.bottom + overscan;

  let firstRow = rows;
  let endRow = rows;
  let rowTop = 0;
  let windowTop = 0;
  let windowBottom = 0;
  let total = 0;
  for (let row = 0; row < rows; row++) {
    const rowBottom = rowTop + heightOf(row);
    if (firstRow === rows && rowBottom > from && rowTop < to) {
      firstRow = row;
      windowTop = rowTop;
    }
    if (firstRow !== rows && endRow === rows && rowTop >= to) endRow = row;
    if (firstRow !== rows && endRow === rows) windowBottom = rowBottom;
    total = rowBottom;
    rowTop = rowBottom + layout.rowGap;
  }

  if (firstRow === rows) {
    // Nothing near the band (the grid is far above or below it): all padding.
    return { firstRow: 0, endRow: 0, firstIndex: 0, endIndex: 0, paddingTop: 0, paddingBottom: total };
  }
  return {
    firstRow,
    endRow,
    firstIndex: firstRow * columns,
    endIndex: Math.min(layout.itemCount, endRow * columns),
    paddingTop: windowTop,
    paddingBottom: total - windowBottom,
  };
}

/** A rendered row as measured: its top edge relative to the viewport and its height, px. */
export interface RowMeasurement {
  row: number;
  top: number;
  height: number;
}

/**
 * How far to scroll so the cards on screen stay where they were after rows above the viewport changed height:
 * a row mounted there with its real height in place of the estimate, or a card above that grew. The browser's
 * scroll anchoring does not do it here (it is suppressed whenever the grid's padding changes).
 */
export function scrollCorrection(
  rows: readonly RowMeasurement[],
  assumedHeight: (row: number) => number,
): number {
  let shift = 0;
  for (const { row, top, height } of rows) if (top < 0) shift += height - assumedHeight(row);
  return shift;
}

/**
 * Number of columns from a computed `grid-template-columns`: a laid-out grid gives its tracks ("312px 312px
 * 312px"); a grid that is not laid out (hidden) gives the declared value ("repeat(3, minmax(0, 1fr))").
 */
export function columnCountOf(gridTemplateColumns: string): number {
  const value = gridTemplateColumns.trim();
  const repeated = /^repeat\((\d+)\s*,/.exec(value);
  if (repeated) return Number(repeated[1]);
  if (value === '' || value === 'none') return 1;
  return value.split(/\s+/).length;
}
