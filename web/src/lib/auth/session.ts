// The session lifecycle of spec §4: sign-in, restore on load, silent re-auth, refresh on focus, logout.
import { ACTIVITY_WINDOW_MS, REFRESH_DEBOUNCE_MS } from '@folio/shared';
import { getApi, unwrap } from '../../api/client.js';
import { ApiError } from '../../api/errors.js';
import type { Answer, User } from '../../api/types.js';
import { getConfig } from '../../config/runtime.js';
import { TEXT, loginErrorText } from '../../config/texts.js';
import { decodeJwt, isExpiring } from '../jwt.js';
import { queryClient, queryKeys, type MeData } from '../query-client.js';
import { STORAGE_KEYS, local, session } from '../storage.js';
import { WINDOW_EVENTS } from '../window-events.js';
import { authStore, signedOut } from './auth-store.js';
import { extractUserFromCredential } from './credential.js';
import { silentReauth, type GoogleCredentialResponse } from './google-identity.js';
import { clearStoredSession, redirectTo } from './unauthorized.js';

/** What every sign-in call answers (Google, dev login): the session token, the user and their credits. */
type AuthAnswer = Answer<'googleLogin'>;

function readStoredUser(): User | null {
  const raw = local.get(STORAGE_KEYS.user);
  if (!raw) return null;
  try {
    const user = JSON.parse(raw) as Partial<User> | null;
    return user && typeof user.id === 'string' && typeof user.email === 'string' ? (user as User) : null;
  } catch {
    return null;
  }
}

/** Restore on load: missing or undecodable data is cleared; a token with ≤ 60 s left is cleared too. */
export function restoreSession(now: number = Date.now()): boolean {
  try {
    const token = local.get(STORAGE_KEYS.token);
    const user = readStoredUser();
    const payload = token ? decodeJwt(token) : null;
    if (!token || !user || !payload || isExpiring(payload, now)) {
      clearStoredSession();
      authStore.setState(signedOut);
      return false;
    }
    authStore.setState({ user, token, isAuthenticated: true, isLoading: false, error: null });
    return true;
  } catch (error) {
    console.error(TEXT.failedToRestoreAuth, error);
    clearStoredSession();
    authStore.setState({ ...signedOut, error: TEXT.failedToRestoreAuth });
    return false;
  }
}

export async function fetchProfile(): Promise<MeData | null> {
  try {
    const me = await unwrap(getApi().GET('/users/me'));
    queryClient.setQueryData(queryKeys.me, me);
    return me;
  } catch (error) {
    console.error(TEXT.failedToFetchProfile, error);
    return null;
  }
}

/** The initial auth check at start: restore, then confirm the session and load the balance. */
export async function initAuth(): Promise<void> {
  if (restoreSession()) await fetchProfile();
}

async function register(): Promise<void> {
  try {
    const me = await unwrap(getApi().POST('/users/register'));
    queryClient.setQueryData(queryKeys.me, me);
  } catch (error) {
    console.error('Login error', error);
  }
}

function storeSession(answer: AuthAnswer): void {
  local.set(STORAGE_KEYS.token, answer.token);
  local.set(STORAGE_KEYS.user, JSON.stringify(answer.user));
  recordActivity();
  queryClient.setQueryData<MeData>(queryKeys.me, {
    ...answer.user,
    credits_remaining: answer.credits_remaining,
  });
  authStore.setState({
    user: answer.user,
    token: answer.token,
    isAuthenticated: true,
    isLoading: false,
    error: null,
  });
}

function fail(message: string): false {
  authStore.setState({ ...signedOut, error: message });
  return false;
}

async function signIn(call: () => Promise<AuthAnswer>): Promise<boolean> {
  authStore.setState((state) => ({ ...state, isLoading: true, error: null }));
  try {
    storeSession(await call());
    await register();
    return true;
  } catch (error) {
    console.error('Login error', error);
    if (error instanceof ApiError) return fail(loginErrorText(error.message || TEXT.loginFailed));
    return fail(TEXT.unexpectedError);
  }
}

function googleAnswer(response: GoogleCredentialResponse, credential: string): Promise<AuthAnswer> {
  return unwrap(
    getApi().POST('/auth/google', {
      body: {
        credential,
        select_by: response.select_by ?? 'btn',
        client_id: response.client_id ?? response.clientId ?? getConfig().googleClientId,
      },
    }),
  );
}

