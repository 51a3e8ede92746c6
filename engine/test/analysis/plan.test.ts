import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { planDocumentSteps, planPage, speckShare } from '../../src/analysis/plan.js';
import { createDefaultRegistry } from '../../src/steps/index.js';
import { textPage } from './pages.js';
import type { RawImage } from '../../src/image.js';
import { crop } from '../steps/helpers.js';
import path from 'node:path';
import { publicSet } from '../helpers.js';

async function whole(sample: string, file: string): Promise<RawImage> {
  const { data, info } = await sharp(path.join(publicSet, sample, file))
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height, channels: 3 };
}

/** An old print: blacks lifted, contrast compressed. */
function fade(img: RawImage, lift: number, gain: number): RawImage {
  return { ...img, data: img.data.map((v) => Math.round(lift + v * gain)) };
}

describe('page routing', () => {
  it('sends a strongly faded photo with no ink to the photo plan, not the document steps', async () => {
    const plan = planPage(fade(await whole('photo_002', 'clean.png'), 40, 0.6), 150, 'auto');
    expect(plan.kind).toBe('mixed');
    const names = plan.steps.map((s) => s.name);
    expect(names).toContain('restore-fade');
    expect(names).not.toContain('flatten-background');
  });

  it('sends a lightly faded, sepia-tinted colour photo (blacks still present) to the photo plan', async () => {
    const photo = await whole('photo_001', 'clean.png');
    const tint = [1, 0.93, 0.82];
    const sepia = { ...photo, data: photo.data.map((v, i) => Math.round((30 + v * 0.6) * tint[i % 3]!)) };
    const plan = planPage(sepia, 150, 'auto');
    expect(plan.kind).toBe('mixed');
    expect(plan.features.colourfulShare).toBeLessThan(0.3);
    expect(plan.steps.map((s) => s.name)).not.toContain('flatten-background');
  });

  it('keeps a phone photo of a letter (mixed, with ink and a dark desk) on the document plan', async () => {
    const plan = planPage(await whole('doc_014', 'degraded.png'), 150, 'auto');
    expect(plan.kind).toBe('mixed');
    expect(plan.steps.map((s) => s.name)).toContain('flatten-background');
  });

  it('plans a light blur for a soft low-resolution scan, not for sharp print', async () => {
    const soft = planPage(await whole('doc_028', 'degraded.png'), 150, 'auto');
    const sharpPrint = planPage(await whole('doc_016', 'clean.png'), 150, 'auto');
    expect(soft.measures.edgeBlur).toBeGreaterThanOrEqual(0.7);
    expect(soft.steps.map((s) => s.name)).toContain('smooth-document');
    expect(sharpPrint.measures.edgeBlur).toBeLessThan(0.6);
    expect(sharpPrint.steps.map((s) => s.name)).not.toContain('smooth-document');
  });

  it('plans text pages as documents', async () => {
    const page = await crop('doc_011', 'degraded.png', { left: 0, top: 0, width: 1275, height: 1650 });
    expect(planPage(page, 150, 'auto').kind).toBe('document');
  });

  it("plans the median on the network's page where softened salt and pepper left lone dots, not on a clean page", async () => {
    // doc_024: salt and pepper under JPEG. Its dots are soft and several pixels wide, so the one-pixel speck
    // measure stays under its threshold; the network leaves them as lone dots.
    const net = createDefaultRegistry().get('restore-page-net');
    const damaged = await whole('doc_024', 'degraded.png');
    const clean = await whole('doc_024', 'clean.png');
    expect(speckShare(damaged)).toBeLessThan(0.0005);
    const steps = (img: RawImage, cleaned: boolean) =>
      planDocumentSteps(img, 150, undefined, cleaned).steps.map((s) => s.name);
    expect(steps(await net.run(damaged, {}), true)).toContain('remove-salt-pepper');
    // Not on the page as it came without one-pixel specks (stains and bleed-through break into lone dots there),
    // and clean print has few lone dots.
    expect(steps(damaged, false)).not.toContain('remove-salt-pepper');
    expect(steps(await net.run(clean, {}), true)).not.toContain('remove-salt-pepper');
  });

  it('plans the median for one-pixel salt and pepper on the page as it came', async () => {
    const damaged = await whole('doc_021', 'degraded.png');
    expect(speckShare(damaged)).toBeGreaterThan(0.0005);
    expect(planDocumentSteps(damaged, 150).steps.map((s) => s.name)).toContain('remove-salt-pepper');
  });

  it('plans no median for small serif print, whose stops and serifs look like one-pixel specks', () => {
    // FreeSerif at 16 px (7.7 pt at 150 DPI): as many one-pixel features as light salt and pepper, each beside
    // its glyph. The median would take letters apart ("integrity" read as "integnty").
    const page = textPage({ size: 16, font: 'FreeSerif', width: 1275, height: 1650 });
    expect(speckShare(page)).toBeGreaterThan(0.0005);
    expect(planDocumentSteps(page, 150).steps.map((s) => s.name)).not.toContain('remove-salt-pepper');
  });
});
