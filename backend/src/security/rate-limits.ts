// Request rate limits (@fastify/rate-limit): sign-in per client address, the costly actions per user.
// One table names the limited routes, so route files stay as they are. Counters live in Redis when
// REDIS_URL is set (every API process shares them), else in this process.
import rateLimit, { type RateLimitPluginOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { Redis } from 'ioredis';
import { ErrorSchema } from '../auth/auth.schemas.js';
import { TooManyRequestsError } from '../errors.js';
import { API_PREFIX } from '../openapi/openapi.js';
import type { RateLimits, Settings } from '../settings.js';

type LimitKey = 'address' | 'user';

interface RouteLimit {
  key: LimitKey;
  perMinute: (limits: RateLimits) => number;
}

const signIn: RouteLimit = { key: 'address', perMinute: (limits) => limits.signInPerMinute };
const upload: RouteLimit = { key: 'user', perMinute: (limits) => limits.uploadPerMinute };

/** "METHOD /full/path" of every limited route. */
export const LIMITED_ROUTES: Readonly<Record<string, RouteLimit>> = {
  [`POST ${API_PREFIX}/auth/google`]: signIn,
  [`POST ${API_PREFIX}/auth/dev-login`]: signIn,
  [`POST ${API_PREFIX}/files/upload`]: upload,
  [`POST ${API_PREFIX}/files/batch-upload`]: upload,
  [`POST ${API_PREFIX}/restoration/restore`]: { key: 'user', perMinute: (limits) => limits.restorePerMinute },
  [`POST ${API_PREFIX}/files/download`]: { key: 'user', perMinute: (limits) => limits.zipPerMinute },
  [`POST ${API_PREFIX}/billing/checkout/session`]: {
    key: 'user',
    perMinute: (limits) => limits.checkoutPerMinute,
  },
};

function keyOf(key: LimitKey): (request: FastifyRequest) => string {
  if (key === 'address') return (request) => `address:${request.ip}`;
  // Authentication (a root onRequest hook) has run before the route's own hooks.
  return (request) => (request.user ? `user:${request.user.id}` : `address:${request.ip}`);
}

export async function installRateLimits(app: FastifyInstance, settings: Readonly<Settings>): Promise<void> {
  // Added before the plugin's own onRoute hook, which reads config.rateLimit.
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const limit = methods.map((method) => LIMITED_ROUTES[`${method} ${route.url}`]).find(Boolean);
    if (!limit) return;
    const response = route.schema?.response;
    if (route.schema && response && typeof response === 'object') {
      route.schema = { ...route.schema, response: { ...response, 429: ErrorSchema } };
    }
    route.config = {
      ...route.config,
      rateLimit: {
        max: limit.perMinute(settings.rateLimits),
        timeWindow: 60_000,
        keyGenerator: keyOf(limit.key),
      },
    };
  });

  const options: RateLimitPluginOptions = {
    global: false,
    // A client over its limit is told when to come back; the answer is the API's usual {"detail"}.
    errorResponseBuilder: (_request, context) =>
      new TooManyRequestsError(`Too many requests. Please try again in ${context.after}.`),
  };
  if (settings.redisUrl !== '') {
    const redis = new Redis(settings.redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 2_000 });
    app.addHook('onClose', async () => {
      await redis.quit().catch(() => redis.disconnect());
    });
    Object.assign(options, { redis, nameSpace: 'folio-rate-limit:', skipOnError: true });
  }
  await app.register(rateLimit, options);
}
