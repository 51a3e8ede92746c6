// PDF bombs (generated in test/fixtures/pdf-bombs.ts) against the bounds of src/io/pdf-bounds.ts: every path
// that parses or draws a PDF refuses them with `too_complex`, and a process doing so stays far below 2 GB.
import { afterEach, describe, expect, it } from 'vitest';
import { EngineInputError, inspectInput, PDF_BOUNDS, renderThumbnail } from '../../src/index.js';
import { decodePage, loadDocument, MAX_PAGE_PIXELS } from '../../src/io/decode.js';
import { checkPdfPage, jpegFrameSize, openWithPdfLib } from '../../src/io/pdf-bounds.js';
import sharp from 'sharp';
import * as bombs from '../fixtures/pdf-bombs.js';
import { measurePdfRun } from '../fixtures/pdf-run.js';

const limits = { maxPages: 50, maxPixels: MAX_PAGE_PIXELS };

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(EngineInputError);
  return (error as EngineInputError).code;
}

async function checkPage(bytes: Buffer): Promise<void> {
  const doc = await openWithPdfLib(bytes);
  expect(doc).not.toBeNull();
  checkPdfPage(doc!, 0);
}

const refused: Record<string, () => Buffer> = {
  'one 20000 × 20000 Flate image': () => bombs.hugeImagePdf(),
  'the huge image inside a form': () => bombs.hugeImageInFormPdf(),
  'the huge image as a soft mask': () => bombs.hugeSoftMaskPdf(),
  'the huge image inline': () => bombs.hugeInlineImagePdf(),
  'forms nested 8 deep, each drawn 10 times': () => bombs.nestedFormsPdf(8, 10),
  'forms nested 4 deep (11110 draws)': () => bombs.nestedFormsPdf(4, 10),
  'a form that draws itself': () => bombs.selfDrawingFormPdf(),
  '10 MB of line operators in one Flate stream': () => bombs.lineOperatorsPdf(10),
  '1 MB of line operators (125000 path segments)': () => bombs.lineOperatorsPdf(1),
  'a content stream inflating to 512 MiB': () => bombs.contentInflateBombPdf(512),
  'a 100 × 100 image whose JPEG frame says 20000 × 20000': () => bombs.lyingJpegPdf(),
};

describe('checkPdfPage', () => {
  for (const [name, make] of Object.entries(refused)) {
    it(`refuses ${name} as too complex, with a message fit for a user`, async () => {
      const error = await checkPage(make()).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(EngineInputError);
      expect((error as EngineInputError).code).toBe('too_complex');
      expect((error as EngineInputError).message).toMatch(/too complex/);
    });
  }

  it('accepts ordinary pages just under the bounds', async () => {
    await checkPage(bombs.plainVectorPdf());
    await checkPage(bombs.nestedFormsPdf(3, 10)); // 1110 form draws
    await checkPage(bombs.lineOperatorsPdf(0.7)); // 87500 path segments
    await checkPage(bombs.hugeImagePdf(6000)); // a 36-megapixel scan
    await checkPage(bombs.lyingJpegPdf(6000)); // a JPEG of 36 megapixels, larger than its dictionary says
  });

  it('reads the frame size of real JPEGs, and of none past the bytes it inflates', async () => {
    const jpeg = await sharp({ create: { width: 321, height: 123, channels: 3, background: '#804020' } })
      .withMetadata({ exif: { IFD0: { ImageDescription: 'x'.repeat(2000) } } })
      .jpeg()
      .toBuffer();
    expect(jpegFrameSize(jpeg)).toBe(321 * 123);
    expect(jpegFrameSize(Buffer.from('not a jpeg'))).toBeUndefined();
    const hidden = await openWithPdfLib(bombs.hiddenFrameJpegPdf());
    expect(() => checkPdfPage(hidden!, 0)).not.toThrow();
  });
});

describe('PDF bombs in the engine paths', () => {
  it('inspectInput, renderThumbnail and decodePage refuse the three bombs with too_complex', async () => {
    for (const bytes of [bombs.hugeImagePdf(), bombs.nestedFormsPdf(), bombs.lineOperatorsPdf()]) {
      expect(await refusal(inspectInput(bytes, limits))).toBe('too_complex');
      expect(await refusal(renderThumbnail(bytes, { width: 560 }))).toBe('too_complex');
      expect(await refusal(loadDocument(bytes).then((doc) => decodePage(doc, 0)))).toBe('too_complex');
    }
  });

  it('a file pdf-lib cannot pre-check is checked on its pdfjs operator list', async () => {
    // Encrypted with an empty password: pdfjs opens it, pdf-lib sees ciphertext.
    const bytes = bombs.encryptedLineOperatorsPdf();
    expect(await openWithPdfLib(bytes)).toBeNull();
    expect(await refusal(inspectInput(bytes, limits))).toBe('too_complex');
    expect(await refusal(renderThumbnail(bytes, { width: 560 }))).toBe('too_complex');
    expect(await refusal(loadDocument(bytes).then((doc) => decodePage(doc, 0)))).toBe('too_complex');
  });

  it('a page of extreme proportions gets no giant preview canvas', async () => {
    expect(await refusal(renderThumbnail(bombs.extremePagePdf(), { width: 560 }))).toBe('too_complex');
  });

  it('an ordinary vector page is still inspected and previewed', async () => {
    const bytes = bombs.plainVectorPdf();
    expect((await inspectInput(bytes, limits)).pageCount).toBe(1);
    expect((await renderThumbnail(bytes, { width: 120 })).mime).toBe('image/webp');
  });

  describe('render time budget', () => {
    const budget = PDF_BOUNDS.renderTimeoutMs;
    afterEach(() => {
      PDF_BOUNDS.renderTimeoutMs = budget;
    });

    it('a page that draws past the budget is stopped and refused', async () => {
      // 40000 strokes across the whole page: within every other bound, several seconds to draw.
      PDF_BOUNDS.renderTimeoutMs = 300;
      const started = Date.now();
      expect(await refusal(renderThumbnail(bombs.strokedLinesPdf(40_000), { width: 560 }))).toBe(
        'too_complex',
      );
      expect(Date.now() - started).toBeLessThan(60_000); // generous: it only proves the render was stopped
    });
  });

  it(
    'a process that previews or decodes a bomb stays under 2 GB resident and answers too_complex',
    async () => {
      for (const bytes of [bombs.hugeImagePdf(), bombs.nestedFormsPdf(), bombs.lineOperatorsPdf()]) {
        for (const op of ['thumbnail', 'decode'] as const) {
          const run = await measurePdfRun(op, bytes, { capMb: 2048, limitS: 120 });
          expect(run.killed).toBeUndefined();
          expect(run.peakRssMb).toBeLessThan(2048);
          expect(run.outcome).toBe('too_complex');
        }
      }
    },
    15 * 60_000,
  );
});
