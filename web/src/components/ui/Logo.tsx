export function Logo({ name, compact = false }: { name: string; compact?: boolean }) {
  return (
    <span className="inline-flex items-center gap-2 font-semibold text-slate-900 dark:text-white">
      <svg aria-hidden="true" viewBox="0 0 32 32" className="size-8">
        <rect width="32" height="32" rx="8" className="fill-indigo-600" />
        <path
          d="M10 8h9l5 5v11a2 2 0 0 1-2 2H10a2 2 0 0 1-2-2V10a2 2 0 0 1 2-2z"
          fill="white"
          opacity=".95"
        />
        <path d="M12 17l3 3 6-6" stroke="#4f46e5" strokeWidth="2.5" fill="none" strokeLinecap="round" />
      </svg>
      <span className={`whitespace-nowrap ${compact ? 'hidden sm:inline' : ''}`}>{name}</span>
    </span>
  );
}
