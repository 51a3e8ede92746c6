// Restoring a PDF with one bomb page: that page fails cleanly (the caller refunds it), the others are restored
// and the output keeps every page.
import { PDFDocument } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { closeEnginePool, restore } from '../../src/index.js';
import { hugeImagePdf, nestedFormsPdf, plainVectorPdf } from '../fixtures/pdf-bombs.js';

afterAll(async () => {
  await closeEnginePool();
});

async function joined(files: Buffer[]): Promise<Buffer> {
  const out = await PDFDocument.create();
  for (const bytes of files) {
    const source = await PDFDocument.load(bytes);
    for (const page of await out.copyPages(source, source.getPageIndices())) out.addPage(page);
  }
  return Buffer.from(await out.save());
}

describe('restore with a PDF bomb page', () => {
  it('fails the bomb pages as too complex and restores the ordinary one', async () => {
    const input = await joined([plainVectorPdf(), hugeImagePdf(), nestedFormsPdf()]);
    const result = await restore(input, { mode: 'document', ocr: false });
    expect(result.pages.map((page) => page.ok)).toEqual([true, false, false]);
    for (const page of result.pages.slice(1)) expect(page.error).toMatch(/too complex/);
    expect((await PDFDocument.load(result.bytes)).getPageCount()).toBe(3);
  }, 300_000);
});
