import { focusRing } from '../../components/ui/styles.js';
import { useStore } from '../../lib/store.js';
import { themeStore, toggleTheme } from '../../lib/theme.js';

export function ThemeToggle({ withLabel = false }: { withLabel?: boolean }) {
  const theme = useStore(themeStore, (t) => t);
  const next = theme === 'dark' ? 'light' : 'dark';
  return (
    <button
      type="button"
      onClick={toggleTheme}
      // With a visible label, the label is the name (WCAG 2.5.3: what is read is what is shown).
      aria-label={withLabel ? undefined : `Switch to ${next} theme`}
      aria-pressed={theme === 'dark'}
      className={`inline-flex items-center gap-2 rounded-lg p-2 text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800 ${focusRing}`}
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        className="size-5"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
      >
        {theme === 'dark' ? (
          <path d="M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8z" />
        ) : (
          <>
            <circle cx="12" cy="12" r="4" />
            <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
          </>
        )}
      </svg>
      {withLabel ? <span className="text-sm font-medium">{`Switch to ${next} theme`}</span> : null}
    </button>
  );
}
