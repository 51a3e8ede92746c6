import { columnCountOf, gridWindow, rowCountOf, scrollCorrection, type GridLayout } from './grid-window.js';

// 500 cards in 4 columns, 460 px rows and 16 px gaps: a row every 476 px, 125 rows, 59,484 px in all.
const desktop: GridLayout = {
  itemCount: 500,
  columns: 4,
  rowGap: 16,
  measuredRowHeights: new Map(),
  estimatedRowHeight: 460,
};
const FULL_HEIGHT = 125 * 460 + 124 * 16;

/** Height of rows [first, end) with the gaps between them. */
const spanOf = (first: number, end: number, height = 460, gap = 16) =>
  end > first ? (end - first) * height + (end - first - 1) * gap : 0;

describe('gridWindow', () => {
  it('at the top renders the rows within one screen below the viewport, padding for the rest', () => {
    const w = gridWindow(desktop, { top: 0, bottom: 900 }, 900);
    // Rows start at 0, 476, 952, 1428, 1904: the fifth starts below 900 + 900.
    expect(w).toEqual({
      firstRow: 0,
      endRow: 4,
      firstIndex: 0,
      endIndex: 16,
      paddingTop: 0,
      paddingBottom: FULL_HEIGHT - spanOf(0, 4),
    });
  });

  it('mid-list renders the rows around the viewport and pads both sides', () => {
    const w = gridWindow(desktop, { top: 10_000, bottom: 10_900 }, 900);
    // Row 18 ends at 9028, before 10,000 − 900; row 25 starts at 11,900, after 10,900 + 900.
    expect([w.firstRow, w.endRow, w.firstIndex, w.endIndex]).toEqual([19, 25, 76, 100]);
    expect(w.paddingTop).toBe(19 * 476);
    expect(w.paddingBottom).toBe(FULL_HEIGHT - 25 * 476 + 16);
  });

  it('at the bottom ends with the last, partly filled row', () => {
    const w = gridWindow({ ...desktop, itemCount: 498 }, { top: 58_600, bottom: 59_500 }, 900);
    expect(w.endRow).toBe(125);
    expect(w.endIndex).toBe(498);
    expect(w.paddingBottom).toBe(0);
  });

  it('renders nothing when the grid is far above or below the viewport, and keeps its full height', () => {
    for (const band of [
      { top: -20_000, bottom: -19_100 },
      { top: 80_000, bottom: 80_900 },
    ]) {
      const w = gridWindow(desktop, band, 900);
      expect(w.endIndex - w.firstIndex).toBe(0);
      expect(w.paddingTop + w.paddingBottom).toBe(FULL_HEIGHT);
    }
  });

  it('keeps the page length: padding plus rendered rows always add up to the whole grid', () => {
    const measured = new Map([
      [0, 430],
      [3, 512],
      [40, 470],
    ]);
    const layout = { ...desktop, itemCount: 203, columns: 3, measuredRowHeights: measured };
    const height = (row: number) => measured.get(row) ?? layout.estimatedRowHeight;
    const rows = rowCountOf(203, 3);
    let full = 0;
    for (let row = 0; row < rows; row++) full += height(row);
    full += (rows - 1) * 16;
    for (let top = -3000; top < full + 3000; top += 337) {
      const w = gridWindow(layout, { top, bottom: top + 700 }, 700);
      let rendered = 0;
      for (let row = w.firstRow; row < w.endRow; row++) rendered += height(row);
      if (w.endRow > w.firstRow) rendered += (w.endRow - w.firstRow - 1) * 16;
      expect(w.paddingTop + rendered + w.paddingBottom).toBeCloseTo(full, 6);
      expect(w.firstIndex).toBe(w.firstRow * 3);
      expect(w.endIndex).toBe(Math.min(203, w.endRow * 3));
    }
  });

  it('covers the whole visible band whenever it overlaps the grid', () => {
    for (let top = -800; top < FULL_HEIGHT; top += 211) {
      const band = { top, bottom: top + 900 };
      const w = gridWindow(desktop, band, 0);
      // The band may begin or end in a gap between rows, which needs no row.
      expect(w.paddingTop).toBeLessThanOrEqual(Math.max(0, band.top) + 16);
      expect(FULL_HEIGHT - w.paddingBottom).toBeGreaterThanOrEqual(Math.min(FULL_HEIGHT, band.bottom) - 16);
    }
  });

  it('follows the column count: one column on a phone renders fewer cards for the same band', () => {
    const phone = gridWindow({ ...desktop, columns: 1 }, { top: 0, bottom: 844 }, 844);
    expect([phone.firstIndex, phone.endIndex]).toEqual([0, 4]);
    const tablet = gridWindow({ ...desktop, columns: 2 }, { top: 0, bottom: 844 }, 844);
    expect([tablet.firstIndex, tablet.endIndex]).toEqual([0, 8]);
  });

  it('uses measured row heights, and the estimate for rows not measured yet', () => {
    const layout = {
      ...desktop,
      estimatedRowHeight: 400,
      measuredRowHeights: new Map([
        [0, 300],
        [1, 500],
      ]),
    };
    const w = gridWindow(layout, { top: 5000, bottom: 5900 }, 0);
    // Rows 0 and 1 take 316 + 516 px, every later one 416 px: row 11 ends at 832 + 9 × 416 + 400 = 4976,
    // before the band; row 12 starts at 4992.
    expect(w.firstRow).toBe(12);
    expect(w.paddingTop).toBe(832 + 10 * 416);
  });

  it('has nothing to render for an empty list', () => {
    expect(gridWindow({ ...desktop, itemCount: 0 }, { top: 0, bottom: 900 }, 900)).toEqual({
      firstRow: 0,
      endRow: 0,
      firstIndex: 0,
      endIndex: 0,
      paddingTop: 0,
      paddingBottom: 0,
    });
  });
});

describe('scrollCorrection', () => {
  const assumed = (row: number) => (row === 3 ? 480 : 460);

  it('adds up how much the rows above the viewport differ from the heights they were given', () => {
    const rows = [
      { row: 2, top: -1400, height: 520 }, // 60 px taller than the estimate
      { row: 3, top: -860, height: 470 }, // 10 px shorter than measured before
      { row: 4, top: -380, height: 460 }, // as assumed
    ];
    expect(scrollCorrection(rows, assumed)).toBe(50);
  });

  it('ignores rows in or below the viewport: the content above them does not move', () => {
    const rows = [
      { row: 5, top: 0, height: 700 },
      { row: 6, top: 716, height: 300 },
    ];
    expect(scrollCorrection(rows, assumed)).toBe(0);
  });
});

describe('columnCountOf', () => {
  it.each([
    ['312px 312px 312px 312px', 4],
    ['616px 616px', 2],
    ['358px', 1],
    ['repeat(3, minmax(0, 1fr))', 3],
    ['none', 1],
    ['', 1],
  ])('%s → %d columns', (value, columns) => {
    expect(columnCountOf(value)).toBe(columns);
  });
});
