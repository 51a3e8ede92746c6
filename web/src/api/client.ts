// The only way the app talks to the API: openapi-fetch typed by the client generated from the backend's
// OpenAPI document (schema.d.ts, `npm run api:generate`). Adds the Bearer token, the 120 s timeout, the
// 401/403 handling of spec §8, and turns failures into ApiError with the spec's text order.
import { API_TIMEOUT_MS } from '@folio/shared';
import createClient, { type Middleware } from 'openapi-fetch';
import { getConfig } from '../config/runtime.js';
import { TEXT } from '../config/texts.js';
import { handleUnauthorized } from '../lib/auth/unauthorized.js';
import { notify } from '../lib/notifications.js';
import { STORAGE_KEYS, local } from '../lib/storage.js';
import { ApiError, errorText, serverText } from './errors.js';
import type { paths } from './schema.js';

export interface ApiClientOptions {
  baseUrl: string;
  fetch?: (request: Request) => Promise<Response>;
  timeoutMs?: number;
}

async function readBody(response: Response): Promise<unknown> {
  try {
    return (await response.clone().json()) as unknown;
  } catch {
    return undefined;
  }
}

const authMiddleware: Middleware = {
  onRequest({ request }) {
    const token = local.get(STORAGE_KEYS.token);
    if (token) request.headers.set('Authorization', `Bearer ${token}`);
    return request;
  },
  async onResponse({ request, response }) {
    // Sign-in calls answer 401 for a bad credential: that is a login error, not an expired session.
    const isSignIn = new URL(request.url).pathname.includes('/auth/');
    if (response.status === 401 && !isSignIn) {
      handleUnauthorized(serverText(await readBody(response)) ?? TEXT.sessionExpired);
    } else if (response.status === 403) {
      notify(serverText(await readBody(response)) ?? TEXT.accessDenied, 'error');
    }
    return response;
  },
};

export function createApiClient(options: ApiClientOptions) {
  const baseFetch = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const timeoutMs = options.timeoutMs ?? API_TIMEOUT_MS;
  const client = createClient<paths>({
    baseUrl: options.baseUrl,
    fetch: async (request: Request) => {
      const controller = new AbortController();
      const timer = setTimeout(
        () => controller.abort(new ApiError(`timeout of ${timeoutMs}ms exceeded`, 0)),
        timeoutMs,
      );
      request.signal.addEventListener('abort', () => controller.abort(request.signal.reason));
      try {
        return await baseFetch(new Request(request, { signal: controller.signal }));
      } catch (error) {
        if (error instanceof ApiError) throw error;
        if (controller.signal.reason instanceof ApiError) throw controller.signal.reason;
        // fetch rejects only when no answer arrived at all.
        throw new ApiError(TEXT.networkError, 0);
      } finally {
        clearTimeout(timer);
      }
    },
  });
  client.use(authMiddleware);
  return client;
}

export type ApiClient = ReturnType<typeof createApiClient>;

let defaultClient: ApiClient | undefined;

export function getApi(): ApiClient {
  defaultClient ??= createApiClient({ baseUrl: getConfig().apiBaseUrl });
  return defaultClient;
}

export function setApiForTests(client: ApiClient | undefined): void {
  defaultClient = client;
}

interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** Awaits an openapi-fetch call and returns its data, or throws ApiError with the user-facing text. */
export async function unwrap<T>(call: Promise<FetchResult<T>>): Promise<T> {
  let result: FetchResult<T>;
  try {
    result = await call;
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError(errorText(undefined, error instanceof Error ? error.message : undefined), 0);
  }
  const { data, error, response } = result;
  if (!response.ok || error !== undefined) {
    throw new ApiError(
      errorText(error, `Request failed with status code ${response.status}`),
      response.status,
      error,
    );
  }
  return data as T;
}
