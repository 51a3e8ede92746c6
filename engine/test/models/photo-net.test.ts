import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { duplicatedLines, enlargement } from '../../src/analysis/measure-photo.js';
import { PHOTO_NET_STEP, planPhoto } from '../../src/analysis/plan-photo.js';
import type { RawImage } from '../../src/image.js';
import { photoNetAvailable, runPhotoNet } from '../../src/models/photo-net.js';
import { closeEnginePool, restore } from '../../src/index.js';
import { crop, psnr, rawOf } from '../steps/helpers.js';

afterAll(async () => {
  await closeEnginePool();
});

/** The clean astronaut photo of the public set (512×512 RGB). */
const astronaut = () => crop('photo_001', 'clean.png', { left: 0, top: 0, width: 512, height: 512 });

const sharpOf = (img: RawImage) =>
  sharp(img.data, { raw: { width: img.width, height: img.height, channels: img.channels } });

/** The photo reduced `factor`× and enlarged back to its size, as a web thumbnail blown up. */
async function enlarged(
  img: RawImage,
  factor: number,
  kernel: 'nearest' | 'linear' | 'cubic',
): Promise<RawImage> {
  const small = await rawOf(
    sharpOf(img).resize(Math.round(img.width / factor), Math.round(img.height / factor), {
      kernel: 'mitchell',
    }),
  );
  return rawOf(sharpOf(small).resize(img.width, img.height, { kernel }));
}

async function jpeg(img: RawImage, quality: number): Promise<RawImage> {
  return rawOf(sharp(await sharpOf(img).jpeg({ quality }).toBuffer()));
}

describe('the trained photo network (engine/weights/photo-net.onnx)', () => {
  it('is committed with the engine', () => {
    expect(photoNetAvailable()).toBe(true);
  });

  it('brings an enlarged small photo closer to the original than the enlargement', async () => {
    const clean = await astronaut();
    for (const [factor, kernel] of [
      [3, 'linear'],
      [2.5, 'nearest'],
    ] as const) {
      const damaged = await enlarged(clean, factor, kernel);
      const out = await runPhotoNet(damaged);
      expect(out).toMatchObject({ width: 512, height: 512, channels: 3 });
      expect(psnr(out, clean)).toBeGreaterThan(psnr(damaged, clean) + 0.3);
    }
  });

  it('also takes the blocks out of a JPEG of an enlarged photo', async () => {
    const clean = await astronaut();
    const damaged = await jpeg(await enlarged(clean, 3, 'cubic'), 20);
    expect(psnr(await runPhotoNet(damaged), clean)).toBeGreaterThan(psnr(damaged, clean) + 0.3);
  });

  it('keeps a grey photo grey and leaves a sharp photo nearly as it is', async () => {
    const grey = await crop('photo_004', 'clean.png', { left: 0, top: 0, width: 256, height: 200 }, true);
    const out = await runPhotoNet(grey);
    expect(out).toMatchObject({ width: 256, height: 200, channels: 1 });
    // RMS change under 4.5 grey levels (the plan runs it on enlarged photos only).
    expect(psnr(out, grey)).toBeGreaterThan(35);
  });

  it('gives the same pixels whether a photo runs in one window or in several', async () => {
    const damaged = await enlarged(await astronaut(), 3, 'linear');
    const whole = await runPhotoNet(damaged);
    const windows = await runPhotoNet(damaged, 60_000);
    expect(psnr(whole, windows)).toBeGreaterThan(50);
  });
});

describe('the photo plan and the network', () => {
  it('measures repeated pixels only where a photo was enlarged by repeating them', async () => {
    const clean = await astronaut();
    expect(duplicatedLines(clean)).toBe(0);
    expect(duplicatedLines(await enlarged(clean, 2, 'nearest'))).toBeGreaterThan(0.45);
    expect(duplicatedLines(await enlarged(clean, 3, 'linear'))).toBeLessThan(0.05);
  });

  it("finds an enlargement's period, also under JPEG, and none in a photo", async () => {
    const clean = await astronaut();
    expect(enlargement(clean).strength).toBeLessThan(5);
    expect(enlargement(await jpeg(clean, 20)).strength).toBeLessThan(5);
    for (const factor of [2.5, 3.3]) {
      const found = enlargement(await jpeg(await enlarged(clean, factor, 'nearest'), 30));
      expect(found.strength).toBeGreaterThan(8);
      expect(found.period).toBeCloseTo(factor, 0);
    }
  });

  it('plans the network for enlarged photos, and not for JPEG alone or where it is not wanted', async () => {
    const clean = await astronaut();
    const names = (img: RawImage, photoNet: boolean) =>
      planPhoto(img, {}, { photoNet }).steps.map((s) => s.name);
    for (const damaged of [
      await enlarged(clean, 3, 'linear'),
      await enlarged(clean, 2.5, 'nearest'),
      await jpeg(await enlarged(clean, 3, 'cubic'), 20),
      await jpeg(await enlarged(clean, 3.3, 'nearest'), 30),
    ]) {
      expect(names(damaged, true)).toEqual([PHOTO_NET_STEP]);
      expect(names(damaged, false)).not.toContain(PHOTO_NET_STEP);
    }
    expect(names(await jpeg(clean, 15), true)).not.toContain(PHOTO_NET_STEP);
    expect(names(clean, true)).toEqual([]);
  });
});

describe('restoring an enlarged photo', () => {
  it('runs the network by default, and the classical steps with photoNet: false', async () => {
    const damaged = await enlarged(await astronaut(), 3, 'linear');
    const png = await sharpOf(damaged).png().toBuffer();
    const [withNet] = (await restore(png)).pages;
    const [classical] = (await restore(png, { photoNet: false })).pages;
    expect(withNet?.steps).toEqual([PHOTO_NET_STEP]);
    expect(classical?.steps).toEqual(['deblur-photo']);
  });
});
