// Adds up the vitest JSON reports of every suite `make test` ran and prints one closing line.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

/** The line number of `fileName` in the first stack frame that names it, if any. */
function stackLine(failure, fileName) {
  for (const frame of failure.split('\n')) {
    const at = frame.indexOf(`${fileName}:`);
    if (at >= 0) return frame.slice(at + fileName.length + 1).split(':')[0];
  }
  return undefined;
}

const dir = process.argv[2] ?? 'test-results';

function readIfThere(file) {
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}

/** The first error line vitest printed outside the tests, and how a worker that died did, from the suite's log. */
function outsideError(suite) {
  const lines = (readIfThere(join(dir, `${suite}.log`)) ?? '').replace(/\x1b\[[0-9;]*m/g, '').split('\n');
  const start = Math.max(
    0,
    lines.findIndex((line) => /Unhandled (Error|Rejection)/.test(line)),
  );
  const error = lines
    .slice(start)
    .find((line) => /\b\w*Error\b|Timeout/.test(line) && !/Unhandled/.test(line));
  // A worker that died says so under "Caused by"; what killed it (a native abort) was printed where it happened.
  const cause = lines.slice(start).find((line) => /^\s*Caused by:/.test(line));
  const death = lines.find((line) => /terminate called|Segmentation fault|FATAL ERROR|out of memory/.test(line));
  return [error ?? 'see its output', cause, death].filter(Boolean).join(' ').trim().slice(0, 400);
}

let passed = 0;
let failed = 0;
let skipped = 0;
// Failures are listed again here, at the end of the output, where a log cut to its last lines still shows them.
const failures = [];
const notRun = [];
for (const name of readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()) {
  const report = JSON.parse(readFileSync(join(dir, name), 'utf8'));
  const suite = name.replace(/\.json$/, '');
  const before = failures.length;
  for (const file of report.testResults) {
    const where = `${suite} ${file.name.replace(/^.*?\/(test|src)\//, '$1/')}`;
    const failedTests = file.assertionResults.filter((t) => t.status === 'failed');
    // No test is skipped on purpose here, so one that did not run (its worker died, say) is named.
    for (const test of file.assertionResults.filter((t) => t.status !== 'failed' && t.status !== 'passed'))
      notRun.push(`NOT RUN ${where} › ${test.fullName} (${test.status})`);
    for (const test of failedTests) {
      const failure = test.failureMessages[0] ?? '';
      const message = failure.split('\n')[0].slice(0, 400);
      // The test file's own line in the stack says which step failed (a timeout's message does not).
      const line = stackLine(failure, basename(file.name));
      failures.push(
        `FAILED ${where}${line ? `:${line}` : ''} › ${test.fullName} (${(test.duration / 1000).toFixed(0)} s): ${message}`,
      );
    }
    // A file that failed outside its tests (a hook, an import) has no failed test to show.
    if (file.status === 'failed' && failedTests.length === 0)
      failures.push(`FAILED ${where}: ${(file.message ?? '').split('\n')[0].slice(0, 160)}`);
  }
  // A run that failed without naming a test or file (say, vitest itself) still counts as one failure.
  if (!report.success && failures.length === before)
    failures.push(`FAILED ${suite}: the run did not succeed`);
  // Vitest exits 1 on an error outside every test (an unhandled rejection, a worker that would not stop) and
  // still writes a successful report: the exit code `make test` kept says so, and the suite's log says why.
  const exitCode = readIfThere(join(dir, `${suite}.exit`))?.trim();
  if (exitCode && exitCode !== '0' && failures.length === before)
    failures.push(`FAILED ${suite}: exited ${exitCode} with every test passed: ${outsideError(suite)}`);
  const suiteFailed = failures.length - before;
  console.log(`${suite.padEnd(18)} ${report.numPassedTests} passed, ${suiteFailed} failed`);
  passed += report.numPassedTests;
  failed += suiteFailed;
  skipped += report.numPendingTests + report.numTodoTests;
}
for (const line of [...notRun, ...failures]) console.log(line);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
