// Upscaling real crops of the public eval set with a converted model (written to a temp folder first).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RawImage } from '../../src/image.js';
import { writeModel } from '../../src/models/convert/index.js';
import { configureModels, releaseSessions, upscale, upscaleModel } from '../../src/models/index.js';
import { publicSet } from '../helpers.js';

const EVAL = publicSet;
let modelsDir = '';

async function crop(file: string, left: number, top: number, size: number, grey = false): Promise<RawImage> {
  const { data, info } = await sharp(file)
    .extract({ left, top, width: size, height: size })
    .toColourspace(grey ? 'b-w' : 'srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    data: new Uint8Array(data),
    width: info.width,
    height: info.height,
    channels: info.channels as 1 | 3,
  };
}

async function resize(img: RawImage, width: number, height: number): Promise<RawImage> {
  const data = await sharp(Buffer.from(img.data), {
    raw: { width: img.width, height: img.height, channels: img.channels },
  })
    .resize(width, height, { kernel: 'cubic' })
    // sharp widens grey to sRGB unless told to keep one channel
    .toColourspace(img.channels === 1 ? 'b-w' : 'srgb')
    .raw()
    .toBuffer();
  return { data: new Uint8Array(data), width, height, channels: img.channels };
}

function psnr(a: RawImage, b: RawImage): number {
  let se = 0;
  for (let i = 0; i < a.data.length; i++) se += (a.data[i]! - b.data[i]!) ** 2;
  return 10 * Math.log10((255 * 255) / (se / a.data.length));
}

beforeAll(async () => {
  modelsDir = await mkdtemp(path.join(tmpdir(), 'folio-models-'));
  await writeModel(upscaleModel('slim', 2), modelsDir);
  await writeModel(upscaleModel('slim', 4), modelsDir);
  configureModels({ modelsDir, intraOpThreads: 2 });
});

afterAll(async () => {
  await releaseSessions();
  await rm(modelsDir, { recursive: true, force: true });
});

describe('upscale', () => {
  it('doubles a greyscale page crop and beats bicubic', async () => {
    const clean = await crop(path.join(EVAL, 'doc_005/clean.png'), 100, 200, 192, true);
    const small = await resize(clean, 96, 96);
    const bicubic = await resize(small, 192, 192);
    const restored = await upscale(small, { scale: 2, model: 'slim', tile: 64, overlap: 8 });
    expect([restored.width, restored.height, restored.channels]).toEqual([192, 192, 1]);
    expect(psnr(clean, restored)).toBeGreaterThan(psnr(clean, bicubic) + 0.5);
  });

  it('beats bicubic on a photo at x4', async () => {
    const clean = await crop(path.join(EVAL, 'photo_001/clean.png'), 128, 128, 192);
    const small = await resize(clean, 48, 48);
    const bicubic = await resize(small, 192, 192);
    const restored = await upscale(small, { scale: 4, model: 'slim' });
    expect([restored.width, restored.height, restored.channels]).toEqual([192, 192, 3]);
    expect(psnr(clean, restored)).toBeGreaterThan(psnr(clean, bicubic));
  });

  it('gives the same picture tiled as in one piece', async () => {
    const img = await crop(path.join(EVAL, 'photo_001/clean.png'), 200, 100, 120);
    const whole = await upscale(img, { scale: 2, model: 'slim', tile: 256 });
    const tiled = await upscale(img, { scale: 2, model: 'slim', tile: 64, overlap: 12 });
    let sum = 0;
    for (let i = 0; i < whole.data.length; i++) sum += Math.abs(whole.data[i]! - tiled.data[i]!);
    expect(sum / whole.data.length).toBeLessThan(0.5);
  });

  it('keeps the alpha channel of RGBA images', async () => {
    const rgb = await crop(path.join(EVAL, 'photo_001/clean.png'), 0, 0, 40);
    const rgba: RawImage = { width: 40, height: 40, channels: 4, data: new Uint8Array(40 * 40 * 4) };
    for (let i = 0; i < 40 * 40; i++) {
      rgba.data.set(rgb.data.subarray(i * 3, i * 3 + 3), i * 4);
      rgba.data[i * 4 + 3] = i % 40 < 20 ? 255 : 0;
    }
    const out = await upscale(rgba, { scale: 2, model: 'slim' });
    expect([out.width, out.height, out.channels]).toEqual([80, 80, 4]);
    expect(out.data[(10 * 80 + 5) * 4 + 3]).toBe(255);
    expect(out.data[(10 * 80 + 75) * 4 + 3]).toBe(0);
  });

  it('rejects a buffer that does not match its size', async () => {
    const bad: RawImage = { width: 10, height: 10, channels: 3, data: new Uint8Array(10) };
    await expect(upscale(bad, { scale: 2, model: 'slim' })).rejects.toThrow(RangeError);
    const img: RawImage = { width: 4, height: 4, channels: 1, data: new Uint8Array(16) };
    await expect(upscale(img, { scale: 3 as 2, model: 'slim' })).rejects.toThrow(/scale must be 2 or 4/);
  });
});
