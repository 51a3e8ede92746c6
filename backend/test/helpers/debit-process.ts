// Run as a separate process by the ledger concurrency test: debits one credit `count` times in parallel
// through its own database connection and prints how many succeeded and how many were refused.
import { CreditsService } from '../../src/credits/credits.service.js';
import { InsufficientCreditsError } from '../../src/credits/credits.errors.js';
import { openDatabase } from '../../src/db/database.js';
import { withTransaction } from '../../src/db/transaction.js';

const [sqlitePath = '', databaseUrl = '', pgSchema = '', userId = '', prefix = '', countText = '0'] =
  process.argv.slice(2);
const db = openDatabase({ sqlitePath, databaseUrl, pgSchema: pgSchema || undefined, pgPoolSize: 5 });
const credits = new CreditsService();
const results = await Promise.allSettled(
  Array.from({ length: Number(countText) }, (_, i) =>
    withTransaction(db, (trx) =>
      credits.apply(trx, { userId, delta: -1, reason: 'restoration', reference: `${prefix}:${i}` }),
    ),
  ),
);
await db.destroy();
const other = results.filter(
  (result) => result.status === 'rejected' && !(result.reason instanceof InsufficientCreditsError),
);
process.stdout.write(
  JSON.stringify({
    succeeded: results.filter((result) => result.status === 'fulfilled').length,
    refused: results.length - results.filter((result) => result.status === 'fulfilled').length - other.length,
    errors: other.map((result) => (result.status === 'rejected' ? String(result.reason) : '')),
  }),
);
