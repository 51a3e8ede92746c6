import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetUnauthorizedGuardForTests, setRedirect } from '../lib/auth/unauthorized.js';
import { notificationStore } from '../lib/notifications.js';
import { STORAGE_KEYS } from '../lib/storage.js';
import { json, startApi } from '../test/helpers.js';
import { createApiClient, unwrap } from './client.js';
import { ApiError, errorText } from './errors.js';

describe('errorText', () => {
  it('prefers error.message, then message, then detail, then the client message, then the generic text', () => {
    expect(errorText({ error: { message: 'a' }, message: 'b', detail: 'c' }, 'd')).toBe('a');
    expect(errorText({ message: 'b', detail: 'c' }, 'd')).toBe('b');
    expect(errorText({ detail: 'c' }, 'd')).toBe('c');
    expect(errorText({ detail: [{ msg: 'not text' }] }, 'd')).toBe('d');
    expect(errorText(undefined)).toBe('An unexpected error occurred');
  });
});

describe('API client', () => {
  let api: Awaited<ReturnType<typeof startApi>>;
  let status = 200;
  let body: unknown = { id: 'u1', email: 'a@b.c', name: 'A', credits_remaining: 3 };

  beforeEach(async () => {
    status = 200;
    body = { id: 'u1', email: 'a@b.c', name: 'A', credits_remaining: 3 };
    resetUnauthorizedGuardForTests();
    notificationStore.setState(null);
    api = await startApi((_req, res) => json(res, status, body));
  });
  afterEach(async () => {
    vi.useRealTimers();
    await api.close();
  });

  it('sends the stored google_token as a Bearer header and returns the data', async () => {
    window.localStorage.setItem(STORAGE_KEYS.token, 'tok-123');
    const client = createApiClient({ baseUrl: api.url });
    const me = await unwrap(client.GET('/users/me'));
    expect(me.credits_remaining).toBe(3);
    expect(api.requests[0]?.path).toBe('/api/v1/users/me');
    expect(api.requests[0]?.headers.authorization).toBe('Bearer tok-123');
  });

  it('turns a server error into ApiError with the detail text', async () => {
    status = 402;
    body = { detail: 'Not enough credits' };
    const client = createApiClient({ baseUrl: api.url });
    const error = await unwrap(client.GET('/users/me')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('Not enough credits');
    expect((error as ApiError).status).toBe(402);
  });

  it('reports "Network Error" when nothing answers', async () => {
    await api.close();
    const client = createApiClient({ baseUrl: api.url });
    await expect(unwrap(client.GET('/users/me'))).rejects.toThrow('Network Error');
  });

  it('on 403 shows a persistent error notice with the server text, or "Access denied"', async () => {
    status = 403;
    body = { detail: 'Not your file' };
    const client = createApiClient({ baseUrl: api.url });
    await expect(unwrap(client.GET('/users/me'))).rejects.toThrow('Not your file');
    expect(notificationStore.getState()).toMatchObject({ type: 'error', message: 'Not your file' });
    body = {};
    await expect(unwrap(client.GET('/users/me'))).rejects.toThrow();
    expect(notificationStore.getState()?.message).toBe('Access denied');
  });

  it('on 401 clears the session, fires auth:logout, stores the notice and redirects to "/" after 100 ms once', async () => {
    status = 401;
    body = { detail: 'Token expired' };
    window.localStorage.setItem(STORAGE_KEYS.token, 'tok');
    window.localStorage.setItem(STORAGE_KEYS.user, '{}');
    const redirect = vi.fn();
    setRedirect(redirect);
    const logout = vi.fn();
    window.addEventListener('auth:logout', logout);
    const client = createApiClient({ baseUrl: api.url });
    vi.useFakeTimers({ toFake: ['setTimeout', 'Date'] });
    await Promise.all([
      unwrap(client.GET('/users/me')).catch(() => undefined),
      unwrap(client.GET('/users/me')).catch(() => undefined),
    ]);
    expect(window.localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    expect(window.localStorage.getItem(STORAGE_KEYS.user)).toBeNull();
    // The user reads the plain notice, not the server's detail (issue 18.8).
    expect(window.sessionStorage.getItem(STORAGE_KEYS.sessionNotice)).toBe(
      'Session expired. Please sign in again.',
    );
    expect(logout).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(99);
    expect(redirect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(redirect).toHaveBeenCalledWith('/');
    expect(redirect).toHaveBeenCalledTimes(1);
    window.removeEventListener('auth:logout', logout);
  });

  it('aborts after the timeout with a timeout message', async () => {
    await api.close();
    api = await startApi(() => undefined); // never answers
    const client = createApiClient({ baseUrl: api.url, timeoutMs: 50 });
    await expect(unwrap(client.GET('/users/me'))).rejects.toThrow('timeout of 50ms exceeded');
  });
});
