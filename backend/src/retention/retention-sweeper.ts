// Runs the retention sweep now and then every interval; started from main.ts with one line.
import type { FastifyInstance } from 'fastify';
import { FilePurger } from '../files/file-purger.js';
import { FileRepository } from '../files/file-repository.js';
import { createStorage } from '../storage/create-storage.js';
import type { ObjectStorage } from '../storage/storage.js';
import { RetentionService } from './retention-service.js';
import { loadRetentionSettings, type RetentionSettings } from './retention-settings.js';

export interface RetentionSweeper {
  /** Resolves when the sweep in progress (if any) has finished. */
  stop(): Promise<void>;
}

export interface SweeperOptions {
  storage?: ObjectStorage;
  retention?: RetentionSettings;
  now?: () => Date;
}

export function startRetentionSweeper(app: FastifyInstance, options: SweeperOptions = {}): RetentionSweeper {
  const retention = options.retention ?? loadRetentionSettings();
  const files = new FileRepository(app.db);
  const storage = options.storage ?? createStorage(app.settings);
  const service = new RetentionService({
    files,
    storage,
    purger: new FilePurger(files, storage, app.eventBus),
    now: options.now ?? (() => new Date()),
    orphanMinAgeMs: retention.orphanMinAgeMs,
  });
  let running: Promise<void> | null = null;
  const tick = (): void => {
    if (running) return; // a slow sweep is never overlapped by the next one
    running = service
      .sweep()
      .then((report) => {
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
    },
  };
}
