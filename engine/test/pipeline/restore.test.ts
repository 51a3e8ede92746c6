import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import {
  EngineInputError,
  closeEnginePool,
  loadDocument,
  restore,
  restorePage,
  type RestoreProgress,
  type StepCall,
} from '../../src/index.js';
import { buildPdf } from '../../src/io/encode.js';
import { evalFile, fixturesDir, publicSet } from '../helpers.js';

const testSteps = path.join(fixturesDir, 'test-steps.mjs');

afterAll(async () => {
  await closeEnginePool();
});

async function pdfPages(bytes: Uint8Array) {
  const pdf = await getDocument({ data: new Uint8Array(bytes), verbosity: 0 }).promise;
  const pages = [];
  for (let i = 1; i <= pdf.numPages; i++) {
    const page = await pdf.getPage(i);
    const { width, height } = page.getViewport({ scale: 1 });
    const text = (await page.getTextContent()).items.map((it) => ('str' in it ? it.str : '')).join(' ');
    pages.push({ width, height, text });
  }
  await pdf.destroy();
  return pages;
}

describe('restore', () => {
  it('restores a scanned PDF page by page, keeping page count and sizes, with progress after each page', async () => {
    const input = evalFile('pdf_001', 'degraded.pdf');
    const progress: RestoreProgress[] = [];
    // Two cheap steps keep the test fast; the measured plan is exercised by the image tests and the benchmark.
    const steps: StepCall[] = [
      { name: 'whiten-paper', params: {} },
      { name: 'flatten-background', params: { dpi: 150 } },
    ];
    // The text layer is tested below; here it is left out to keep this test quick.
    const result = await restore(input, { steps, ocr: false, onProgress: (p) => progress.push(p) });
    expect(result).toMatchObject({ mime: 'application/pdf', extension: 'pdf' });
    expect(result.pages.map((p) => p.ok)).toEqual([true, true, true]);
    expect(result.pages.every((p) => p.kind === 'document' && p.steps.includes('flatten-background'))).toBe(
      true,
    );
    expect(progress).toHaveLength(3);
    expect(progress.at(-1)).toEqual({ currentPage: 3, totalPages: 3, successfulPages: 3, failedPages: 0 });
    expect(progress.map((p) => p.currentPage)).toEqual([1, 2, 3]);
    const before = await pdfPages(input);
    const after = await pdfPages(result.bytes);
    expect(after.map((p) => [Math.round(p.width), Math.round(p.height)])).toEqual(
      before.map((p) => [Math.round(p.width), Math.round(p.height)]),
    );
  });

  it('keeps PNG as PNG with its DPI, and JPEG as JPEG', async () => {
    const png = await restore(evalFile('doc_027', 'degraded.png'));
    expect(png).toMatchObject({ mime: 'image/png', extension: 'png' });
    const meta = await sharp(png.bytes).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 1275, height: 1650, density: 150 });
    const jpeg = await restore(evalFile('photo_001', 'degraded.jpg'));
    expect(jpeg).toMatchObject({ mime: 'image/jpeg', extension: 'jpg' });
    expect((await sharp(jpeg.bytes).metadata()).format).toBe('jpeg');
    expect(jpeg.pages[0]!.kind).toBe('photo');
    // A whole page with the word guard's two OCR passes: allow for a busy 2-core machine.
  }, 300_000);

  it('keeps a multi-page TIFF multi-page', async () => {
    const page = await sharp(evalFile('doc_021', 'degraded.png'))
      .extract({ left: 0, top: 0, width: 600, height: 500 })
      .png()
      .toBuffer();
    const tiff = await sharp([page, page], { join: { animated: true } })
      .withMetadata({ density: 150 })
      .tiff()
      .toBuffer();
    const result = await restore(tiff, { mode: 'document' });
    expect(result.mime).toBe('image/tiff');
    expect((await sharp(result.bytes).metadata()).pages).toBe(2);
  });

  it('reports a failing step as a failed page and still produces the document', async () => {
    const input = evalFile('pdf_001', 'degraded.pdf');
    const progress: RestoreProgress[] = [];
    const result = await restore(input, {
      stepModules: [testSteps],
      steps: [{ name: 'test-fail', params: {} }],
      onProgress: (p) => progress.push(p),
    });
    expect(result.pages.every((p) => !p.ok && p.error?.includes('deliberate step failure'))).toBe(true);
    expect(progress.at(-1)).toEqual({ currentPage: 3, totalPages: 3, successfulPages: 0, failedPages: 3 });
    expect((await pdfPages(result.bytes)).length).toBe(3);
  });

  it('stops a page that exceeds its time limit and keeps the original', async () => {
    const input = evalFile('doc_030', 'degraded.png');
    const result = await restore(input, {
      stepModules: [testSteps],
      // A step that never yields is stopped by ending its thread, once the grace to stop by itself is over.
      steps: [{ name: 'test-spin', params: { ms: 60_000 } }],
      pageTimeoutMs: 1_500,
      stopGraceMs: 1_000,
    });
    expect(result.pages[0]).toMatchObject({ ok: false });
    expect(result.pages[0]!.error).toMatch(/took longer than 1500 ms/);
    expect(Buffer.from(result.bytes).equals(input)).toBe(true);
  });

  it('stops an aborted page before its next step, without ending its thread in the step it is in', async () => {
    // Ending a thread inside a native call (an ONNX run) aborts the whole process, so a page asked to stop
    // finishes the step it is in and stops before the next one: the call settles only after that step.
    const doc = await loadDocument(evalFile('doc_030', 'degraded.png'));
    const startedFile = path.join(mkdtempSync(path.join(tmpdir(), 'folio-stop-')), 'started');
    const controller = new AbortController();
    const page = restorePage(doc, 0, {
      stepModules: [testSteps],
      steps: [{ name: 'test-spin', params: { ms: 2_000, startedFile } }],
      signal: controller.signal,
    });
    const outcome = page.then(
      () => 'restored',
      (error: Error) => error.message,
    );
    await expect.poll(() => existsSync(startedFile), { timeout: 30_000, interval: 20 }).toBe(true);
    controller.abort(new Error('taken away'));
    expect(await outcome).toBe('taken away');
    // Settled once the step ended (2 s after it started), not at the abort.
    expect(Date.now()).toBeGreaterThanOrEqual(Number(readFileSync(startedFile, 'utf8')) + 2_000);
  });

  it('refuses bad input with a typed error', async () => {
    await expect(restore(Buffer.from('not a document'))).rejects.toBeInstanceOf(EngineInputError);
    await expect(loadDocument(Buffer.alloc(0))).rejects.toMatchObject({ code: 'empty' });
  });

  it('reads a PDF in a worker thread and brings its typed errors back as they were', async () => {
    const pdf = evalFile('pdf_003', 'degraded.pdf');
    const doc = await loadDocument(pdf);
    expect(doc.pageCount).toBe(5);
    const [first] = await pdfPages(pdf);
    expect(doc.pageSizes[0]).toMatchObject({ width: first!.width, height: first!.height, unit: 'pt' });

    const truncated = loadDocument(pdf.subarray(0, Math.floor(pdf.length / 2)));
    await expect(truncated).rejects.toBeInstanceOf(EngineInputError);
    await expect(truncated).rejects.toMatchObject({ code: 'corrupt' });
    const encrypted = loadDocument(readFileSync(path.join(fixturesDir, 'encrypted.pdf')));
    await expect(encrypted).rejects.toBeInstanceOf(EngineInputError);
    await expect(encrypted).rejects.toMatchObject({
      code: 'encrypted',
      message: 'This PDF is password-protected. Please remove the password and upload it again.',
    });
  });
});

