// The `migrate` role: brings the database to the latest schema and exits (0 on success). Run it once before
// starting or upgrading `api`, `worker` and `sweep` processes, which then run with MIGRATE_AT_START=false.
// Its composition root needs only the settings and the database.
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { loadSettings } from './settings.js';

async function main(): Promise<void> {
  const settings = loadSettings();
  const db = openDatabase({ databaseUrl: settings.databaseUrl, sqlitePath: settings.sqlitePath });
  try {
    await migrateToLatest(db);
    console.log('database migrated to the latest schema');
  } finally {
    await db.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
