// Prints ms per 256 px tile for each upscaling model on this machine.
// Usage: npm run bench:models -w @folio/engine -- [--threads 2] [--runs 5] [model ids…]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { MODELS } from '../src/models/catalog.js';
import { writeModel } from '../src/models/convert/index.js';
import { OnnxSession } from '../src/models/session.js';

const args = process.argv.slice(2);
function flag(name: string, fallback: number): number {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}
const threads = flag('--threads', 2);
const runs = flag('--runs', 5);
const tile = flag('--tile', 256);
const ids = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));

const dir = await mkdtemp(path.join(tmpdir(), 'folio-bench-models-'));
try {
  console.log(
    `tile ${tile}×${tile} px input, ${threads} intra-op thread(s), median of ${runs} runs after 1 warm-up`,
  );
  for (const spec of MODELS.filter((m) => ids.length === 0 || ids.includes(m.id))) {
    const written = await writeModel(spec, dir);
    const session = new OnnxSession(spec.id, written.file, threads);
    const loadStart = performance.now();
    await session.load();
    const loadMs = performance.now() - loadStart;
    const input = new Float32Array(3 * tile * tile);
    for (let i = 0; i < input.length; i++) input[i] = (i * 37) % 256;
    const times: number[] = [];
    for (let r = 0; r <= runs; r++) {
      const start = performance.now();
      await session.run({ input: new ort.Tensor('float32', input, [1, 3, tile, tile]) });
      if (r > 0) times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)]!;
    const mb = (written.bytes / 1e6).toFixed(2);
    console.log(
      `${spec.id.padEnd(18)} ${mb.padStart(6)} MB  load ${loadMs.toFixed(0).padStart(4)} ms  ${median.toFixed(0).padStart(6)} ms/tile  (${((tile * tile) / median / 1000).toFixed(2)} Mpx/s input)`,
    );
    await session.release();
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
