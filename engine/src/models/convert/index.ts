// Turns a catalogue entry into its ONNX file. Deterministic: same package version → same bytes.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { packageInfo, type ModelSpec } from '../catalog.js';
import { convertLayersModel, loadTfjsLayersModel } from './tfjs-layers.js';

export { ConversionError, convertLayersModel, loadTfjsLayersModel } from './tfjs-layers.js';
export { decodeModel } from './onnx-schema.js';

export async function convertModel(spec: ModelSpec): Promise<Uint8Array> {
  const pkg = packageInfo(spec.packageName);
  const model = await loadTfjsLayersModel(path.join(pkg.dir, spec.modelJson));
  return convertLayersModel(model, {
    graphName: spec.id,
    inputRange: spec.inputRange,
    metadata: {
      'folio.model_id': spec.id,
      'folio.scale': String(spec.scale),
      'source.package': pkg.name,
      'source.version': pkg.version,
      'source.license': pkg.license,
      'source.file': spec.modelJson,
    },
  });
}

export interface WrittenModel {
  id: string;
  file: string;
  bytes: number;
  changed: boolean;
}

/** Converts and writes the model unless an identical file is already there. */
export async function writeModel(spec: ModelSpec, modelsDir: string): Promise<WrittenModel> {
  const bytes = await convertModel(spec);
  const file = path.join(modelsDir, spec.file);
  const existing = await readFile(file).catch(() => undefined);
  if (existing?.equals(bytes)) return { id: spec.id, file, bytes: bytes.length, changed: false };
  await mkdir(modelsDir, { recursive: true });
  // Write then rename, so a reader never sees half a model.
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, bytes);
  await rename(tmp, file);
  return { id: spec.id, file, bytes: bytes.length, changed: true };
}
