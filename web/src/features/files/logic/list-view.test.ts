import { initialListView, isFiltered, listQuery, pageCount, PAGE_SIZE, showingText } from './list-view.js';

describe('listQuery', () => {
  it('asks for the newest page of a section with nothing else by default', () => {
    expect(listQuery('original', initialListView, 0)).toEqual({
      type: 'original',
      limit: PAGE_SIZE,
      offset: 0,
      sort: 'created',
      order: 'desc',
    });
  });
  it('sends the trimmed search, the filters, the sort and the page offset', () => {
    const view = { q: '  invoice ', sort: 'nameAsc', status: 'error', format: 'pdf' } as const;
    expect(listQuery('restored', view, 2)).toEqual({
      type: 'restored',
      limit: PAGE_SIZE,
      offset: 2 * PAGE_SIZE,
      sort: 'name',
      order: 'asc',
      q: 'invoice',
      status: 'error',
      format: 'pdf',
    });
    expect(isFiltered(view)).toBe(true);
    expect(isFiltered({ ...initialListView, q: '   ' })).toBe(false);
  });
});

describe('paging texts', () => {
  it('counts pages and says which files are shown', () => {
    expect(pageCount(0)).toBe(1);
    expect(pageCount(PAGE_SIZE)).toBe(1);
    expect(pageCount(320)).toBe(Math.ceil(320 / PAGE_SIZE));
    expect(showingText(1, PAGE_SIZE, 320)).toBe(`Showing ${PAGE_SIZE + 1}–${2 * PAGE_SIZE} of 320 files`);
    expect(showingText(0, 0, 0)).toBe('');
  });
});
