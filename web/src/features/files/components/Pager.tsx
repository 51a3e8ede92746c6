// Previous / next pages of one file section, with where the user is ("Page 2 of 7").
import { secondaryButton } from '../../../components/ui/styles.js';
import { pageCount, showingText } from '../logic/list-view.js';

export interface PagerProps {
  label: string;
  page: number;
  shown: number;
  total: number;
  onPage: (page: number) => void;
}

export function Pager({ label, page, shown, total, onPage }: PagerProps) {
  const pages = pageCount(total);
  if (total === 0) return null;
  return (
    <nav aria-label={`${label} pages`} className="mt-4 flex flex-wrap items-center justify-between gap-3">
      <p className="text-sm text-slate-600 dark:text-slate-300">{showingText(page, shown, total)}</p>
      {pages > 1 ? (
        <div className="flex items-center gap-2">
          <button
            type="button"
            className={secondaryButton}
            disabled={page === 0}
            onClick={() => onPage(page - 1)}
          >
            Previous
          </button>
          <span className="text-sm text-slate-700 dark:text-slate-200" aria-current="page">
            Page {page + 1} of {pages}
          </span>
          <button
            type="button"
            className={secondaryButton}
            disabled={page >= pages - 1}
            onClick={() => onPage(page + 1)}
          >
            Next
          </button>
        </div>
      ) : null}
    </nav>
  );
}
