// The app factory: builds the services from the process's settings, database, storage and job queue (created
// once by the entry point, main.ts, and passed in) and registers each domain's routes. Every domain plugs in
// here with one line under "Domains".
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { AuthService } from './auth/auth.service.js';
import { authRoutes } from './auth/auth.routes.js';
import { ErrorSchema } from './auth/auth.schemas.js';
import { installAuthentication } from './auth/authenticate.js';
import { JoseGoogleVerifier, type GoogleVerifier } from './auth/google-verifier.js';
import { SessionTokens } from './auth/session-tokens.js';
import { billingRoutes } from './billing/billing.routes.js';
import { CreditsService } from './credits/credits.service.js';
import { pingDatabase, type Db } from './db/database.js';
import { BadRequestError, ServiceUnavailableError, installErrorHandling } from './errors.js';
import { filesPlugin } from './files/files.plugin.js';
import { API_PREFIX, installOpenApi } from './openapi/openapi.js';
import { InProcessEventBus, type EventBus } from './realtime/event-bus.js';
import { realtimeRoutes } from './realtime/websocket-routes.js';
import type { JobQueue } from './jobs/job-queue.js';
import { healthRoutes } from './health/health.routes.js';
import { installMaintenanceMode } from './maintenance/maintenance.js';
import { meteredEngine } from './metrics/metered-engine.js';
import { Metrics } from './metrics/metrics.js';
import { installMetrics } from './metrics/metrics.plugin.js';
import { FolioPageEngine } from './restoration/engine-adapter.js';
import { JobSystem } from './restoration/job-system.js';
import { restorationRoutes } from './restoration/restoration.routes.js';
import { registerSecurity } from './security/security.js';
import { serverOptions } from './security/server-options.js';
import type { Settings } from './settings.js';
import type { ObjectStorage } from './storage/storage.js';
import { usersRoutes } from './users/users.routes.js';
import { UsersService } from './users/users.service.js';
import { installWeb } from './web/web.routes.js';

export interface BuildAppOptions {
  settings: Readonly<Settings>;
  db: Db;
  /** The process's file storage (createStorage(settings)). */
  storage: ObjectStorage;
  /** The process's job queue (createJobQueue(settings, db)); the app's job system closes it with the app. */
  queue: JobQueue;
  eventBus?: EventBus;
  /** Replaces the Google key-set verifier (defaults to one reading settings.googleJwksUrl). */
  googleVerifier?: GoogleVerifier;
  /** Where log lines go (defaults to stdout). */
  logStream?: DestinationStream;
  metrics?: Metrics;
}

/** The services of one process, shared by routes and (through the app) by workers. */
export interface AppServices {
  credits: CreditsService;
  users: UsersService;
  auth: AuthService;
}

declare module 'fastify' {
  interface FastifyInstance {
    settings: Readonly<Settings>;
    db: Db;
    storage: ObjectStorage;
    eventBus: EventBus;
    services: AppServices;
    jobs: JobSystem;
  }
}

/**
 * Clients often send `Content-Type: application/json` on body-less POSTs (register, refresh); treat an
 * empty body as no body instead of Fastify's 400.
 */
function acceptEmptyJsonBodies(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    try {
      // Like Fastify's own parser: a "__proto__" key is dropped rather than kept for a later merge to trip on.
      done(
        null,
        JSON.parse(text, (key, value: unknown) => (key === '__proto__' ? undefined : value)),
      );
    } catch {
      done(new BadRequestError('Request body is not valid JSON'), undefined);
    }
  });
}

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { settings, db, storage } = options;
  const eventBus = options.eventBus ?? new InProcessEventBus();
  const app = Fastify(serverOptions(settings, options.logStream)).withTypeProvider<TypeBoxTypeProvider>();

  const credits = new CreditsService();
  const users = new UsersService(credits, settings.signupCredits);
  const googleVerifier =
    options.googleVerifier ??
    new JoseGoogleVerifier({
      clientId: settings.googleClientId,
      jwksUrl: settings.googleJwksUrl,
      issuers: settings.googleIssuers,
    });
  const tokens = new SessionTokens(settings.tokenSecret, settings.tokenTtlSeconds);
  const auth = new AuthService(
    db,
    users,
    tokens,
    googleVerifier,
    settings.devLogin,
    settings.sessionMaxAgeSeconds,
  );
  const services: AppServices = { credits, users, auth };

  app.decorate('settings', settings);
  app.decorate('db', db);
  app.decorate('storage', storage);
  app.decorate('eventBus', eventBus);
  app.decorate('services', services);
  const metrics = options.metrics ?? new Metrics(db);
  const jobs = new JobSystem({
    settings,
    db,
    queue: options.queue,
    storage,
    eventBus,
    credits,
    // The embedded worker's pages are counted like a worker process's.
    engine: meteredEngine(new FolioPageEngine(settings.jobs.pageTimeoutMs), metrics),
    log: app.log,
  });
  app.addHook('onClose', () => jobs.close());
  app.decorate('jobs', jobs);

  installErrorHandling(app);
  await registerSecurity(app, settings);
  installMetrics(app, metrics);
  acceptEmptyJsonBodies(app);
  await installOpenApi(app);
  installMaintenanceMode(app, settings);
  installAuthentication(app, auth);
  await installWeb(app, settings);

  await app.register(
    async (api) => {
      api.get(
        '/health',
        {
          config: { public: true },
          schema: {
            operationId: 'getHealth',
            tags: ['system'],
            summary: 'Liveness: 200 once the database answers',
            response: { 200: Type.Object({ status: Type.Literal('ok') }), 503: ErrorSchema },
          },
        },
        async () => {
          try {
            await pingDatabase(db);
          } catch {
            throw new ServiceUnavailableError('Database unavailable');
          }
          return { status: 'ok' as const };
        },
      );

      await api.register(healthRoutes, { db, queue: jobs.queue, storage });
      // Domains: one line each.
      await api.register(authRoutes, { auth });
      await api.register(usersRoutes, { db, users });
      await api.register(filesPlugin, { settings, db, eventBus, storage });
      await api.register(restorationRoutes, { service: jobs.service });
      await api.register(realtimeRoutes, {
        eventBus,
        authenticateToken: (token) => auth.authenticateToken(token),
        metrics,
      });
    },
    { prefix: API_PREFIX },
  );
  // Billing serves /api/v1/billing/* and the test-mode checkout pages at /billing/*, so it sits at the root.
  await app.register(billingRoutes, { settings, db, eventBus, credits });

  return app;
}
