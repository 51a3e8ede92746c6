// The reader children of src/io/sandbox.ts: the memory ceiling and time budget behind the PDF page checks.
// The hidden-frame JPEG passes every check of pdf-bounds.ts (its dictionary says 100 × 100, its frame header
// lies past what the checks inflate) and makes pdfjs fill about 3.6 GB; in a reader child it is stopped at the
// ceiling, and the process asking stays small.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { EngineInputError, Sandbox } from '../../src/index.js';
import { decodePage, loadDocument, MAX_PAGE_PIXELS } from '../../src/io/decode.js';
import { checkPdfPage, openWithPdfLib } from '../../src/io/pdf-bounds.js';
import * as bombs from '../fixtures/pdf-bombs.js';

const CEILING_MB = 1536;
const sandbox = new Sandbox({ memoryMb: CEILING_MB, children: 1, idleMs: 5_000 });

afterAll(() => sandbox.close());

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(EngineInputError);
  return (error as EngineInputError).code;
}

function ownPeakMb(): number {
  return Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]) / 1024;
}

describe('reader children', () => {
  it('the JPEG with its frame header hidden passes the page checks', async () => {
    const doc = await openWithPdfLib(bombs.hiddenFrameJpegPdf());
    expect(() => checkPdfPage(doc!, 0)).not.toThrow();
  });

  it('stop a preview at the memory ceiling with too_complex, then serve the next file', async () => {
    const started = Date.now();
    expect(await refusal(sandbox.thumbnail(bombs.hiddenFrameJpegPdf(), 560, 120_000))).toBe('too_complex');
    console.log(
      `hidden-frame JPEG preview: reader peak ${Math.round(sandbox.peakMb)} MB, ${Date.now() - started} ms`,
    );
    // Sampled every 10 ms, and the child watches itself too: it cannot get far past the ceiling.
    expect(sandbox.peakMb).toBeGreaterThan(CEILING_MB * 0.9);
    expect(sandbox.peakMb).toBeLessThan(2048);
    expect(ownPeakMb()).toBeLessThan(2048);
    const thumbnail = await sandbox.thumbnail(bombs.plainVectorPdf(), 120, 60_000);
    expect(thumbnail.mime).toBe('image/webp');
  }, 180_000);

  it('stop a page decode of the hidden-frame JPEG the same way', async () => {
    const doc = await loadDocument(bombs.hiddenFrameJpegPdf());
    expect(await refusal(decodePage(doc, 0))).toBe('too_complex');
    expect(ownPeakMb()).toBeLessThan(2048);
  }, 180_000);

  it('stop a task past its time budget', async () => {
    const started = Date.now();
    expect(await refusal(sandbox.thumbnail(bombs.strokedLinesPdf(40_000), 560, 500))).toBe('too_complex');
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 60_000);

  it('answer input errors and values as the engine does in process', async () => {
    expect(
      await refusal(
        sandbox.inspect(Buffer.from('%PDF-1.7 broken'), { maxPages: 5, maxPixels: MAX_PAGE_PIXELS }, 30_000),
      ),
    ).toBe('corrupt');
    const info = await sandbox.inspect(
      bombs.plainVectorPdf(),
      { maxPages: 5, maxPixels: MAX_PAGE_PIXELS },
      30_000,
    );
    expect(info).toMatchObject({ format: 'pdf', pageCount: 1 });
    const page = await decodePage(await loadDocument(bombs.plainVectorPdf()), 0);
    expect(page.dpi).toBe(200);
    expect(page.image.width).toBe(1700);
  }, 60_000);
});
