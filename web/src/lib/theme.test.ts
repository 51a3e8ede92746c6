import { afterEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from './storage.js';
import { initialTheme, startTheme, themeStore, toggleTheme } from './theme.js';

type Listener = (event: MediaQueryListEvent) => void;

function fakeSystem(dark: boolean) {
  const listeners = new Set<Listener>();
  const media = {
    matches: dark,
    addEventListener: (_: string, l: Listener) => listeners.add(l),
    removeEventListener: (_: string, l: Listener) => listeners.delete(l),
  };
  vi.stubGlobal('matchMedia', () => media);
  return {
    change(next: boolean) {
      media.matches = next;
      listeners.forEach((l) => l({ matches: next } as MediaQueryListEvent));
    },
  };
}

describe('theme', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    document.documentElement.classList.remove('dark');
  });

  it('defaults to light, and follows the system preference without a stored choice', () => {
    fakeSystem(false);
    expect(initialTheme()).toBe('light');
    const system = fakeSystem(true);
    const stop = startTheme();
    expect(themeStore.getState()).toBe('dark');
    expect(document.documentElement).toHaveClass('dark');
    system.change(false);
    expect(themeStore.getState()).toBe('light');
    expect(window.localStorage.getItem(STORAGE_KEYS.theme)).toBeNull();
    stop();
  });

  it('a stored choice wins over the system and survives a restart', () => {
    const system = fakeSystem(false);
    let stop = startTheme();
    toggleTheme();
    expect(window.localStorage.getItem(STORAGE_KEYS.theme)).toBe('dark');
    system.change(false);
    expect(themeStore.getState()).toBe('dark');
    stop();
    themeStore.setState('light');
    stop = startTheme();
    expect(themeStore.getState()).toBe('dark');
    expect(document.documentElement).toHaveClass('dark');
    stop();
  });
});
