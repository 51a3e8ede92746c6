// The reader child of sandbox.ts: runs one task at a time and answers with its value or its input error.
import { Worker } from 'node:worker_threads';
import { EngineInputError } from '../errors.js';
import { decodePdfPageHere, type Doc } from './decode.js';
import { inspectInput } from './inspect.js';
import type { SandboxReply, SandboxTask, SandboxValue } from './sandbox.js';
import { renderThumbnail } from './thumbnail.js';

/** The document of the latest decode task: its pages arrive one after another. */
let held: Doc | undefined;

async function perform(task: SandboxTask): Promise<SandboxValue> {
  if (task.op === 'inspect') return inspectInput(Buffer.from(task.bytes), task.limits);
  if (task.op === 'thumbnail') return renderThumbnail(Buffer.from(task.bytes), { width: task.width });
  if (task.bytes) {
    held = {
      id: task.docId,
      format: 'pdf',
      pageCount: task.pageSizes.length,
      pageSizes: task.pageSizes.map((s) => ({ ...s, unit: 'pt' })),
      bytes: task.bytes,
    };
  }
  if (held?.id !== task.docId) throw new Error('the reader does not hold this document');
  return decodePdfPageHere(held, task.index);
}

process.on('message', (task: SandboxTask) => {
  perform(task).then(
    (value) => process.send!({ ok: true, value } satisfies SandboxReply),
    (error: unknown) => {
      const reply: SandboxReply =
        error instanceof EngineInputError
          ? { ok: false, code: error.code, message: error.message }
          : { ok: false, error: error instanceof Error ? error.message : String(error) };
      process.send!(reply);
    },
  );
});
/**
 * The same ceiling from inside, on a thread of its own (it runs while a decode holds the main thread): past
 * the memory budget, or once the parent is gone (its watch went with it), this process ends itself.
 */
const watchdog = `
  const { workerData } = require('node:worker_threads');
  setInterval(() => {
    const over = process.memoryUsage.rss() > workerData.limitMb * 1024 * 1024;
    if (over || process.ppid !== workerData.ppid) process.kill(process.pid, 'SIGKILL');
  }, 25);
`;
new Worker(watchdog, {
  eval: true,
  workerData: { limitMb: Number(process.argv[2]), ppid: process.ppid },
}).unref();

process.send!({ ready: true });

// The parent went away (its thread or process ended): nothing will ask again.
process.on('disconnect', () => process.exit(0));
