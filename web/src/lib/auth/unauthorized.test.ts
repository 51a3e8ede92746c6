import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../storage.js';
import { handleUnauthorized, resetUnauthorizedGuardForTests, setRedirect } from './unauthorized.js';

describe('handleUnauthorized', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    resetUnauthorizedGuardForTests();
  });
  afterEach(() => vi.useRealTimers());

  it('tells the user the session expired, not the raw server detail', () => {
    setRedirect(vi.fn());
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(handleUnauthorized('Invalid token', 5_000_000)).toBe(true);
    expect(window.sessionStorage.getItem(STORAGE_KEYS.sessionNotice)).toBe(
      'Session expired. Please sign in again.',
    );
  });

  it('ignores repeats for 1 s, then handles again', () => {
    const redirect = vi.fn();
    setRedirect(redirect);
    const t0 = 1_000_000;
    expect(handleUnauthorized(undefined, t0)).toBe(true);
    expect(window.sessionStorage.getItem(STORAGE_KEYS.sessionNotice)).toBe(
      'Session expired. Please sign in again.',
    );
    expect(handleUnauthorized('again', t0 + 999)).toBe(false);
    expect(window.sessionStorage.getItem(STORAGE_KEYS.sessionNotice)).toBe(
      'Session expired. Please sign in again.',
    );
    expect(handleUnauthorized('later', t0 + 1000)).toBe(true);
    vi.advanceTimersByTime(100);
    expect(redirect).toHaveBeenCalledTimes(2);
  });
});
