// Adds up the vitest JSON reports of every suite `make test` ran and prints one closing line.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2] ?? 'test-results';
let passed = 0;
let failed = 0;
let skipped = 0;
for (const name of readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()) {
  const report = JSON.parse(readFileSync(join(dir, name), 'utf8'));
  const suiteFailed = report.numFailedTests + (report.success ? 0 : report.numFailedTestSuites);
  console.log(
    `${name.replace(/\.json$/, '').padEnd(18)} ${report.numPassedTests} passed, ${suiteFailed} failed`,
  );
  passed += report.numPassedTests;
  failed += suiteFailed;
  skipped += report.numPendingTests + report.numTodoTests;
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
