// The `sweep` role: the retention sweep (expired files, orphaned objects) every RETENTION_SWEEP_INTERVAL_SECONDS.
// Any number may run: with Redis, a lock lets one process of the fleet sweep per interval. API nodes then run
// with RETENTION_SWEEP_IN_API=false.
// The composition root of a sweep process: settings, database, storage and event bus are created here, once.
import { pino } from 'pino';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { createEventBus } from './realtime/create-event-bus.js';
import { startRetentionSweeper } from './retention/retention-sweeper.js';
import { loadSettings } from './settings.js';
import { createStorage } from './storage/create-storage.js';

const logger = pino({ name: 'folio-sweep' });

async function main(): Promise<void> {
  const settings = loadSettings();
  logger.level = settings.logLevel;
  const db = openDatabase({ databaseUrl: settings.databaseUrl, sqlitePath: settings.sqlitePath });
  if (settings.migrateAtStart) await migrateToLatest(db);
  const eventBus = createEventBus(settings);
  const storage = createStorage(settings);
  const sweeper = startRetentionSweeper({ db, settings, storage, eventBus, log: logger });
  // The sweeper's timer does not hold the process open; this one does, until SIGTERM.
  const keepAlive = setInterval(() => undefined, 1 << 30);
  logger.info('retention sweep started');

  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    clearInterval(keepAlive);
    await sweeper.stop();
    await eventBus.close();
    await db.destroy();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown());
  process.once('SIGINT', () => void shutdown());
}

main().catch((error: unknown) => {
  logger.error({ err: error }, 'sweep failed to start');
  process.exit(1);
});
