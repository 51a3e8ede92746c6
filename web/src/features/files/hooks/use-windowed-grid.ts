// Windowing for a CSS grid of cards that scrolls with the page. The grid keeps its own responsive columns (the
// hook reads the resolved track count, so breakpoints stay in the CSS); the hook follows the page scroll and the
// grid's size, measures the rows it has rendered, and says which items to render and how much padding stands
// in for the rest (logic/grid-window.ts). Every grid child must carry `data-index` (its item index), and the
// grid must not take part in the browser's scroll anchoring (`overflow-anchor: none`): the hook keeps the
// cards on screen in place itself.
import { useLayoutEffect, useRef, useState, type RefObject } from 'react';
import {
  columnCountOf,
  gridWindow,
  scrollCorrection,
  type GridWindow,
  type RowMeasurement,
  type VisibleBand,
} from '../logic/grid-window.js';

/** Assumed row height before any row has been measured: a desktop card with its preview. */
const DEFAULT_ROW_HEIGHT = 460;
const NO_HEIGHTS: ReadonlyMap<number, number> = new Map();

interface GridMetrics {
  columns: number;
  rowGap: number;
  width: number;
}

/** Row heights are only valid for the column count and width they were measured at. */
interface MeasuredRows extends GridMetrics {
  heights: ReadonlyMap<number, number>;
  /**
   * Height assumed for rows not rendered yet: the mean of the first rows measured at this layout, then fixed.
   * Were it updated with every measurement, all the rows above the viewport would change height each time.
   */
  estimate: number;
}

const isLaidOut = (element: Element) => element.getClientRects().length > 0;

export function useWindowedGrid<T extends HTMLElement>(
  itemCount: number,
): { gridRef: RefObject<T | null>; rendered: GridWindow } {
  const gridRef = useRef<T>(null);
  const [metrics, setMetrics] = useState<GridMetrics>({ columns: 1, rowGap: 0, width: 0 });
  const [band, setBand] = useState<VisibleBand>(() => ({ top: 0, bottom: window.innerHeight }));
  const [measured, setMeasured] = useState<MeasuredRows>({
    columns: 0,
    rowGap: 0,
    width: 0,
    heights: NO_HEIGHTS,
    estimate: DEFAULT_ROW_HEIGHT,
  });

  // Before paint on mount, then on every page scroll, window resize and size change of the grid or the page
  // (a card above expanding or collapsing moves the grid without a scroll event).
  useLayoutEffect(() => {
    const grid = gridRef.current;
    if (!grid) return;
    const readBand = () => {
      if (!isLaidOut(grid)) return; // inside a collapsed card: keep the last window
      const top = -grid.getBoundingClientRect().top;
      const bottom = top + window.innerHeight;
      setBand((prev) => (prev.top === top && prev.bottom === bottom ? prev : { top, bottom }));
    };
    const readLayout = () => {
      if (!isLaidOut(grid)) return;
      const style = getComputedStyle(grid);
      const next = {
        columns: columnCountOf(style.gridTemplateColumns),
        rowGap: Number.parseFloat(style.rowGap) || 0,
        width: grid.clientWidth,
      };
      setMetrics((prev) =>
        prev.columns === next.columns && prev.rowGap === next.rowGap && prev.width === next.width
          ? prev
          : next,
      );
      readBand();
    };
    // The browser scrolls a newly focused element into view right after its focus event, but the scroll event
    // comes a frame or more later; Tab pressed faster than that (key repeat, a loaded machine) would run past
    // the mounted rows and out of the grid. So on focus the band is read as it will be after that scroll, and
    // the rows around the focused card are mounted before the next key press.
    const onFocusIn = (event: FocusEvent) => {
      const target = event.target;
      if (!(target instanceof Element) || !isLaidOut(grid)) return;
      const item = target.closest<HTMLElement>('[data-index]');
      const index = Number(item?.dataset.index);
      const { firstIndex, endIndex } = windowRef.current;
      if (!(index >= firstIndex && index < endIndex)) return; // a card kept mounted out of the window
      const box = target.getBoundingClientRect();
      const shift = box.bottom > window.innerHeight ? box.bottom - window.innerHeight : Math.min(0, box.top);
      const top = -grid.getBoundingClientRect().top + shift;
      const bottom = top + window.innerHeight;
      setBand((prev) => (prev.top === top && prev.bottom === bottom ? prev : { top, bottom }));
    };
    readLayout();
    grid.addEventListener('focusin', onFocusIn);
    window.addEventListener('scroll', readBand, { passive: true });
    window.addEventListener('resize', readLayout);
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(readLayout);
    observer?.observe(grid);
    observer?.observe(document.body);
    return () => {
      grid.removeEventListener('focusin', onFocusIn);
      window.removeEventListener('scroll', readBand);
      window.removeEventListener('resize', readLayout);
      observer?.disconnect();
    };
  }, []);

  const sameLayout =
    measured.columns === metrics.columns &&
    measured.width === metrics.width &&
    measured.rowGap === metrics.rowGap;
  const known = sameLayout ? measured.heights : NO_HEIGHTS;
  const estimate = sameLayout ? measured.estimate : DEFAULT_ROW_HEIGHT;
  const rendered = gridWindow(
    {
      itemCount,
      columns: metrics.columns,
      rowGap: metrics.rowGap,
      measuredRowHeights: known,
      estimatedRowHeight: estimate,
    },
    band,
    // One screen above and below: fast scrolling never reaches an unrendered row.
    band.bottom - band.top,
  );

  const windowRef = useRef(rendered);
  windowRef.current = rendered;

  // After every render, before paint: measure each rendered row (its first cell, which the grid stretches to
  // the row height). Rows above the viewport that turned out taller or shorter than assumed are made up for by
  // scrolling, so the cards on screen do not jump; the new heights re-render the window with exact padding.
  useLayoutEffect(() => {
    const grid = gridRef.current;
    if (!grid || !isLaidOut(grid)) return;
    const rows: RowMeasurement[] = [];
    for (const child of grid.children) {
      const index = Number((child as HTMLElement).dataset.index);
      const inWindow = index >= rendered.firstIndex && index < rendered.endIndex;
      if (!inWindow || index % metrics.columns !== 0) continue;
      const box = child.getBoundingClientRect();
      if (box.height > 0) rows.push({ row: index / metrics.columns, top: box.top, height: box.height });
    }
    if (rows.length === 0) return;
    const assumed = (row: number) => known.get(row) ?? estimate;
    const changed = rows.filter(({ row, height }) => Math.abs(assumed(row) - height) > 0.5);
    if (sameLayout && changed.length === 0) return;
    if (sameLayout) {
      const shift = scrollCorrection(changed, assumed);
      if (shift !== 0) window.scrollBy({ top: shift, behavior: 'instant' });
    }
    const heights = new Map(known);
    for (const { row, height } of changed) heights.set(row, height);
    setMeasured({
      ...metrics,
      heights,
      estimate: sameLayout ? estimate : rows.reduce((sum, r) => sum + r.height, 0) / rows.length,
    });
  });

  return { gridRef, rendered };
}
