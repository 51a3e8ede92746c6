// A trained network's cost on a sample of the eval set, with ONNX Runtime on 1 and on 2 intra-op threads: the
// median of 5 runs after a warm-up, and the process's peak resident memory. The page network on a 150-DPI letter
// page (1275×1650) by default; `--net photo` the photo network and `--net dust` the dust network on a 741×500 photo.
// Usage: npm run bench:page-net -w @folio/engine [-- --page doc_001] [-- --net photo|dust [--page photo_006]]
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { decodePage, loadDocument } from '../src/io/decode.js';
import { PAGE_NET_FILE, runPageNet } from '../src/models/page-net.js';
import { DUST_NET_FILE, PHOTO_NET_FILE, runDustNet, runPhotoNet } from '../src/models/photo-net.js';
import { configureModels, releaseSessions } from '../src/models/session.js';
import { evalDir } from './settings.js';

const { values } = parseArgs({
  options: { page: { type: 'string' }, net: { type: 'string', default: 'page' } },
});
const nets = {
  page: [PAGE_NET_FILE, runPageNet],
  photo: [PHOTO_NET_FILE, runPhotoNet],
  dust: [DUST_NET_FILE, runDustNet],
} as const;
if (!(values.net in nets)) throw new Error('--net: page, photo or dust');
const [file, run] = nets[values.net as keyof typeof nets];
const sample = values.page ?? (values.net === 'page' ? 'doc_001' : 'photo_006');

const dir = path.join(evalDir, 'public', sample);
const input = readdirSync(dir).find((f) => f.startsWith('degraded.'))!;
const { image, dpi } = await decodePage(await loadDocument(await readFile(path.join(dir, input))), 0);
console.log(`${file}: ${sample} ${image.width}×${image.height} at ${dpi} DPI`);
for (const threads of [1, 2]) {
  await releaseSessions();
  configureModels({ intraOpThreads: threads });
  await run(image); // loads the session
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    await run(image);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  console.log(
    `${threads} thread(s): median ${times[2]!.toFixed(0)} ms (min ${times[0]!.toFixed(0)}, max ${times[4]!.toFixed(0)})`,
  );
}
console.log(`peak resident memory ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
await releaseSessions();
