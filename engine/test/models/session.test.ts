// Model load failures surface as typed errors, and a session is created once per thread.
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeModel } from '../../src/models/convert/index.js';
import {
  ModelLoadError,
  configureModels,
  releaseSessions,
  sessionFor,
  upscale,
  upscaleModel,
} from '../../src/models/index.js';

let dir = '';
const grey = { width: 8, height: 8, channels: 1 as const, data: new Uint8Array(64).fill(128) };

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'folio-models-'));
  configureModels({ modelsDir: dir, intraOpThreads: 1 });
});

afterAll(async () => {
  await releaseSessions();
  await rm(dir, { recursive: true, force: true });
});

describe('model sessions', () => {
  it('reports a missing model file as ModelLoadError "missing"', async () => {
    const error = await upscale(grey, { scale: 2, model: 'medium' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelLoadError);
    expect(error).toMatchObject({ code: 'missing', modelId: 'esrgan-medium-x2' });
  });

  it('reports a corrupt model file as ModelLoadError "invalid", and recovers once the file is fixed', async () => {
    const spec = upscaleModel('slim', 2);
    const good = await writeModel(spec, path.join(dir, 'good'));
    await writeFile(path.join(dir, spec.file), Buffer.from('not an onnx model, just some bytes'));
    const error = await upscale(grey, { scale: 2, model: 'slim' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelLoadError);
    expect(error).toMatchObject({ code: 'invalid', modelId: 'esrgan-slim-x2' });

    await copyFile(good.file, path.join(dir, spec.file));
    const out = await upscale(grey, { scale: 2, model: 'slim' });
    expect(out.width).toBe(16);
  });

  it('creates one session per model and thread, loading it once for concurrent callers', async () => {
    const spec = upscaleModel('slim', 2);
    const a = sessionFor(spec.id, spec.file);
    expect(sessionFor(spec.id, spec.file)).toBe(a);
    const [s1, s2] = await Promise.all([a.load(), a.load()]);
    expect(s1).toBe(s2);
  });
});
