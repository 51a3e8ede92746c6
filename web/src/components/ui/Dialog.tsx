// A small accessible dialog for this feature: labelled, focus kept inside, Escape and backdrop close it, focus
// returns to where it was. Sizes suit confirmations and the comparison view.
import { useId, useRef, type ReactNode } from 'react';
import { useFocusTrap } from './useFocusTrap.js';

export interface DialogProps {
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
  size?: 'sm' | 'md' | 'lg';
  describedBy?: string;
  onKeyDown?: (event: KeyboardEvent) => void;
  /** Spotlight: no dimming (a highlighted page section does it) and the panel sits at the bottom. */
  spotlight?: boolean;
}

const SIZES = { sm: 'max-w-md', md: 'max-w-xl', lg: 'max-w-4xl' } as const;

export function Dialog({
  title,
  onClose,
  children,
  size = 'sm',
  describedBy,
  onKeyDown,
  spotlight,
}: DialogProps) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  // The page behind a dialog does not scroll; the onboarding spotlight leaves it free (it points at the page).
  useFocusTrap(panel, { onEscape: onClose, onKeyDown, lockScroll: !spotlight });

  return (
    <div
      className={`fixed inset-0 flex justify-center p-4 ${spotlight ? 'z-[60] items-end' : 'z-50 items-center'}`}
    >
      <div
        className={`absolute inset-0 ${spotlight ? '' : 'bg-slate-900/60'}`}
        aria-hidden="true"
        data-testid="dialog-backdrop"
        onClick={onClose}
      />
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={describedBy}
        className={`relative max-h-[90vh] w-full ${SIZES[size]} overflow-y-auto rounded-2xl bg-white p-6 shadow-2xl dark:bg-slate-900`}
      >
        <h2 id={titleId} className="text-lg font-semibold text-slate-900 dark:text-white">
          {title}
        </h2>
        {children}
      </div>
    </div>
  );
}
