import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { decodePage, loadDocument } from '../../src/io/decode.js';
import { openPdf, renderPdfPage } from '../../src/io/pdf.js';
import { openWithPdfLib } from '../../src/io/pdf-bounds.js';
import { findScanImage } from '../../src/io/pdf-scan.js';
import { evalFile } from '../helpers.js';

describe('scanned PDF pages', () => {
  it('decodes a page that is one full-page JPEG straight from its JPEG, like the renderer would', async () => {
    const bytes = evalFile('pdf_001', 'degraded.pdf');
    const pdf = await openWithPdfLib(bytes);
    const scan = pdf && findScanImage(pdf, 0);
    expect(scan).not.toBeNull();
    expect([...scan!.jpeg.subarray(0, 2)]).toEqual([0xff, 0xd8]);

    const doc = await loadDocument(bytes);
    const page = await decodePage(doc, 0);
    expect(page.image.width).toBe(scan!.width);
    expect(page.image.height).toBe(scan!.height);
    expect(page.dpi).toBe(Math.round((scan!.width * 72) / doc.pageSizes[0]!.width));

    // The renderer at the same resolution paints the same picture (its own JPEG decoder may round differently).
    const rendered = await renderPdfPage(await openPdf(bytes), 0, page.dpi);
    expect([rendered.width, rendered.height]).toEqual([page.image.width, page.image.height]);
    let diff = 0;
    const n = page.image.width * page.image.height;
    for (let i = 0; i < n; i++)
      diff += Math.abs(page.image.data[i * page.image.channels]! - rendered.data[i * rendered.channels]!);
    expect(diff / n).toBeLessThan(2);
  });

  it('leaves pages with other content to the renderer', async () => {
    const pdf = await PDFDocument.create();
    const page = pdf.addPage([612, 792]);
    page.drawText('Vector text, no scan', {
      x: 72,
      y: 700,
      font: await pdf.embedFont(StandardFonts.Helvetica),
    });
    const bytes = await pdf.save();
    expect(findScanImage((await openWithPdfLib(bytes))!, 0)).toBeNull();
    const doc = await loadDocument(bytes);
    const decoded = await decodePage(doc, 0);
    expect(decoded.dpi).toBe(200);
    expect(decoded.image.width).toBe(Math.round((612 * 200) / 72));
  });
});
