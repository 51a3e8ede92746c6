import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApiClient, setApiForTests } from '../../api/client.js';
import { resetConfigForTests } from '../../config/runtime.js';
import { json, makeJwt, startApi } from '../../test/helpers.js';
import { STORAGE_KEYS } from '../storage.js';
import { authStore } from './auth-store.js';
import type { GoogleAccountsId, GoogleCredentialResponse } from './google-identity.js';
import {
  loginWithDevAccount,
  loginWithGoogle,
  logout,
  recordActivity,
  refreshSession,
  restoreSession,
  startSessionWatch,
} from './session.js';
import { resetUnauthorizedGuardForTests, setRedirect } from './unauthorized.js';

const NOW = 1_800_000_000_000;
const user = { id: 'u1', email: 'ada@example.com', name: 'Ada', given_name: 'Ada', family_name: null };
const tokenExpiringIn = (seconds: number) =>
  makeJwt({ sub: 'u1', email: user.email, exp: NOW / 1000 + seconds });

function store(token: string) {
  window.localStorage.setItem(STORAGE_KEYS.token, token);
  window.localStorage.setItem(STORAGE_KEYS.user, JSON.stringify(user));
}

describe('restore on load', () => {
  it('restores a session with more than 60 s left', () => {
    store(tokenExpiringIn(61));
    expect(restoreSession(NOW)).toBe(true);
    expect(authStore.getState()).toMatchObject({ isAuthenticated: true, isLoading: false, user });
  });

  it('clears token and user when 60 s or less remain', () => {
    store(tokenExpiringIn(60));
    expect(restoreSession(NOW)).toBe(false);
    expect(authStore.getState().isAuthenticated).toBe(false);
    expect(window.localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    expect(window.localStorage.getItem(STORAGE_KEYS.user)).toBeNull();
  });

  it('clears both when either is missing or the token cannot be decoded', () => {
    window.localStorage.setItem(STORAGE_KEYS.token, tokenExpiringIn(3600));
    expect(restoreSession(NOW)).toBe(false);
    expect(window.localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    store('not-a-jwt');
    expect(restoreSession(NOW)).toBe(false);
    expect(window.localStorage.getItem(STORAGE_KEYS.user)).toBeNull();
  });
});

describe('sign-in and logout against a local API', () => {
  let api: Awaited<ReturnType<typeof startApi>>;
  let loginStatus = 200;
  let loginBody: unknown;

  beforeEach(async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    loginStatus = 200;
    loginBody = { token: tokenExpiringIn(3600), user, credits_remaining: 5 };
    api = await startApi((req, res) => {
      if (req.path.endsWith('/auth/dev-login') || req.path.endsWith('/auth/google'))
        json(res, loginStatus, loginBody);
      else if (req.path.endsWith('/users/register')) json(res, 200, { ...user, credits_remaining: 5 });
      else json(res, 404, { detail: 'Not found' });
    });
    setApiForTests(createApiClient({ baseUrl: api.url }));
  });
  afterEach(async () => {
    setApiForTests(undefined);
    await api.close();
  });

  it('dev sign-in stores token and user, then registers', async () => {
    expect(await loginWithDevAccount('ada@example.com', 'Ada')).toBe(true);
    expect(authStore.getState()).toMatchObject({ isAuthenticated: true, user, error: null });
    expect(window.localStorage.getItem(STORAGE_KEYS.token)).toBe(
      loginBody && (loginBody as { token: string }).token,
    );
    expect(api.requests.map((r) => r.path)).toEqual(['/api/v1/auth/dev-login', '/api/v1/users/register']);
    logout();
    expect(authStore.getState()).toMatchObject({ isAuthenticated: false, user: null, token: null });
    expect(window.localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
  });

  it('Google sign-in validates the credential before calling the server', async () => {
    expect(await loginWithGoogle({})).toBe(false);
    expect(authStore.getState().error).toBe('No credential received from Google');
    expect(await loginWithGoogle({ credential: makeJwt({ email: 'no-subject@example.com' }) })).toBe(false);
    expect(authStore.getState().error).toBe('Failed to extract user information from Google credential');
    expect(api.requests).toHaveLength(0);
    const credential = makeJwt({ sub: 'g1', email: 'ada@example.com' });
    expect(await loginWithGoogle({ credential, select_by: 'btn', clientId: 'cid' })).toBe(true);
    expect(JSON.parse(api.requests[0]?.body ?? '{}')).toEqual({
      credential,
      select_by: 'btn',
      client_id: 'cid',
    });
  });

  it('maps a maintenance error to the maintenance text and keeps other messages', async () => {
    loginStatus = 503;
    loginBody = { detail: 'Down for maintenance' };
    expect(await loginWithDevAccount('a@b.c', 'A')).toBe(false);
    expect(authStore.getState()).toMatchObject({
      isAuthenticated: false,
      user: null,
      error: 'Service is currently under maintenance. Please try again later.',
    });
    loginBody = { detail: 'Sign-in is closed' };
    await loginWithDevAccount('a@b.c', 'A');
    expect(authStore.getState().error).toBe('Sign-in is closed');
  });
});

describe('session refresh on focus', () => {
  let api: Awaited<ReturnType<typeof startApi>>;
  let stop: () => void = () => undefined;
  const redirect = vi.fn();
  let refreshStatus = 401;
  const fresh = () => makeJwt({ sub: 'u1', email: user.email, exp: Date.now() / 1000 + 3600 });

  function fakeGoogle(answer: GoogleCredentialResponse | 'dismiss') {
    let callback: (r: GoogleCredentialResponse) => void = () => undefined;
    const id: GoogleAccountsId = {
      initialize: (options) => {
        callback = options.callback;
      },
      renderButton: () => undefined,
      prompt: (listener) => {
        if (answer === 'dismiss') listener?.({ isNotDisplayed: () => true });
        else callback(answer);
      },
    };
    window.google = { accounts: { id } };
  }

  beforeEach(async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: NOW });
    redirect.mockReset();
    setRedirect(redirect);
    resetUnauthorizedGuardForTests();
    window.GOOGLE_CLIENT_ID = 'cid';
    resetConfigForTests();
    refreshStatus = 401;
    api = await startApi((req, res) => {
      if (req.path.endsWith('/auth/google')) json(res, 200, { token: fresh(), user, credits_remaining: 2 });
      else if (req.path.endsWith('/auth/refresh')) {
        if (refreshStatus === 200) json(res, 200, { token: fresh(), user, credits_remaining: 2 });
        else json(res, refreshStatus, { detail: 'Token expired' });
      } else json(res, 200, { ...user, credits_remaining: 2 });
    });
    setApiForTests(createApiClient({ baseUrl: api.url }));
  });
  afterEach(async () => {
    stop();
    delete window.google;
    delete window.GOOGLE_CLIENT_ID;
    resetConfigForTests();
    setApiForTests(undefined);
    vi.useRealTimers();
    await api.close();
  });

  it('does nothing while the token has more than 60 s left', async () => {
    store(tokenExpiringIn(120));
    restoreSession();
    expect(await refreshSession()).toBe('fresh');
  });

  it('refreshes an expiring token through silent re-auth when the user was active within 30 min', async () => {
    store(tokenExpiringIn(30));
    window.localStorage.setItem(STORAGE_KEYS.token, tokenExpiringIn(30));
    authStore.setState({
      user,
      token: tokenExpiringIn(30),
      isAuthenticated: true,
      isLoading: false,
      error: null,
    });
    recordActivity(NOW - 1_800_000);
    fakeGoogle({ credential: makeJwt({ sub: 'g1', email: user.email }), select_by: 'auto' });
    expect(await refreshSession()).toBe('refreshed');
    expect(authStore.getState().isAuthenticated).toBe(true);
    expect(window.localStorage.getItem(STORAGE_KEYS.token)).not.toBe(tokenExpiringIn(30));
    expect(api.requests.map((r) => r.path)).toEqual([
      '/api/v1/auth/refresh',
      '/api/v1/auth/google',
      '/api/v1/users/register',
    ]);
    expect(redirect).not.toHaveBeenCalled();
  });

  it('refreshes a still-valid token through the server first', async () => {
    refreshStatus = 200;
    const old = tokenExpiringIn(30);
    store(old);
    authStore.setState({ user, token: old, isAuthenticated: true, isLoading: false, error: null });
    recordActivity(NOW - 60_000);
    expect(await refreshSession()).toBe('refreshed');
    expect(authStore.getState().token).not.toBe(old);
    expect(window.localStorage.getItem(STORAGE_KEYS.token)).toBe(authStore.getState().token);
    expect(api.requests.map((r) => r.path)).toEqual(['/api/v1/auth/refresh']);
    expect(api.requests[0]?.headers.authorization).toBe(`Bearer ${old}`);
  });

  it('logs out with the expiry notice when the user was inactive for more than 30 min', async () => {
    authStore.setState({
      user,
      token: tokenExpiringIn(30),
      isAuthenticated: true,
      isLoading: false,
      error: null,
    });
    recordActivity(NOW - 1_800_001);
    fakeGoogle({ credential: makeJwt({ sub: 'g1', email: user.email }) });
    expect(await refreshSession()).toBe('expired');
    expect(authStore.getState().isAuthenticated).toBe(false);
    expect(window.sessionStorage.getItem(STORAGE_KEYS.sessionNotice)).toBe(
      'Session expired. Please sign in again.',
    );
    expect(redirect).toHaveBeenCalledWith('/');
    expect(api.requests).toHaveLength(0);
  });

  it('logs out when silent re-auth is dismissed', async () => {
    authStore.setState({
      user,
      token: tokenExpiringIn(-5),
      isAuthenticated: true,
      isLoading: false,
      error: null,
    });
    recordActivity(NOW);
    fakeGoogle('dismiss');
    expect(await refreshSession()).toBe('expired');
    expect(redirect).toHaveBeenCalledWith('/');
  });

  it('gives up on silent re-auth after 2 s', async () => {
    authStore.setState({
      user,
      token: tokenExpiringIn(10),
      isAuthenticated: true,
      isLoading: false,
      error: null,
    });
    recordActivity(NOW);
    let prompted = false;
    const prompt = () => {
      prompted = true; // and never answers
    };
    window.google = {
      accounts: { id: { initialize: () => undefined, renderButton: () => undefined, prompt } },
    };
    const outcome = refreshSession();
    // Let the (real) refresh request fail first; the 2 s clock starts when the prompt opens.
    while (!prompted) await new Promise((resolve) => setImmediate(resolve));
    await vi.advanceTimersByTimeAsync(1999);
    expect(authStore.getState().isAuthenticated).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(await outcome).toBe('expired');
  });

  it('debounces focus and visibility checks by 1 s', async () => {
    authStore.setState({
      user,
      token: tokenExpiringIn(10),
      isAuthenticated: true,
      isLoading: false,
      error: null,
    });
    recordActivity(NOW - 1_900_000);
    stop = startSessionWatch();
    window.dispatchEvent(new Event('focus'));
    await vi.advanceTimersByTimeAsync(500);
    document.dispatchEvent(new Event('visibilitychange'));
    await vi.advanceTimersByTimeAsync(999);
    expect(authStore.getState().isAuthenticated).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(authStore.getState().isAuthenticated).toBe(false);
    expect(redirect).toHaveBeenCalledTimes(1);
  });

  it('logs out on the auth:logout window event', () => {
    authStore.setState({
      user,
      token: tokenExpiringIn(999),
      isAuthenticated: true,
      isLoading: false,
      error: null,
    });
    stop = startSessionWatch();
    window.dispatchEvent(new Event('auth:logout'));
    expect(authStore.getState().isAuthenticated).toBe(false);
  });
});
