// Keyboard behaviour every modal dialog shares: focus moves into the panel (first [data-autofocus] element, else the
// first focusable one), Tab and Shift+Tab stay inside, Escape closes, and focus returns to where it was on close.
import { useEffect, useRef, type RefObject } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])';

export interface FocusTrapOptions {
  onEscape: () => void;
  /** Sees every other key first (e.g. Enter confirms). */
  onKeyDown?: (event: KeyboardEvent) => void;
  /** Stop the page behind from scrolling while the dialog is open. */
  lockScroll?: boolean;
}

export function useFocusTrap(panel: RefObject<HTMLElement | null>, options: FocusTrapOptions): void {
  // The latest callbacks, so a parent re-render never re-runs the trap (which would move focus back to the start).
  const latest = useRef(options);
  latest.current = options;
  const lockScroll = options.lockScroll ?? false;

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const first =
      panel.current?.querySelector<HTMLElement>('[data-autofocus]') ??
      panel.current?.querySelector<HTMLElement>(FOCUSABLE);
    first?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        latest.current.onEscape();
        return;
      }
      latest.current.onKeyDown?.(event);
      if (event.key !== 'Tab' || !panel.current) return;
      const items = [...panel.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
      const head = items[0];
      const tail = items[items.length - 1];
      if (!head || !tail) return;
      if (event.shiftKey && document.activeElement === head) {
        event.preventDefault();
        tail.focus();
      } else if (!event.shiftKey && document.activeElement === tail) {
        event.preventDefault();
        head.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    if (lockScroll) document.body.style.overflow = 'hidden';
    return () => {
      document.removeEventListener('keydown', onKey);
      if (lockScroll) document.body.style.overflow = '';
      previous?.focus();
    };
  }, [panel, lockScroll]);
}
