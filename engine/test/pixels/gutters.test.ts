// The white rivers between a page's columns, found in its ink: the word guard's evidence that a reading joining two
// columns line by line reads the page wrong.
import { describe, expect, it } from 'vitest';
import { decodePage, loadDocument } from '../../src/io/decode.js';
import { findGutters } from '../../src/pixels/gutters.js';
import { evalFile } from '../helpers.js';
import { textPage } from '../pages.js';

async function evalPage(sample: string) {
  return decodePage(await loadDocument(evalFile(sample, 'clean.png')), 0);
}

describe('findGutters', () => {
  it('finds the gutter between the two columns of a page, under the heading that runs across them', async () => {
    const { image, dpi } = await evalPage('doc_018');
    const gutters = findGutters(image, dpi);
    expect(gutters).toHaveLength(1);
    const [gutter] = gutters;
    // The middle of a 1275-px page, at least 0.1 inch wide.
    expect(gutter!.x0).toBeGreaterThan(560);
    expect(gutter!.x1).toBeLessThan(715);
    expect(gutter!.x1 - gutter!.x0).toBeGreaterThanOrEqual(15);
  });

  it('finds none on a page of one column, nor on blank paper', async () => {
    const { image, dpi } = await evalPage('doc_005');
    expect(findGutters(image, dpi)).toEqual([]);
    expect(findGutters(await textPage({ lines: 20 }), 150)).toEqual([]);
    const blank = {
      width: 400,
      height: 300,
      channels: 1 as const,
      data: new Uint8Array(400 * 300).fill(250),
    };
    expect(findGutters(blank, 150)).toEqual([]);
  });
});
