// GET /api/v1/ready: 200 when the database, the job queue and the file storage answer, else 503 naming the
// parts that do not. Load balancers and the container healthcheck use it; /health stays a liveness check.
import { Type } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { ErrorSchema } from '../auth/auth.schemas.js';
import { pingDatabase, type Db } from '../db/database.js';
import { ServiceUnavailableError } from '../errors.js';
import type { JobQueue } from '../jobs/job-queue.js';
import type { ObjectStorage } from '../storage/storage.js';
import { checkReadiness, type ReadinessCheck } from './readiness.js';

export interface HealthRoutesOptions {
  db: Db;
  queue: JobQueue;
  storage: ObjectStorage;
  timeoutMs?: number;
}

const READY_TIMEOUT_MS = 2_000;

export function readinessChecks(options: HealthRoutesOptions): ReadinessCheck[] {
  return [
    { name: 'database', check: () => pingDatabase(options.db) },
    { name: 'queue', check: () => options.queue.ping() },
    { name: 'storage', check: () => options.storage.exists('ready-check') },
  ];
}

export function healthRoutes(app: FastifyInstance, options: HealthRoutesOptions, done: () => void): void {
  const checks = readinessChecks(options);
  app.get(
    '/ready',
    {
      config: { public: true },
      schema: {
        operationId: 'getReady',
        tags: ['system'],
        summary:
          'Readiness: 200 when the database, job queue and storage answer; 503 names the failing parts',
        response: { 200: Type.Object({ status: Type.Literal('ready') }), 503: ErrorSchema },
      },
    },
    async () => {
      const report = await checkReadiness(checks, options.timeoutMs ?? READY_TIMEOUT_MS);
      if (!report.ready)
        throw new ServiceUnavailableError(`Not ready: ${report.failing.join(', ')} unreachable`);
      return { status: 'ready' as const };
    },
  );
  done();
}
