import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { dto } from '../logic/fixtures.test-util.js';
import { fromDto, type FileItem } from '../logic/model.js';
import { mountedIndices } from './FileGrid.js';
import { FileListCard } from './FileListCard.js';

// jsdom does no layout. These stand in for the browser's: the grid resolves to 2 columns with 16 px gaps,
// every cell is 400 px tall (a row every 416 px), and the grid's top edge is `gridTop` px from the viewport top.
const ROW = 416;
let gridTop = 0;

function rect(top: number, height: number): DOMRect {
  return { top, bottom: top + height, height, left: 0, right: 600, width: 600, x: 0, y: top } as DOMRect;
}

beforeEach(() => {
  gridTop = 0;
  const realStyle = window.getComputedStyle.bind(window);
  vi.spyOn(window, 'getComputedStyle').mockImplementation((element, pseudo) =>
    element.matches('[data-testid$="-grid"]')
      ? ({ gridTemplateColumns: '600px 600px', rowGap: '16px' } as CSSStyleDeclaration)
      : realStyle(element, pseudo),
  );
  vi.spyOn(Element.prototype, 'getClientRects').mockReturnValue([rect(0, 1)] as unknown as DOMRectList);
  vi.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(function (this: Element) {
    if (this.matches('[data-testid$="-grid"]')) return rect(gridTop, 100 * ROW);
    if (this.matches('[data-testid$="-grid"] > li')) return rect(0, 400);
    return rect(0, 0);
  });
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** Scrolls the page so the grid's top edge is `top` px above the viewport. */
function scrollGridTo(top: number) {
  gridTop = -top;
  act(() => {
    window.dispatchEvent(new Event('scroll'));
  });
}

const files: FileItem[] = Array.from({ length: 200 }, (_, i) =>
  fromDto(dto({ id: `f${i}`, filename: `scan-${i}.png`, status: 'processed' })),
);

function Harness() {
  const [selected, setSelected] = useState<string[]>([]);
  return (
    <>
      <FileListCard
        kind="original"
        title="Original Files"
        files={files}
        selectedIds={selected}
        listStatus="success"
        listError={null}
        expanded
        onExpandedChange={() => undefined}
        onToggle={(_k, id) => setSelected((s) => (s.includes(id) ? s.filter((x) => x !== id) : [...s, id]))}
        onSelectAll={() => setSelected(files.map((f) => f.id))}
        onClear={() => setSelected([])}
        onDownload={() => undefined}
        onDelete={() => undefined}
        onDownloadSelected={() => undefined}
        onDeleteSelected={() => undefined}
      />
      <button type="button">Outside</button>
    </>
  );
}

const mountedNames = () =>
  screen
    .getAllByRole('listitem')
    .filter((li) => !li.classList.contains('sr-only'))
    .map((li) => within(li).getByTestId('file-card').getAttribute('data-file-id'));
const grid = () => screen.getByTestId('original-grid');

describe('FileGrid windowing', () => {
  it('mounts only the rows within a screen of the viewport and pads for the others', () => {
    render(<Harness />);
    // jsdom's window is 768 px tall: rows starting before 768 + 768 px, rows 0-3, are mounted.
    expect(mountedNames()).toEqual(['f0', 'f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7']);
    expect(grid().style.paddingTop).toBe('0px');
    expect(grid().style.paddingBottom).toBe(`${100 * ROW - 16 - 4 * ROW + 16}px`);
    expect(screen.getByText('200 files')).toBeInTheDocument();
  });

  it('follows the page scroll', () => {
    render(<Harness />);
    scrollGridTo(40 * ROW);
    // Visible rows 40-41; one screen (768 px) above and below reaches rows 38 to 43.
    expect(mountedNames()).toEqual(Array.from({ length: 12 }, (_, i) => `f${76 + i}`));
    expect(grid().style.paddingTop).toBe(`${38 * ROW}px`);
    scrollGridTo(0);
    expect(mountedNames()[0]).toBe('f0');
  });

  it('tells screen readers each card’s position in the whole list', () => {
    render(<Harness />);
    scrollGridTo(40 * ROW);
    const first = screen.getAllByRole('listitem')[0] as HTMLElement;
    expect(first).toHaveAttribute('aria-posinset', '77');
    expect(first).toHaveAttribute('aria-setsize', '200');
  });

  it('Select All selects the cards that are not mounted', async () => {
    render(<Harness />);
    await userEvent.click(screen.getByRole('button', { name: 'Select All' }));
    expect(screen.getByRole('button', { name: 'Deselect All' })).toBeInTheDocument();
    scrollGridTo(99 * ROW);
    expect(screen.getByRole('checkbox', { name: 'Select scan-199.png' })).toBeChecked();
    expect(screen.queryByRole('checkbox', { name: 'Select scan-0.png' })).toBeNull();
  });

  it('keeps the focused card mounted, hidden, when it scrolls away; Space still toggles it', async () => {
    render(<Harness />);
    const box = screen.getByRole('checkbox', { name: 'Select scan-1.png' });
    act(() => box.focus());
    scrollGridTo(60 * ROW);
    expect(box).toBeInTheDocument();
    expect(box).toHaveFocus();
    expect(box.closest('li')).toHaveClass('sr-only');
    // The hidden card keeps its place in the list order: before the window.
    expect(box.closest('li')).toBe(screen.getAllByRole('listitem')[0]);
    expect(mountedNames()[0]).toBe('f116');
    await userEvent.keyboard(' ');
    expect(box).toBeChecked();
    expect(screen.getByRole('button', { name: 'Select All (1 of 200 selected)' })).toBeInTheDocument();

    // Once the focus leaves the grid, the card goes like any other off-screen card.
    await userEvent.click(screen.getByRole('button', { name: 'Outside' }));
    expect(screen.queryByRole('checkbox', { name: 'Select scan-1.png' })).toBeNull();
  });
});

describe('mountedIndices', () => {
  it('is the window when nothing is focused or the focused card is in it', () => {
    expect(mountedIndices(8, 12, -1)).toEqual([8, 9, 10, 11]);
    expect(mountedIndices(8, 12, 10)).toEqual([8, 9, 10, 11]);
  });
  it('adds a focused card outside the window in list order', () => {
    expect(mountedIndices(8, 12, 2)).toEqual([2, 8, 9, 10, 11]);
    expect(mountedIndices(8, 12, 30)).toEqual([8, 9, 10, 11, 30]);
  });
});
