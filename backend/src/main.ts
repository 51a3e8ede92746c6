// The `api` role (and `make run`): load settings, migrate the database unless a `migrate` step does it, start
// the API, the embedded worker (JOB_CONCURRENCY, default 1; 0 on scale-out API nodes) and the retention sweep
// (unless `sweep` processes do it). SIGTERM drains: see shutdown below.
// The composition root of the API process: settings, database, storage, job queue and event bus are created
// here, once, and passed down.
import { buildApp } from './app.js';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { createEventBus } from './realtime/create-event-bus.js';
import { createJobQueue } from './restoration/job-system.js';
import { startRetentionSweeper, type RetentionSweeper } from './retention/retention-sweeper.js';
import { loadSettings } from './settings.js';
import { createStorage } from './storage/create-storage.js';

async function main(): Promise<void> {
  const settings = loadSettings();
  const db = openDatabase({ databaseUrl: settings.databaseUrl, sqlitePath: settings.sqlitePath });
  if (settings.migrateAtStart) await migrateToLatest(db);
  const storage = createStorage(settings);
  const queue = createJobQueue(settings, db);
  const eventBus = createEventBus(settings);
  // The app's job system owns the queue and closes it with the app.
  const app = await buildApp({ settings, db, storage, queue, eventBus });
  let sweeper: RetentionSweeper | undefined;

  // Graceful shutdown: stop accepting connections, close sockets with 1001 (going away; the web app
  // reconnects, through the load balancer, to another node), let requests in flight and the embedded
  // worker's current page finish, and exit when done or when SHUTDOWN_GRACE_SECONDS have passed.
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal, graceMs: settings.shutdownGraceMs }, 'shutting down');
    const deadline = setTimeout(() => {
      app.log.warn('shutdown deadline passed; exiting with work in flight');
      process.exit(1);
    }, settings.shutdownGraceMs + 2_000);
    deadline.unref();
    try {
      // The embedded worker drains while requests in flight finish (they may still enqueue jobs).
      await Promise.all([sweeper?.stop(), app.jobs.stopWorkers(settings.shutdownGraceMs), app.close()]);
      await eventBus.close();
      await db.destroy();
      app.log.info('shut down cleanly');
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ host: settings.host, port: settings.port });
  if (settings.retentionSweepInApi) sweeper = startRetentionSweeper(app);
  await app.jobs.startWorkers();
  app.log.info(`${settings.appName} is running at ${settings.publicBaseUrl}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
