// The `worker` role (scale-out, and the crash tests): consumes restoration jobs with the settings of the
// environment and publishes events on the configured bus. Serves its metrics and readiness on METRICS_PORT.
// Previews of restored files are rendered by the API nodes, which pick up pending previews on their own.
// SIGTERM: stop taking jobs, finish the page in progress and hand its job back to the queue (another worker
// resumes it from the checkpoints: nothing is redone or charged twice), then exit.
// The composition root of a worker process: settings, database, storage, job queue and event bus are created
// here, once, and passed down.
import type { Server } from 'node:http';
import { pino } from 'pino';
import { CreditsService } from './credits/credits.service.js';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { readinessChecks } from './health/health.routes.js';
import { meteredEngine } from './metrics/metered-engine.js';
import { startMetricsServer } from './metrics/metrics-server.js';
import { Metrics } from './metrics/metrics.js';
import { createEventBus } from './realtime/create-event-bus.js';
import { FolioPageEngine } from './restoration/engine-adapter.js';
import { JobSystem, createJobQueue } from './restoration/job-system.js';
import { loadSettings } from './settings.js';
import { createStorage } from './storage/create-storage.js';

const logger = pino({ name: 'folio-worker' });

async function main(): Promise<void> {
  const settings = loadSettings();
  logger.level = settings.logLevel;
  const jobSettings = settings.jobs;
  const db = openDatabase({ databaseUrl: settings.databaseUrl, sqlitePath: settings.sqlitePath });
  if (settings.migrateAtStart) await migrateToLatest(db);
  const storage = createStorage(settings);
  const eventBus = createEventBus(settings);
  const metrics = new Metrics(db);
  const jobs = new JobSystem({
    settings,
    db,
    queue: createJobQueue(settings, db),
    storage,
    eventBus,
    credits: new CreditsService(),
    engine: meteredEngine(new FolioPageEngine(jobSettings.pageTimeoutMs), metrics),
    log: logger,
  });
  let metricsServer: Server | undefined;
  if (settings.metricsPort > 0) {
    const checks = readinessChecks({ db, queue: jobs.queue, storage });
    metricsServer = await startMetricsServer(metrics, checks, settings.host, settings.metricsPort);
  }
  await jobs.startWorkers(Math.max(jobSettings.concurrency, 1));
  logger.info(
    { queue: jobSettings.queue, concurrency: Math.max(jobSettings.concurrency, 1), pid: process.pid },
    'worker started',
  );

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, graceMs: settings.shutdownGraceMs }, 'worker shutting down');
    await jobs.stopWorkers(settings.shutdownGraceMs);
    await jobs.close();
    metricsServer?.close();
    await eventBus.close();
    await db.destroy();
    logger.info('worker stopped');
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  logger.error({ err: error }, 'worker failed to start');
  process.exit(1);
});
