// Confirmation dialog (spec §2): Enter confirms, Cancel/Escape/backdrop close, quoted names are highlighted.
import { useId, type ReactNode } from 'react';
import { primaryButton, secondaryButton } from '../../../components/ui/styles.js';
import { TEXTS } from '../logic/texts.js';
import { Dialog } from '../../../components/ui/Dialog.js';

export interface ConfirmDialogProps {
  title: string;
  message: string;
  confirmLabel?: string;
  variant?: 'default' | 'danger';
  onConfirm: () => void;
  onCancel: () => void;
  /** A third choice (e.g. restore without the files already restored). */
  alternativeLabel?: string | undefined;
  onAlternative?: () => void;
}

/** Splits a message so each "quoted name" is rendered highlighted. */
export function highlightQuoted(message: string): ReactNode[] {
  return message.split(/("[^"]+")/g).map((part, i) =>
    part.startsWith('"') && part.endsWith('"') && part.length > 1 ? (
      <strong key={i} className="font-semibold text-indigo-700 dark:text-indigo-300">
        {part}
      </strong>
    ) : (
      part
    ),
  );
}

export function ConfirmDialog({
  title,
  message,
  confirmLabel,
  variant = 'default',
  onConfirm,
  onCancel,
  alternativeLabel,
  onAlternative,
}: ConfirmDialogProps) {
  const messageId = useId();
  const danger = variant === 'danger';
  const label = confirmLabel ?? (danger ? TEXTS.dialog.delete : TEXTS.dialog.confirm);
  return (
    <Dialog
      title={title}
      onClose={onCancel}
      describedBy={messageId}
      onKeyDown={(event) => {
        // Enter confirms unless the focus is on another button (Enter activates that one).
        if (event.key !== 'Enter') return;
        const target = event.target as HTMLElement | null;
        if (target?.tagName === 'BUTTON' && target.dataset.confirm === undefined) return;
        event.preventDefault();
        onConfirm();
      }}
    >
      <p id={messageId} className="mt-3 text-sm text-slate-600 dark:text-slate-300">
        {highlightQuoted(message)}
      </p>
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <button type="button" className={secondaryButton} onClick={onCancel}>
          {TEXTS.dialog.cancel}
        </button>
        {alternativeLabel && onAlternative ? (
          <button type="button" className={secondaryButton} onClick={onAlternative}>
            {alternativeLabel}
          </button>
        ) : null}
        <button
          type="button"
          data-autofocus
          data-confirm
          className={danger ? primaryButton.replace(/indigo/g, 'red') : primaryButton}
          onClick={onConfirm}
        >
          {label}
        </button>
      </div>
    </Dialog>
  );
}
