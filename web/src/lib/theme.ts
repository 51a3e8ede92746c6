// Theme (spec §2): light or dark, stored under "theme". Without a stored choice it follows the system
// preference and its live changes; default light.
import { createStore } from './store.js';
import { STORAGE_KEYS, local } from './storage.js';

export type Theme = 'light' | 'dark';

const DARK_QUERY = '(prefers-color-scheme: dark)';

function storedTheme(): Theme | null {
  const value = local.get(STORAGE_KEYS.theme);
  return value === 'light' || value === 'dark' ? value : null;
}

function systemTheme(): Theme {
  return typeof window.matchMedia === 'function' && window.matchMedia(DARK_QUERY).matches ? 'dark' : 'light';
}

export function initialTheme(): Theme {
  return storedTheme() ?? systemTheme();
}

export const themeStore = createStore<Theme>('light');

function apply(theme: Theme): void {
  document.documentElement.classList.toggle('dark', theme === 'dark');
  document.documentElement.style.colorScheme = theme;
}

export function setTheme(theme: Theme, persist = true): void {
  if (persist) local.set(STORAGE_KEYS.theme, theme);
  apply(theme);
  themeStore.setState(theme);
}

export function toggleTheme(): void {
  setTheme(themeStore.getState() === 'dark' ? 'light' : 'dark');
}

/** Applies the initial theme and follows the system while the user has not chosen. */
export function startTheme(): () => void {
  setTheme(initialTheme(), false);
  if (typeof window.matchMedia !== 'function') return () => undefined;
  const media = window.matchMedia(DARK_QUERY);
  const onChange = (event: MediaQueryListEvent) => {
    if (!storedTheme()) setTheme(event.matches ? 'dark' : 'light', false);
  };
  media.addEventListener('change', onChange);
  return () => media.removeEventListener('change', onChange);
}
