// `make run`: load settings, open and migrate the database, start the API (and the embedded worker).
import { buildApp } from './app.js';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { loadJobSettings } from './jobs/job-settings.js';
import { createEventBus } from './realtime/create-event-bus.js';
import { startRetentionSweeper } from './retention/retention-sweeper.js';
import { loadSettings } from './settings.js';

async function main(): Promise<void> {
  const settings = loadSettings();
  const db = openDatabase({ databaseUrl: settings.databaseUrl, sqlitePath: settings.sqlitePath });
  await migrateToLatest(db);
  const eventBus = createEventBus(settings);
  const app = await buildApp({ settings, db, eventBus, jobSettings: loadJobSettings() });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    try {
      await app.close();
      await eventBus.close();
      await db.destroy();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ host: settings.host, port: settings.port });
  startRetentionSweeper(app); // expired and orphaned files, every RETENTION_SWEEP_INTERVAL_SECONDS
  // The embedded worker pool (JOB_CONCURRENCY, default 1; 0 on scale-out API nodes).
  await app.jobs.startWorkers();
  app.log.info(`${settings.appName} is running at ${settings.publicBaseUrl}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