export async function loginWithGoogle(response: GoogleCredentialResponse | undefined): Promise<boolean> {
  const credential = response?.credential;
  if (!response || !credential) return fail(TEXT.noCredential);
  if (!extractUserFromCredential(credential)) return fail(TEXT.extractFailed);
  return signIn(() => googleAnswer(response, credential));
}

export function loginWithDevAccount(email: string, name: string): Promise<boolean> {
  return signIn(() => unwrap(getApi().POST('/auth/dev-login', { body: { email, name } })));
}

export function logout(): void {
  clearStoredSession();
  queryClient.clear();
  window.google?.accounts?.id?.disableAutoSelect?.();
  authStore.setState(signedOut);
}

/** Ends the session with the expiry notice and sends the user to "/". */
export function expireSession(): void {
  logout();
  session.set(STORAGE_KEYS.sessionNotice, TEXT.sessionExpired);
  redirectTo('/');
}

export function recordActivity(now: number = Date.now()): void {
  local.set(STORAGE_KEYS.lastActivity, String(now));
}

function activeRecently(now: number): boolean {
  const last = Number(local.get(STORAGE_KEYS.lastActivity));
  return Number.isFinite(last) && last > 0 && now - last <= ACTIVITY_WINDOW_MS;
}

export type RefreshOutcome = 'signed-out' | 'fresh' | 'refreshed' | 'expired';

/** Spec §4 session refresh: only an expiring token of a recently active user is refreshed (by the
 * server's refresh call, else by silent re-auth); otherwise the session ends with the expiry notice. */
export async function refreshSession(now: number = Date.now()): Promise<RefreshOutcome> {
  const { isAuthenticated, token } = authStore.getState();
  if (!isAuthenticated || !token) return 'signed-out';
  const payload = decodeJwt(token);
  if (payload && !isExpiring(payload, now)) return 'fresh';
  if (activeRecently(now)) {
    // The server exchanges a still-valid token; an already expired one needs the identity service.
    try {
      storeSession(await unwrap(getApi().POST('/auth/refresh')));
      return 'refreshed';
    } catch (error) {
      console.error(error);
    }
    try {
      const response = await silentReauth(getConfig().googleClientId);
      const credential = response.credential;
      if (!credential) throw new Error(TEXT.failedToParseCredential);
      storeSession(await googleAnswer(response, credential));
      await register();
      return 'refreshed';
    } catch (error) {
      console.error(error);
    }
  }
  expireSession();
  return 'expired';
}

// Input events are activity. Focus and visibility are activity too, but they are recorded after the
// refresh check they trigger, so coming back to an idle tab does not count as having been active.
const ACTIVITY_EVENTS = ['mousemove', 'mousedown', 'keydown', 'scroll', 'touchstart'];

/** Wires focus/visibility refresh (debounced 1 s), activity timestamps and the auth:logout event. */
export function startSessionWatch(): () => void {
  let debounce: ReturnType<typeof setTimeout> | undefined;
  let lastWrite = 0;
  const onActivity = () => {
    const now = Date.now();
    if (now - lastWrite < 1000) return;
    lastWrite = now;
    recordActivity(now);
  };
  const scheduleRefresh = () => {
    if (document.visibilityState === 'hidden') return;
    clearTimeout(debounce);
    debounce = setTimeout(() => {
      void refreshSession().then((outcome) => {
        if (outcome === 'fresh' || outcome === 'refreshed') recordActivity();
      });
    }, REFRESH_DEBOUNCE_MS);
  };
  const onLogout = () => logout();
  ACTIVITY_EVENTS.forEach((name) =>
    window.addEventListener(name, onActivity, { passive: true, capture: true }),
  );
  window.addEventListener('focus', scheduleRefresh);
  document.addEventListener('visibilitychange', scheduleRefresh);
  window.addEventListener(WINDOW_EVENTS.authLogout, onLogout);
  return () => {
    clearTimeout(debounce);
    ACTIVITY_EVENTS.forEach((name) => window.removeEventListener(name, onActivity, { capture: true }));
    window.removeEventListener('focus', scheduleRefresh);
    document.removeEventListener('visibilitychange', scheduleRefresh);
    window.removeEventListener(WINDOW_EVENTS.authLogout, onLogout);
  };
}
