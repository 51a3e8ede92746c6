// Accessible dialog: labelled, traps focus, closes on Escape and backdrop, returns focus on close.
import { useId, useRef, type ReactNode } from 'react';
import { useFocusTrap } from './useFocusTrap.js';

export function Modal({
  title,
  onClose,
  children,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);

  useFocusTrap(panel, { onEscape: onClose, lockScroll: true });

  return (
    <div className="fixed inset-0 z-50 flex items-center justify-center p-4">
      <div className="absolute inset-0 bg-slate-900/60" aria-hidden="true" onClick={onClose} />
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        className="relative max-h-[90vh] w-full max-w-3xl overflow-y-auto rounded-2xl bg-white p-6 shadow-2xl dark:bg-slate-900"
      >
        <h2 id={titleId} className="text-xl font-semibold text-slate-900 dark:text-white">
          {title}
        </h2>
        {children}
      </div>
    </div>
  );
}
