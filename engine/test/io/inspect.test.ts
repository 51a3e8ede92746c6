import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { EngineInputError, inspectInput, renderThumbnail, sniffFormat } from '../../src/index.js';
import { evalFile, fixture } from '../helpers.js';

const limits = { maxPages: 50, maxPixels: 50_000_000 };

async function expectInputError(
  promise: Promise<unknown>,
  code: EngineInputError['code'],
): Promise<EngineInputError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(EngineInputError);
  const inputError = error as EngineInputError;
  expect(inputError.code).toBe(code);
  expect(inputError.message.length).toBeGreaterThan(10);
  return inputError;
}

/** A PNG whose header claims a huge size, with valid chunk CRCs, but almost no data. */
function pngBomb(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

async function multiPageTiff(pages: number): Promise<Buffer> {
  const frames = await Promise.all(
    Array.from({ length: pages }, (_, i) =>
      sharp({ create: { width: 60, height: 40, channels: 3, background: { r: 40 * i, g: 200, b: 255 } } })
        .png()
        .toBuffer(),
    ),
  );
  return sharp(frames, { join: { animated: true } })
    .tiff()
    .toBuffer();
}

describe('sniffFormat', () => {
  it('recognises every supported format by its magic bytes', async () => {
    expect(sniffFormat(evalFile('pdf_001', 'degraded.pdf'))).toBe('pdf');
    expect(sniffFormat(evalFile('doc_001', 'degraded.png'))).toBe('png');
    expect(sniffFormat(evalFile('photo_001', 'degraded.jpg'))).toBe('jpeg');
    const small = sharp(evalFile('photo_001', 'degraded.jpg')).resize(16);
    expect(sniffFormat(await small.clone().tiff().toBuffer())).toBe('tiff');
    expect(sniffFormat(await small.clone().webp().toBuffer())).toBe('webp');
  });

  it('returns null for other content', () => {
    expect(sniffFormat(Buffer.from('hello, this is text'))).toBeNull();
    expect(sniffFormat(new Uint8Array(0))).toBeNull();
    expect(sniffFormat(Buffer.from('GIF89a......'))).toBeNull();
  });
});

describe('inspectInput', () => {
  it('reads a real multi-page PDF', async () => {
    const info = await inspectInput(evalFile('pdf_003', 'degraded.pdf'), limits);
    expect(info).toEqual({ format: 'pdf', mime: 'application/pdf', pageCount: 5 });
  });

  it('reads real PNG and JPEG files with their pixel size', async () => {
    expect(await inspectInput(evalFile('doc_001', 'degraded.png'), limits)).toEqual({
      format: 'png',
      mime: 'image/png',
      pageCount: 1,
      width: 1275,
      height: 1650,
    });
    const jpeg = await inspectInput(evalFile('photo_001', 'degraded.jpg'), limits);
    expect(jpeg).toMatchObject({ format: 'jpeg', mime: 'image/jpeg', pageCount: 1, width: 512, height: 512 });
  });

  it('counts the pages of a multi-page TIFF and enforces the page limit on it', async () => {
    const tiff = await multiPageTiff(3);
    expect(await inspectInput(tiff, limits)).toMatchObject({
      format: 'tiff',
      pageCount: 3,
      width: 60,
      height: 40,
    });
    await expectInputError(inspectInput(tiff, { ...limits, maxPages: 2 }), 'too_many_pages');
  });

  it('refuses empty and unsupported files', async () => {
    await expectInputError(inspectInput(Buffer.alloc(0), limits), 'empty');
    await expectInputError(inspectInput(Buffer.from('just some text, not an image'), limits), 'unsupported');
  });

  it('refuses truncated PDFs, PNGs and JPEGs as corrupt', async () => {
    const pdf = evalFile('pdf_001', 'degraded.pdf');
    await expectInputError(inspectInput(pdf.subarray(0, Math.floor(pdf.length / 2)), limits), 'corrupt');
    const png = evalFile('doc_001', 'degraded.png');
    await expectInputError(inspectInput(png.subarray(0, Math.floor(png.length * 0.6)), limits), 'corrupt');
    const jpeg = evalFile('photo_001', 'degraded.jpg');
    await expectInputError(inspectInput(jpeg.subarray(0, Math.floor(jpeg.length * 0.6)), limits), 'corrupt');
    await expectInputError(inspectInput(Buffer.from('%PDF-1.7\nnothing else here'), limits), 'corrupt');
  });

  it('refuses a password-protected PDF', async () => {
    const error = await expectInputError(inspectInput(fixture('encrypted.pdf'), limits), 'encrypted');
    expect(error.message).toMatch(/password/i);
  });

  it('refuses a PDF over the page limit', async () => {
    const error = await expectInputError(
      inspectInput(evalFile('pdf_003', 'degraded.pdf'), { ...limits, maxPages: 4 }),
      'too_many_pages',
    );
    expect(error.message).toContain('5 pages');
  });

  it('refuses decompression bombs from the header alone', async () => {
    await expectInputError(inspectInput(pngBomb(60_000, 60_000), limits), 'too_large_pixels');
    await expectInputError(
      inspectInput(evalFile('doc_001', 'degraded.png'), { ...limits, maxPixels: 1_000_000 }),
      'too_large_pixels',
    );
  });
});

describe('renderThumbnail', () => {
  it('renders page 1 of a PDF at the requested width', async () => {
    const thumb = await renderThumbnail(evalFile('pdf_001', 'degraded.pdf'), { width: 280 });
    expect(thumb.mime).toBe('image/webp');
    const meta = await sharp(thumb.data).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.width).toBe(280);
    expect(meta.height).toBeGreaterThan(300); // US letter is portrait
    const stats = await sharp(thumb.data).stats();
    expect(stats.channels[0]!.mean).toBeGreaterThan(150); // a page, mostly paper
    expect(stats.channels[0]!.stdev).toBeGreaterThan(10); // with print on it
  });

  it('renders images at the requested width', async () => {
    const thumb = await renderThumbnail(evalFile('photo_002', 'degraded.png'), { width: 120 });
    const meta = await sharp(thumb.data).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 120 });
  });

  it('reports bad input with typed errors', async () => {
    await expectInputError(renderThumbnail(Buffer.from('no image'), { width: 100 }), 'unsupported');
    await expectInputError(renderThumbnail(fixture('encrypted.pdf'), { width: 100 }), 'encrypted');
  });
});
