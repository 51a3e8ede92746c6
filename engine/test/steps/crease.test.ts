import { describe, expect, it } from 'vitest';
import { decodePage, loadDocument } from '../../src/io/decode.js';
import { findCreases, repairCreases } from '../../src/steps/crease.js';
import { createDefaultRegistry } from '../../src/steps/index.js';
import { toGrey, type Grey } from '../../src/pixels/index.js';
import { createImage, type RawImage } from '../../src/image.js';
import { evalFile } from '../helpers.js';
import { crop } from './helpers.js';

const steps = createDefaultRegistry();
const WHOLE = { left: 0, top: 0, width: 1275, height: 1650 };

/** A public page as the document steps see it when creases are repaired: white paper, flattened. */
async function flattened(sample: string, file: string): Promise<Grey> {
  let img: RawImage = await crop(sample, file, WHOLE);
  for (const name of ['whiten-paper', 'flatten-background'])
    img = await steps.get(name).run(img, { dpi: 150 });
  return toGrey(img, 'max');
}

const degrees = (radians: number) => (radians * 180) / Math.PI;

describe('repair-creases', () => {
  it('finds the two creases across doc_008 and flattens them, keeping every stroke of the text they cross', async () => {
    const page = await flattened('doc_008', 'degraded.png');
    const creases = findCreases(page, 150);
    // The sample's two creases: rows 0.486 and 0.505 of 1650 at 0.1° and -1.58° (meta.json).
    expect(creases).toHaveLength(2);
    const byRow = [...creases].sort((a, b) => a.offset - b.offset);
    expect(byRow.every((c) => c.horizontal)).toBe(true);
    expect(Math.abs(byRow[0]!.offset - 802)).toBeLessThanOrEqual(6);
    expect(Math.abs(byRow[1]!.offset - 833)).toBeLessThanOrEqual(6);
    expect(Math.abs(Math.abs(degrees(byRow[0]!.angle)) - 0.1)).toBeLessThanOrEqual(0.3);
    expect(Math.abs(Math.abs(degrees(byRow[1]!.angle)) - 1.58)).toBeLessThanOrEqual(0.3);

    const out = repairCreases(page, creases, 150);
    const clean = toGrey(await crop('doc_008', 'clean.png', WHOLE), 'max');
    // Rows 740–900 hold both creases and two lines of text.
    const from = 740 * page.width;
    const to = 900 * page.width;
    const error = (g: Grey) => {
      let sum = 0;
      for (let i = from; i < to; i++) sum += Math.abs(g.data[i]! - clean.data[i]!);
      return sum / (to - from);
    };
    expect(error(out)).toBeLessThan(error(page) * 0.5);
    // Ink of the clean page that was still ink before the repair is still ink after it.
    let ink = 0;
    let kept = 0;
    for (let i = from; i < to; i++) {
      if (clean.data[i]! >= 100 || page.data[i]! >= 128) continue;
      ink++;
      if (out.data[i]! < 128) kept++;
    }
    expect(ink).toBeGreaterThan(1000);
    expect(kept / ink).toBeGreaterThan(0.99);
  });

  it('finds the crease down doc_025, a form with stains and bleed-through', async () => {
    const creases = findCreases(await flattened('doc_025', 'degraded.png'), 150);
    expect(creases).toHaveLength(1);
    expect(creases[0]!.horizontal).toBe(false);
    // Column 0.689 of 1275 at 2.26°.
    expect(Math.abs(creases[0]!.offset - 878)).toBeLessThanOrEqual(6);
  });

  it('finds the fold across page 4 of pdf_003 (a real scan decoded from the PDF)', async () => {
    const { image, dpi } = await decodePage(await loadDocument(evalFile('pdf_003', 'degraded.pdf')), 3);
    const flat = await steps.get('flatten-background').run(toGrey(image, 'max'), { dpi });
    const creases = findCreases(toGrey(flat, 'max'), dpi);
    expect(creases.map((c) => c.horizontal)).toEqual([true]);
  });

  it('leaves forms, tables and their rules alone: no crease on their clean pages, pixels unchanged', async () => {
    for (const sample of ['doc_001', 'doc_006', 'doc_009', 'doc_026']) {
      const page = await flattened(sample, 'clean.png');
      expect(findCreases(page, 150)).toEqual([]);
      const out = toGrey(await steps.get('repair-creases').run(page, { dpi: 150 }), 'max');
      // Compared as bytes: a deep equality of two million array elements takes the test runner a minute.
      expect(Buffer.from(out.data).equals(Buffer.from(page.data))).toBe(true);
    }
  });

  it('leaves two long rules a line apart alone, on white paper and on grainy grey paper that no step whitened', () => {
    // Phone5 profile seed 5502 doc_024, an invoice photographed with a phone: the rules over and under its table's
    // header, 31 px apart, were each taken for a crease shaded by the other, and on its grey paper every line was
    // shaded; repaired, they left grey bands and the page read 0.572 where it read 0.169 before.
    const [width, height] = [1275, 1650];
    for (const [paper, grain] of [
      [255, 0],
      [230, 10],
    ] as const) {
      const page = createImage(width, height, 1) as Grey;
      let seed = 11;
      const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
      for (let i = 0; i < width * height; i++) page.data[i] = Math.round(paper + (rand() - 0.5) * 2 * grain);
      for (const top of [600, 631])
        for (let y = top; y < top + 2; y++) page.data.fill(60, y * width + 100, y * width + 1175);
      expect(findCreases(page, 150), `paper ${paper}`).toEqual([]);
    }
  });
});
