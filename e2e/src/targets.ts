// Touch targets (WCAG 2.2, 2.5.8 Target Size (Minimum)): every control a pointer can hit on the page is at least
// 24 × 24 CSS px, measured from its bounding box in the browser. A link inside a sentence is exempt (the
// criterion's inline exception); so are controls that are not rendered or visually hidden (clipped away, as a
// skip link until it is focused; a file input whose drop zone is the target), and, while a modal dialog is open,
// everything outside it (the backdrop covers it).
import type { Page } from 'playwright-core';

export const MIN_TARGET_PX = 24;

export interface SmallTarget {
  /** Tag, accessible name or text, and test id when there is one. */
  control: string;
  width: number;
  height: number;
}

const CONTROLS = [
  'a[href]',
  'button',
  'input:not([type="hidden"])',
  'select',
  'textarea',
  'summary',
  '[role="button"]',
  '[role="link"]',
  '[role="tab"]',
  '[role="checkbox"]',
  '[role="switch"]',
  '[role="slider"]',
  '[role="menuitem"]',
].join(',');

/** The visible controls smaller than 24 × 24 px on the page as it is now. */
export async function smallTargets(page: Page): Promise<SmallTarget[]> {
  return page.evaluate(
    ({ selector, min }) => {
      const inSentence = (el: Element): boolean => {
        if (el.tagName !== 'A') return false;
        const block = el.parentElement?.closest('p, li, dd, td, label');
        if (!block) return false;
        const own = el.textContent?.trim() ?? '';
        return (block.textContent?.trim().length ?? 0) > own.length + 1;
      };
      const visible = (el: Element): boolean =>
        el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });
      const modals = [...document.querySelectorAll('[aria-modal="true"]')].filter(visible);
      // The innermost open modal is the one in front.
      const front = modals.find((modal) => !modals.some((other) => other !== modal && modal.contains(other)));
      const found: { control: string; width: number; height: number }[] = [];
      for (const el of (front ?? document).querySelectorAll(selector)) {
        if (!visible(el) || el.closest('[aria-hidden="true"], [inert]')) continue;
        const box = el.getBoundingClientRect();
        if (box.width <= 2 || box.height <= 2) continue; // visually hidden
        const style = getComputedStyle(el);
        if (/^rect\(0px,? 0px,? 0px,? 0px\)$/.test(style.clip) || style.clipPath === 'inset(50%)') continue; // sr-only
        if (inSentence(el)) continue;
        if (box.width >= min - 0.5 && box.height >= min - 0.5) continue;
        const name =
          el.getAttribute('aria-label') ??
          (el as HTMLInputElement).labels?.[0]?.textContent ??
          el.textContent ??
          '';
        const testId = el.getAttribute('data-testid');
        found.push({
          control: `${el.tagName.toLowerCase()} "${name.trim().slice(0, 60)}"${testId ? ` [${testId}]` : ''}`,
          width: Math.round(box.width * 10) / 10,
          height: Math.round(box.height * 10) / 10,
        });
      }
      return found;
    },
    { selector: CONTROLS, min: MIN_TARGET_PX },
  );
}
