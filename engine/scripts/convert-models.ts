// Writes engine/models/*.onnx from the TF.js weights inside the @upscalerjs npm packages.
// Usage: npm run models -w @folio/engine [-- --out <dir>] [model ids…]
import { DEFAULT_MODELS_DIR, MODELS } from '../src/models/catalog.js';
import { writeModel } from '../src/models/convert/index.js';

const args = process.argv.slice(2);
const outIndex = args.indexOf('--out');
const outDir = outIndex >= 0 ? args[outIndex + 1] : DEFAULT_MODELS_DIR;
if (outDir === undefined) throw new Error('--out needs a directory');
const wanted = args.filter((_, i) => i !== outIndex && i !== outIndex + 1);
const unknown = wanted.filter((id) => !MODELS.some((m) => m.id === id));
if (unknown.length > 0) {
  console.error(`unknown model id(s): ${unknown.join(', ')}; known: ${MODELS.map((m) => m.id).join(', ')}`);
  process.exit(2);
}

for (const spec of MODELS.filter((m) => wanted.length === 0 || wanted.includes(m.id))) {
  const started = performance.now();
  const result = await writeModel(spec, outDir);
  const ms = Math.round(performance.now() - started);
  console.log(
    `${result.id}: ${(result.bytes / 1e6).toFixed(2)} MB ${result.changed ? 'written' : 'unchanged'} (${ms} ms) → ${result.file}`,
  );
}
