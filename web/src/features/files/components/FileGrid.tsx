// The grid of file cards in Original Files and Restored Files (spec §2: 1 column, 2 at medium, 3 at large, 4 at
// extra-large widths). Windowed: only the rows near the viewport are mounted, so hundreds of files render and
// scroll smoothly; padding stands in for the other rows. Selection lives in the file state, not in the cards,
// so Select All covers cards that are not mounted.
import { useState } from 'react';
import type { FileItem, FileKind } from '../logic/model.js';
import { useWindowedGrid } from '../hooks/use-windowed-grid.js';
import { FileCard, type FileCardProps } from './FileCard.js';

export interface FileGridProps extends Omit<FileCardProps, 'file' | 'selected'> {
  kind: FileKind;
  title: string;
  files: FileItem[];
  selected: ReadonlySet<string>;
}

/** The indices to mount: the window, plus the focused card when it has scrolled out of it. */
export function mountedIndices(firstIndex: number, endIndex: number, focusedIndex: number): number[] {
  const indices: number[] = [];
  // Kept in list order, so the focused card's element never moves and keeps its focus.
  if (focusedIndex >= 0 && focusedIndex < firstIndex) indices.push(focusedIndex);
  for (let index = firstIndex; index < endIndex; index++) indices.push(index);
  if (focusedIndex >= endIndex) indices.push(focusedIndex);
  return indices;
}

export function FileGrid({ kind, title, files, selected, ...cardProps }: FileGridProps) {
  const { gridRef, rendered } = useWindowedGrid<HTMLUListElement>(files.length);
  // The card holding the keyboard focus stays mounted (visually hidden) when scrolled away, so the focus is
  // not lost to the page and Space still toggles that card.
  const [focusedId, setFocusedId] = useState<string | null>(null);
  const focusedIndex = focusedId === null ? -1 : files.findIndex((f) => f.id === focusedId);

  return (
    // The windowing keeps the cards on screen in place when rows above change height, so the browser's scroll
    // anchoring stays out of the grid (both would correct the same shift).
    <ul
      ref={gridRef}
      aria-label={title}
      className="grid grid-cols-1 gap-4 [overflow-anchor:none] md:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4"
      style={{ paddingTop: rendered.paddingTop, paddingBottom: rendered.paddingBottom }}
      data-testid={`${kind}-grid`}
      onFocus={(event) => {
        const card = (event.target as Element).closest('[data-index]');
        const file = card ? files[Number(card.getAttribute('data-index'))] : undefined;
        if (file) setFocusedId(file.id);
      }}
      onBlur={(event) => {
        // Moving the focus out of the grid releases the card; switching to another window keeps it.
        const next = event.relatedTarget;
        const toOtherWindow = next === null && !document.hasFocus();
        if (!toOtherWindow && !event.currentTarget.contains(next)) setFocusedId(null);
      }}
    >
      {mountedIndices(rendered.firstIndex, rendered.endIndex, focusedIndex).map((index) => {
        const file = files[index];
        if (!file) return null;
        const outsideWindow = index < rendered.firstIndex || index >= rendered.endIndex;
        return (
          <li
            key={file.id}
            data-index={index}
            // Screen readers announce "card N of M" although only some cards are in the page.
            aria-posinset={index + 1}
            aria-setsize={files.length}
            className={outsideWindow ? 'sr-only' : undefined}
          >
            <FileCard file={file} selected={selected.has(file.id)} {...cardProps} />
          </li>
        );
      })}
    </ul>
  );
}
