// The neural models the engine knows: where their TF.js weights come from (npm packages) and where the
// converted ONNX files live. `npm run models -w @folio/engine` writes them; nothing is downloaded.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export type UpscaleModelSize = 'slim' | 'medium' | 'thick';
export type UpscaleFactor = 2 | 4;

export interface ModelSpec {
  id: string;
  /** npm package holding the TF.js weights */
  packageName: string;
  /** model.json inside the package */
  modelJson: string;
  /** value range the original model works in */
  inputRange: [number, number];
  scale: UpscaleFactor;
  size: UpscaleModelSize;
  file: string;
}

/** engine/models, next to src/: git-ignored, filled by the convert script. */
export const DEFAULT_MODELS_DIR = path.resolve(import.meta.dirname, '../../models');

export const UPSCALE_SIZES: readonly UpscaleModelSize[] = ['slim', 'medium', 'thick'];
export const UPSCALE_FACTORS: readonly UpscaleFactor[] = [2, 4];

export function upscaleModelId(size: UpscaleModelSize, scale: UpscaleFactor): string {
  return `esrgan-${size}-x${scale}`;
}

export function upscaleModel(size: UpscaleModelSize, scale: UpscaleFactor): ModelSpec {
  const id = upscaleModelId(size, scale);
  return {
    id,
    packageName: `@upscalerjs/esrgan-${size}`,
    modelJson: `models/x${scale}/model.json`,
    // slim and medium are RDN networks trained on 0..255; thick is an RRDN trained on 0..1.
    inputRange: size === 'thick' ? [0, 1] : [0, 255],
    scale,
    size,
    file: `${id}.onnx`,
  };
}

export const MODELS: readonly ModelSpec[] = UPSCALE_SIZES.flatMap((size) =>
  UPSCALE_FACTORS.map((scale) => upscaleModel(size, scale)),
);

export interface PackageInfo {
  dir: string;
  name: string;
  version: string;
  license: string;
}

const require = createRequire(import.meta.url);

/** Finds an installed package's folder (the upscalerjs packages do not export package.json). */
export function packageInfo(packageName: string): PackageInfo {
  let dir = path.dirname(require.resolve(packageName));
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest)) {
      const json = JSON.parse(readFileSync(manifest, 'utf8')) as {
        name?: string;
        version?: string;
        license?: string;
      };
      if (json.name === packageName) {
        return { dir, name: packageName, version: json.version ?? '?', license: json.license ?? '?' };
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`package ${packageName} is not installed`);
    dir = parent;
  }
}
