// Worker process entry (scale-out, and the crash tests): `node --import tsx backend/src/worker.ts`.
// Consumes restoration jobs with the settings of the environment; publishes events on the configured bus.
// Previews of restored files are rendered by the API nodes, which pick up pending previews on their own.
import { pino } from 'pino';
import { CreditsService } from './credits/credits.service.js';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { loadJobSettings } from './jobs/job-settings.js';
import { createEventBus } from './realtime/create-event-bus.js';
import { JobSystem } from './restoration/job-system.js';
import { loadSettings } from './settings.js';
import { createStorage } from './storage/create-storage.js';

const logger = pino({ name: 'folio-worker' });

async function main(): Promise<void> {
  const settings = loadSettings();
  logger.level = settings.logLevel;
  const jobSettings = loadJobSettings();
  const db = openDatabase({ databaseUrl: settings.databaseUrl, sqlitePath: settings.sqlitePath });
  await migrateToLatest(db);
  const storage = createStorage(settings);
  const eventBus = createEventBus(settings);
  const jobs = new JobSystem({
    settings,
    jobSettings,
    db,
    storage,
    eventBus,
    credits: new CreditsService(),
    log: logger,
  });
  await jobs.startWorkers(Math.max(jobSettings.concurrency, 1));
  logger.info(
    { queue: jobSettings.queue, concurrency: Math.max(jobSettings.concurrency, 1) },
    'worker started',
  );

  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    await jobs.close();
    await eventBus.close();
    await db.destroy();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown());
  process.once('SIGINT', () => void shutdown());
}

main().catch((error: unknown) => {
  logger.error({ err: error }, 'worker failed to start');
  process.exit(1);
});
