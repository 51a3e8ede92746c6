// How the dashboard asks for its lists (GET /files/all with paging): what the user searched, sorted and
// filtered, and which page each section shows. Pure, so the query each choice sends is unit-tested.
import type { FilesQuery } from '../../../api/types.js';
import type { FileKind } from './model.js';

export const PAGE_SIZE = 48;

export const SORTS = {
  newest: { label: 'Newest first', sort: 'created', order: 'desc' },
  oldest: { label: 'Oldest first', sort: 'created', order: 'asc' },
  nameAsc: { label: 'Name (A to Z)', sort: 'name', order: 'asc' },
  nameDesc: { label: 'Name (Z to A)', sort: 'name', order: 'desc' },
  largest: { label: 'Largest first', sort: 'size', order: 'desc' },
  smallest: { label: 'Smallest first', sort: 'size', order: 'asc' },
  expiring: { label: 'Fewest days left', sort: 'days_left', order: 'asc' },
} as const;
export type SortKey = keyof typeof SORTS;

export const STATUSES = {
  all: 'All statuses',
  uploaded: 'Uploaded',
  processing: 'Processing',
  processed: 'Processed',
  error: 'Error',
} as const;
export type StatusKey = keyof typeof STATUSES;

export const FORMATS = { all: 'All types', pdf: 'PDF documents', image: 'Images' } as const;
export type FormatKey = keyof typeof FORMATS;

export interface ListView {
  q: string;
  sort: SortKey;
  status: StatusKey;
  format: FormatKey;
}

export const initialListView: ListView = { q: '', sort: 'newest', status: 'all', format: 'all' };

/** GET /files/all's query (generated schema), with a section, a page and an order always given. */
export type ListQuery = Required<Pick<FilesQuery, 'type' | 'limit' | 'offset' | 'sort' | 'order'>> &
  Pick<FilesQuery, 'q' | 'status' | 'format'>;

/** The query for one section's page (0-based). Empty choices are left out. */
export function listQuery(kind: FileKind, view: ListView, page: number): ListQuery {
  const { sort, order } = SORTS[view.sort];
  const query: ListQuery = { type: kind, limit: PAGE_SIZE, offset: page * PAGE_SIZE, sort, order };
  const q = view.q.trim();
  if (q) query.q = q.slice(0, 200);
  if (view.status !== 'all') query.status = view.status;
  if (view.format !== 'all') query.format = view.format;
  return query;
}

export const pageCount = (total: number): number => Math.max(1, Math.ceil(total / PAGE_SIZE));

/** "Showing 49–96 of 320 files" for a page of a section. */
export function showingText(page: number, shown: number, total: number): string {
  if (total === 0) return '';
  const first = page * PAGE_SIZE + 1;
  return `Showing ${first}–${first + shown - 1} of ${total} files`;
}

export const isFiltered = (view: ListView): boolean =>
  view.q.trim() !== '' || view.status !== 'all' || view.format !== 'all';
