// Runs the retention sweep now and then every interval; started by the API process (embedded default) or by
// `sweep` processes. With Redis, a lock makes each interval's sweep run on one process of the fleet.
import type { Db } from '../db/database.js';
import { FilePurger } from '../files/file-purger.js';
import { FileRepository } from '../files/file-repository.js';
import type { ObjectStorage } from '../storage/storage.js';
import { RetentionService } from './retention-service.js';
import type { EventBus } from '../realtime/event-bus.js';
import type { RetentionSettings, Settings } from '../settings.js';
import { createSweepLock, type SweepLock } from './sweep-lock.js';

export interface RetentionSweeper {
  /** Resolves when the sweep in progress (if any) has finished. */
  stop(): Promise<void>;
}

export interface SweeperOptions {
  /** Defaults to settings.retention. */
  retention?: RetentionSettings;
  now?: () => Date;
  /** Defaults to a Redis lock when REDIS_URL is set, else none. */
  lock?: SweepLock;
}

/** What the sweeper needs from its process (a Fastify app has all of it). */
export interface SweeperHost {
  db: Db;
  settings: Readonly<Settings>;
  storage: ObjectStorage;
  eventBus: EventBus;
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/** A little less than the interval, so the next interval's first tick is free to take the lock. */
function lockHoldMs(intervalMs: number): number {
  return Math.max(intervalMs - 500, 500);
}

export function startRetentionSweeper(app: SweeperHost, options: SweeperOptions = {}): RetentionSweeper {
  const retention = options.retention ?? app.settings.retention;
  const files = new FileRepository(app.db);
  const { storage } = app;
  const service = new RetentionService({
    files,
    storage,
    purger: new FilePurger(files, storage, app.eventBus),
    now: options.now ?? (() => new Date()),
    orphanMinAgeMs: retention.orphanMinAgeMs,
  });
  const lock =
    options.lock ??
    createSweepLock(
      app.settings.redisUrl,
      lockHoldMs(retention.sweepIntervalMs),
      `${app.settings.jobs.queuePrefix}:retention-sweep:lock`,
    );
  let running: Promise<void> | null = null;
  const tick = (): void => {
    if (running) return; // a slow sweep is never overlapped by the next one
    running = lock
      .tryAcquire()
      .then(async (acquired) => {
        if (!acquired) return;
        const renewal = setInterval(
          () => void lock.renew().catch(() => undefined),
          lockHoldMs(retention.sweepIntervalMs) / 3,
        );
        const report = await service.sweep().finally(() => clearInterval(renewal));
        if (report.expired + report.purged + report.orphansRemoved > 0)
          app.log.info(report, 'retention sweep');
      })
      .catch((error: unknown) => app.log.error({ err: error }, 'retention sweep failed'))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, retention.sweepIntervalMs);
  timer.unref();
  tick();
  // The timer is unref'd: it never keeps the process alive, and a sweep cut short is finished by the next.
  return {
    async stop() {
      clearInterval(timer);
      await running;
      await lock.close();
    },
  };
}
