// Settings of the job system, read once per process next to the main settings object.
import { SettingsError, type Env } from '../settings.js';

export type QueueKind = 'database' | 'bullmq';

export interface JobSettings {
  /** `bullmq` when REDIS_URL is set (scale-out), else the durable job table (embedded default). */
  queue: QueueKind;
  /** Concurrent jobs per worker process; 0 in an API process = no embedded worker (scale-out API node). */
  concurrency: number;
  /** A claimed job whose lease is not renewed for this long is taken over by another worker. */
  leaseMs: number;
  /** How often an idle database-queue worker looks for work it was not told about. */
  pollMs: number;
  /** Runs of one job (first run included) before it ends failed with every page refunded. */
  maxAttempts: number;
  /** Time limit for one page inside the engine. */
  pageTimeoutMs: number;
  /** Redis key prefix of the BullMQ queue. */
  queuePrefix: string;
}

function int(env: Env, name: string, fallback: number, min: number): number {
  const raw = (env[name] ?? '').trim();
  if (raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min) {
    throw new SettingsError(`${name} must be an integer of at least ${min}, got "${raw}"`);
  }
  return Number(raw);
}

export function loadJobSettings(env: Env = process.env): Readonly<JobSettings> {
  const redisUrl = (env.REDIS_URL ?? '').trim();
  const requested = (env.JOB_QUEUE ?? '').trim();
  if (requested !== '' && requested !== 'database' && requested !== 'bullmq') {
    throw new SettingsError(`JOB_QUEUE must be database or bullmq, got "${requested}"`);
  }
  const queue: QueueKind = requested === '' ? (redisUrl === '' ? 'database' : 'bullmq') : requested;
  if (queue === 'bullmq' && redisUrl === '') throw new SettingsError('JOB_QUEUE=bullmq needs REDIS_URL');
  return Object.freeze({
    queue,
    concurrency: int(env, 'JOB_CONCURRENCY', 1, 0),
    leaseMs: int(env, 'JOB_LEASE_MS', 30_000, 500),
    pollMs: int(env, 'JOB_POLL_MS', 1_000, 10),
    maxAttempts: int(env, 'JOB_MAX_ATTEMPTS', 3, 1),
    pageTimeoutMs: int(env, 'JOB_PAGE_TIMEOUT_MS', 120_000, 1_000),
    queuePrefix: (env.JOB_QUEUE_PREFIX ?? '').trim() || 'folio',
  });
}
