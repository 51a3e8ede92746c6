// Wires the files domain on the process's storage: repository, background previews, service, routes.
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../db/database.js';
import { JobFailuresRepository } from '../jobs/job-failures.repository.js';
import type { EventBus } from '../realtime/event-bus.js';
import type { Settings } from '../settings.js';
import type { ObjectStorage } from '../storage/storage.js';
import { FilePurger } from './file-purger.js';
import { FileRepository } from './file-repository.js';
import { FileService } from './file-service.js';
import { filesRoutes } from './file.routes.js';
import { FileReader } from './file-reader.js';
import { PreviewQueue } from './preview-queue.js';

export interface FilesPluginOptions {
  settings: Readonly<Settings>;
  db: Db;
  eventBus: EventBus;
  /** The process's storage. */
  storage: ObjectStorage;
  /** The clock (tests move it). */
  now?: () => Date;
  /** How often pending previews are looked for (files added by other processes, restarts). */
  previewPollMs?: number;
}

export const filesPlugin: FastifyPluginAsync<FilesPluginOptions> = async (app, options) => {
  const { settings, db, eventBus, storage } = options;
  const now = options.now ?? (() => new Date());
  const files = new FileRepository(db);
  const checkTimeoutMs = settings.fileCheckTimeoutSeconds * 1000;
  const reader = new FileReader({ memoryMb: settings.fileCheckMemoryMb, timeoutMs: checkTimeoutMs });
  const previews = new PreviewQueue({
    files,
    storage,
    bus: eventBus,
    now,
    log: app.log,
    reader,
    timeoutMs: checkTimeoutMs,
  });
  const service = new FileService({
    files,
    failures: new JobFailuresRepository(db),
    storage,
    bus: eventBus,
    previews,
    reader,
    purger: new FilePurger(files, storage, eventBus),
    limits: {
      maxPdfPages: settings.maxPdfPages,
      originalRetentionDays: settings.originalRetentionDays,
      storageQuotaBytes: settings.storageQuotaMb * 1024 * 1024,
    },
    now,
  });
  app.addHook('onReady', () => {
    previews.start(options.previewPollMs ?? 5_000);
    return Promise.resolve();
  });
  app.addHook('onClose', async () => {
    await previews.stop();
    reader.close();
  });
  await app.register(filesRoutes, { service, maxUploadBytes: settings.maxUploadMb * 1024 * 1024 });
};
