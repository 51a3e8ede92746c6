// The trained network's cost on a 150-DPI letter page of the eval set (1275×1650), with ONNX Runtime on 1 and on
// 2 intra-op threads: the median of 5 runs after a warm-up, and the process's peak resident memory.
// Usage: npm run bench:page-net -w @folio/engine [-- --page doc_001]
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { decodePage, loadDocument } from '../src/io/decode.js';
import { PAGE_NET_FILE, runPageNet } from '../src/models/page-net.js';
import { configureModels, releaseSessions } from '../src/models/session.js';
import { evalDir } from './settings.js';

const { values } = parseArgs({ options: { page: { type: 'string', default: 'doc_001' } } });

const dir = path.join(evalDir, 'public', values.page);
const file = readdirSync(dir).find((f) => f.startsWith('degraded.'))!;
const { image, dpi } = await decodePage(await loadDocument(await readFile(path.join(dir, file))), 0);
console.log(`${PAGE_NET_FILE}: ${values.page} ${image.width}×${image.height} at ${dpi} DPI`);
for (const threads of [1, 2]) {
  await releaseSessions();
  configureModels({ intraOpThreads: threads });
  await runPageNet(image); // loads the session
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    await runPageNet(image);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  console.log(
    `${threads} thread(s): median ${times[2]!.toFixed(0)} ms (min ${times[0]!.toFixed(0)}, max ${times[4]!.toFixed(0)})`,
  );
}
console.log(`peak resident memory ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
await releaseSessions();