describe('PDF text layer', () => {
  it('makes a restored scanned PDF searchable: the measured plan, the word guard and OCR all on', async () => {
    const input = evalFile('pdf_001', 'degraded.pdf');
    const result = await restore(input);
    expect(result.pages.map((p) => p.ok)).toEqual([true, true, true]);
    const before = await pdfPages(input);
    const after = await pdfPages(result.bytes);
    expect(after.map((p) => [Math.round(p.width), Math.round(p.height)])).toEqual(
      before.map((p) => [Math.round(p.width), Math.round(p.height)]),
    );
    // Known words of page 1 are found on page 1, and nearly all of its words overall.
    const found = new Set(after[0]!.text.split(/\s+/).filter(Boolean));
    for (const word of ['Interim', 'Minutes', 'Inspection', 'Westgate', 'Dental', 'vouchers', 'salaries']) {
      expect(found).toContain(word);
    }
    const truth = readFileSync(path.join(publicSet, 'pdf_001', 'text_p01.txt'), 'utf8').split(/\s+/);
    const words = truth.filter(Boolean);
    const recall = words.filter((w) => found.has(w)).length / words.length;
    expect(recall).toBeGreaterThan(0.9);
    for (const [i, page] of after.entries()) expect(page.text.length, `page ${i + 1}`).toBeGreaterThan(500);
  }, 600_000);

  it('writes invisible words that pdfjs can extract', async () => {
    const image = await sharp({ create: { width: 850, height: 1100, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer();
    const bytes = await buildPdf(
      [
        {
          widthPt: 612,
          heightPt: 792,
          image: { bytes: image, mime: 'image/png', width: 850, height: 1100 },
          words: [
            { text: 'Invoice', confidence: 95, x0: 100, y0: 100, x1: 220, y1: 130 },
            { text: 'No.', confidence: 90, x0: 230, y0: 100, x1: 270, y1: 130 },
            { text: 'ET-7045', confidence: 91, x0: 280, y0: 100, x1: 400, y1: 130 },
          ],
        },
      ],
      new Uint8Array(),
    );
    const [page] = await pdfPages(bytes);
    expect(page!.text).toContain('Invoice');
    expect(page!.text).toContain('ET-7045');
  });
});
