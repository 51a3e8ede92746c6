import type { ReactNode } from 'react';
import type { Tone } from '../logic/format.js';

const TONES: Record<Tone | 'indigo', string> = {
  green: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-900/50 dark:text-emerald-200',
  amber: 'bg-amber-100 text-amber-800 dark:bg-amber-900/50 dark:text-amber-200',
  red: 'bg-red-100 text-red-800 dark:bg-red-900/50 dark:text-red-200',
  blue: 'bg-sky-100 text-sky-900 dark:bg-sky-900/50 dark:text-sky-100',
  neutral: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200',
  indigo: 'bg-indigo-100 text-indigo-800 dark:bg-indigo-900/50 dark:text-indigo-200',
};

export function Badge({
  tone,
  children,
  label,
}: {
  tone: Tone | 'indigo';
  children: ReactNode;
  label?: string;
}) {
  return (
    <span
      aria-label={label}
      data-tone={tone}
      className={`inline-flex items-center whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ${TONES[tone]}`}
    >
      {children}
    </span>
  );
}
