// Spec §8, 401: clear the stored session, fire auth:logout, keep a notice for the landing page, go to "/"
// after 100 ms; repeats within 1 s are ignored (parallel requests all fail at once).
import { SESSION_REDIRECT_DELAY_MS, UNAUTHORIZED_REPEAT_GUARD_MS } from '@folio/shared';
import { TEXT } from '../../config/texts.js';
import { STORAGE_KEYS, local, session } from '../storage.js';
import { WINDOW_EVENTS, emit } from '../window-events.js';

let lastHandledAt = Number.NEGATIVE_INFINITY;
let redirect: (path: string) => void = (path) => window.location.assign(path);

export function setRedirect(fn: (path: string) => void): void {
  redirect = fn;
}

export function redirectTo(path: string): void {
  redirect(path);
}

export function clearStoredSession(): void {
  local.remove(STORAGE_KEYS.token);
  local.remove(STORAGE_KEYS.user);
}

/**
 * Returns false when the call was a repeat inside the guard window. The user reads "Session expired. Please
 * sign in again." whatever the server said (a raw "Invalid token" tells them nothing); its detail is logged.
 */
export function handleUnauthorized(message?: string, now: number = Date.now()): boolean {
  if (now - lastHandledAt < UNAUTHORIZED_REPEAT_GUARD_MS) return false;
  lastHandledAt = now;
  if (message) console.warn('Signed out after 401:', message);
  clearStoredSession();
  emit(WINDOW_EVENTS.authLogout);
  session.set(STORAGE_KEYS.sessionNotice, TEXT.sessionExpired);
  setTimeout(() => redirect('/'), SESSION_REDIRECT_DELAY_MS);
  return true;
}

export function resetUnauthorizedGuardForTests(): void {
  lastHandledAt = Number.NEGATIVE_INFINITY;
}
