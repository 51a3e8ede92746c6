// pdf.js's password prompt (its own texts: "Enter the password to open this PDF file.", "Invalid password. Please try
// again."), shown over the viewer. Escape or Cancel gives up; the viewer then says it failed to load the file.
import { useId, useState, type KeyboardEvent } from 'react';
import { focusRing, primaryButton, secondaryButton } from '../../components/ui/styles.js';

export function PasswordPrompt({
  message,
  onAnswer,
}: {
  message: string;
  onAnswer: (password: string | null) => void;
}) {
  const [value, setValue] = useState('');
  const labelId = useId();
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    // Handled here: the viewer's dialog would otherwise close as well.
    event.stopPropagation();
    onAnswer(null);
  };
  return (
    <div className="absolute inset-0 z-10 flex items-center justify-center bg-slate-900/50 p-4">
      <form
        role="dialog"
        aria-modal="true"
        aria-labelledby={labelId}
        onKeyDown={onKeyDown}
        onSubmit={(e) => {
          e.preventDefault();
          onAnswer(value);
        }}
        className="w-full max-w-sm space-y-3 rounded-xl bg-white p-5 shadow-xl dark:bg-slate-900"
      >
        <label
          id={labelId}
          htmlFor={`${labelId}-input`}
          className="block text-sm text-slate-800 dark:text-slate-100"
        >
          {message}
        </label>
        <input
          id={`${labelId}-input`}
          type="password"
          autoFocus
          autoComplete="off"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          className={`h-9 w-full rounded-md border border-slate-300 px-2 dark:border-slate-600 dark:bg-slate-800 ${focusRing}`}
        />
        <div className="flex justify-end gap-2">
          <button type="button" className={secondaryButton} onClick={() => onAnswer(null)}>
            Cancel
          </button>
          <button type="submit" className={primaryButton}>
            OK
          </button>
        </div>
      </form>
    </div>
  );
}
