// Search, sort and filters above the file sections. The search is sent after a short pause in typing, so every
// key press does not ask the server for a new page.
import { useEffect, useId, useState } from 'react';
import { focusRing } from '../../../components/ui/styles.js';
import {
  FORMATS,
  SORTS,
  STATUSES,
  type FormatKey,
  type ListView,
  type SortKey,
  type StatusKey,
} from '../logic/list-view.js';

const SEARCH_DELAY_MS = 250;
const control = `h-10 rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-white ${focusRing}`;
const labelClass = 'text-xs font-medium text-slate-600 dark:text-slate-300';

export function FileFinder({ view, onChange }: { view: ListView; onChange: (view: ListView) => void }) {
  const id = useId();
  const [text, setText] = useState(view.q);
  useEffect(() => {
    if (text === view.q) return;
    const timer = setTimeout(() => onChange({ ...view, q: text }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, view, onChange]);

  return (
    <form
      role="search"
      aria-label="Find files"
      onSubmit={(e) => {
        e.preventDefault();
        onChange({ ...view, q: text });
      }}
      className="flex flex-wrap items-end gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex min-w-56 flex-1 flex-col gap-1">
        <label htmlFor={`${id}-q`} className={labelClass}>
          Search by name
        </label>
        <input
          id={`${id}-q`}
          type="search"
          value={text}
          maxLength={200}
          placeholder="e.g. invoice"
          onChange={(e) => setText(e.target.value)}
          className={control}
        />
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-sort`} className={labelClass}>
          Sort
        </label>
        <select
          id={`${id}-sort`}
          value={view.sort}
          onChange={(e) => onChange({ ...view, q: text, sort: e.target.value as SortKey })}
          className={control}
        >
          {Object.entries(SORTS).map(([key, option]) => (
            <option key={key} value={key}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-status`} className={labelClass}>
          Status
        </label>
        <select
          id={`${id}-status`}
          value={view.status}
          onChange={(e) => onChange({ ...view, q: text, status: e.target.value as StatusKey })}
          className={control}
        >
          {Object.entries(STATUSES).map(([key, label]) => (
            <option key={key} value={key}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-format`} className={labelClass}>
          Type
        </label>
        <select
          id={`${id}-format`}
          value={view.format}
          onChange={(e) => onChange({ ...view, q: text, format: e.target.value as FormatKey })}
          className={control}
        >
          {Object.entries(FORMATS).map(([key, label]) => (
            <option key={key} value={key}>
              {label}
            </option>
          ))}
        </select>
      </div>
    </form>
  );
}
