// The converted ONNX graphs must compute what the original TF.js models compute (pure-JS CPU backend),
// with the custom layers registered by the upscalerjs packages themselves.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs';
import * as ort from 'onnxruntime-node';
import { beforeAll, describe, expect, it } from 'vitest';
import { packageInfo, upscaleModel, type ModelSpec } from '../../src/models/catalog.js';
import {
  ConversionError,
  convertLayersModel,
  convertModel,
  decodeModel,
  loadTfjsLayersModel,
} from '../../src/models/convert/index.js';

interface UpscalerDefinition {
  setup?: (tfjs: typeof tf) => void;
  inputRange: [number, number];
}

const require = createRequire(import.meta.url);

function definition(spec: ModelSpec): UpscalerDefinition {
  return require(`${spec.packageName}/${spec.scale}x`) as UpscalerDefinition;
}

async function runTfjs(spec: ModelSpec, input: Float32Array, size: number): Promise<Float32Array> {
  const def = definition(spec);
  def.setup?.(tf);
  const pkg = packageInfo(spec.packageName);
  const dir = path.join(pkg.dir, path.dirname(spec.modelJson));
  const json = JSON.parse(await readFile(path.join(pkg.dir, spec.modelJson), 'utf8')) as {
    modelTopology: object;
    weightsManifest: { paths: string[]; weights: tf.io.WeightsManifestEntry[] }[];
  };
  const shards = await Promise.all(
    json.weightsManifest.flatMap((g) => g.paths).map((p) => readFile(path.join(dir, p))),
  );
  const weightData = new Uint8Array(Buffer.concat(shards)).buffer;
  const model = await tf.loadLayersModel(
    tf.io.fromMemory({
      modelTopology: json.modelTopology,
      weightSpecs: json.weightsManifest.flatMap((g) => g.weights),
      weightData,
    }),
  );
  const k = (def.inputRange[1] - def.inputRange[0]) / 255;
  const output = tf.tidy(() =>
    (model.predict(tf.tensor4d(input, [1, size, size, 3]).mul(k)) as tf.Tensor).div(k),
  );
  const data = (await output.data()) as Float32Array;
  output.dispose();
  model.dispose();
  return data;
}

async function runOnnx(
  bytes: Uint8Array,
  input: Float32Array,
  size: number,
): Promise<{ data: Float32Array; dims: readonly number[] }> {
  const nchw = new Float32Array(input.length);
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++)
      for (let c = 0; c < 3; c++) nchw[(c * size + y) * size + x] = input[(y * size + x) * 3 + c]!;
  const session = await ort.InferenceSession.create(bytes);
  const result = await session.run({ input: new ort.Tensor('float32', nchw, [1, 3, size, size]) });
  await session.release();
  const output = result.output!;
  return { data: output.data as Float32Array, dims: output.dims };
}

function noiseImage(size: number): Float32Array {
  const data = new Float32Array(size * size * 3);
  let seed = 12345;
  for (let i = 0; i < data.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    // Smooth gradient plus noise: something like image content, not only extremes.
    data[i] = Math.min(255, ((i % (size * 3)) * 2 + (seed % 64)) % 256);
  }
  return data;
}

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('TF.js → ONNX conversion', () => {
  // thick is ~30x slower in pure-JS TF.js, so it runs on an 8 px input to keep the suite fast.
  const cases = (
    [
      [upscaleModel('slim', 2), 32],
      [upscaleModel('slim', 4), 32],
      [upscaleModel('medium', 2), 32],
      [upscaleModel('thick', 2), 8],
    ] as const
  ).map(([spec, size]) => ({ id: spec.id, spec, size }));

  it.each(cases)(
    '$id matches TF.js within 2e-4 (0..1 scale)',
    async ({ spec, size }) => {
      expect(definition(spec).inputRange).toEqual(spec.inputRange);
      const input = noiseImage(size);
      const bytes = await convertModel(spec);
      const onnx = await runOnnx(bytes, input, size);
      const reference = await runTfjs(spec, input, size);
      const out = size * spec.scale;
      expect(onnx.dims).toEqual([1, 3, out, out]);
      let maxDiff = 0;
      for (let y = 0; y < out; y++)
        for (let x = 0; x < out; x++)
          for (let c = 0; c < 3; c++) {
            const diff = Math.abs(onnx.data[(c * out + y) * out + x]! - reference[(y * out + x) * 3 + c]!);
            maxDiff = Math.max(maxDiff, diff);
          }
      expect(maxDiff / 255).toBeLessThan(2e-4);
      // The output is an image, not zeros: the comparison above would be vacuous otherwise.
      expect(Math.max(...reference.subarray(0, 3000))).toBeGreaterThan(50);
    },
    60_000,
  );

  it('writes the same bytes every time and records the source in metadata', async () => {
    const spec = upscaleModel('slim', 2);
    const first = await convertModel(spec);
    const second = await convertModel(spec);
    expect(Buffer.from(first).equals(Buffer.from(second))).toBe(true);
    const meta = Object.fromEntries(decodeModel(first).metadataProps.map((p) => [p.key, p.value]));
    expect(meta).toMatchObject({
      'source.package': '@upscalerjs/esrgan-slim',
      'source.license': 'MIT',
      'folio.scale': '2',
    });
  });

  it('refuses layers it cannot translate', async () => {
    const pkg = packageInfo('@upscalerjs/esrgan-slim');
    const model = await loadTfjsLayersModel(path.join(pkg.dir, 'models/x2/model.json'));
    const layer = model.json.modelTopology.model_config.config.layers.find(
      (l) => l.class_name === 'Activation',
    );
    expect(layer).toBeDefined();
    layer!.class_name = 'GaussianNoise';
    expect(() =>
      convertLayersModel(model, { graphName: 'broken', inputRange: [0, 255], metadata: {} }),
    ).toThrow(ConversionError);
  });

  it('npm run models writes the files the converter produces, and refuses unknown ids', async () => {
    const out = await mkdtemp(path.join(tmpdir(), 'folio-convert-'));
    try {
      const script = path.join(import.meta.dirname, '../../scripts/convert-models.ts');
      const log = execFileSync(
        process.execPath,
        ['--import', 'tsx', script, '--out', out, 'esrgan-slim-x4'],
        {
          encoding: 'utf8',
        },
      );
      expect(log).toMatch(/esrgan-slim-x4: .* written/);
      const written = await readFile(path.join(out, 'esrgan-slim-x4.onnx'));
      expect(written.equals(await convertModel(upscaleModel('slim', 4)))).toBe(true);
      const again = execFileSync(
        process.execPath,
        ['--import', 'tsx', script, '--out', out, 'esrgan-slim-x4'],
        {
          encoding: 'utf8',
        },
      );
      expect(again).toMatch(/unchanged/);
      const bad = spawnSync(process.execPath, ['--import', 'tsx', script, '--out', out, 'esrgan-huge-x9'], {
        encoding: 'utf8',
      });
      expect(bad.status).toBe(2);
      expect(bad.stderr).toMatch(/unknown model id/);
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  }, 30_000);
});
