// What a PDF page may cost, checked with pdf-lib before pdfjs parses or draws it. pdfjs has no operation, time
// or memory limit of its own: one small page can make it decode a 400-megapixel image or run 10⁸ nested form
// draws. The check reads dictionaries and content streams only (inflated with a size cap), never pixels.
import { constants, inflateSync } from 'node:zlib';
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFNumber,
  PDFRawStream,
  PDFRef,
  PDFStream,
  decodePDFRawStream,
  type PDFObject,
} from 'pdf-lib';
import { EngineInputError, inputErrors } from '../errors.js';
import { MAX_PAGE_PIXELS } from './limits.js';

export const PDF_BOUNDS = {
  /** Pixels of any one image a page draws (pdfjs decodes an image whole, at 4 bytes a pixel). */
  maxImagePixels: MAX_PAGE_PIXELS,
  /** Pixels of all the distinct images one page draws. */
  maxPageImagePixels: 2 * MAX_PAGE_PIXELS,
  /** Content one page runs, in decompressed bytes, a form's content counted once per draw. */
  maxContentBytes: 4_000_000,
  /** Path operators per page (m l c v y re): pdfjs joins them into paths it draws in one uninterruptible call. */
  maxPathSegments: 100_000,
  /** Operators of one page in pdfjs's operator list (checked there only when pdf-lib cannot read the file). */
  maxOperators: 500_000,
  /** Form draws per page, nested draws included (pdfjs takes about 2 ms for each). */
  maxFormDraws: 2_000,
  /** Forms drawn inside forms. */
  maxFormDepth: 8,
  /** Streams in filters other than Flate are decoded by pdf-lib with no output cap, so only small ones are. */
  maxOtherFilterBytes: 256 * 1024,
  /** Drawing one page: pdfjs stops past this (a few long strokes over the whole page cost seconds each). */
  renderTimeoutMs: 30_000,
};

interface Cost {
  bytes: number;
  segments: number;
  draws: number;
  images: Map<PDFObject, number>;
}

/**
 * Opens a PDF with pdf-lib; null when pdf-lib cannot (encrypted or damaged: pdfjs reports those properly),
 * including a page tree it loads but cannot walk (a /Pages that is no page tree).
 */
export async function openWithPdfLib(bytes: Uint8Array): Promise<PDFDocument | null> {
  try {
    const doc = await PDFDocument.load(bytes, { updateMetadata: false });
    doc.getPageCount();
    return doc;
  } catch {
    return null;
  }
}

/** Throws the `too_complex` input error when page `pageIndex` (0-based) is over a bound of PDF_BOUNDS. */
export function checkPdfPage(doc: PDFDocument, pageIndex: number): void {
  // pdf-lib and pdfjs can disagree on a damaged page tree; callers check such a page with checkPageOperators.
  if (pageIndex >= doc.getPageCount()) return;
  let cost: Cost;
  try {
    const page = doc.getPage(pageIndex).node;
    cost = new PageWalk(doc).stream(page.Contents(), page.Resources(), 0);
  } catch (error) {
    if (error instanceof EngineInputError) throw error;
    throw inputErrors.corrupt(error);
  }
  let imagePixels = 0;
  for (const pixels of cost.images.values()) imagePixels += pixels;
  if (imagePixels > PDF_BOUNDS.maxPageImagePixels) throw inputErrors.tooComplex();
}

/** checkPdfPage for every page. */
export function checkPdfPages(doc: PDFDocument): void {
  for (let i = 0; i < doc.getPageCount(); i++) checkPdfPage(doc, i);
}

class PageWalk {
  /** Cost of a form, per resource dictionary it was drawn with (a form without its own inherits its parent's). */
  private readonly forms = new Map<PDFObject, Map<PDFDict | undefined, Cost>>();
  private readonly drawing = new Set<PDFObject>();

  constructor(private readonly doc: PDFDocument) {}

  private lookup(object: PDFObject | undefined): PDFObject | undefined {
    return object instanceof PDFRef ? this.doc.context.lookup(object) : object;
  }

  /** The cost of running `contents` (a content stream or an array of them) with `resources`. */
  stream(contents: PDFObject | undefined, resources: PDFDict | undefined, depth: number): Cost {
    const cost: Cost = { bytes: 0, segments: 0, draws: 0, images: new Map() };
    const target = this.lookup(contents);
    const parts = target instanceof PDFArray ? target.asArray().map((part) => this.lookup(part)) : [target];
    for (const part of parts) {
      if (!(part instanceof PDFStream)) continue;
      const text = Buffer.from(decodedContent(part)).toString('latin1');
      const segments = text.match(PATH_OPERATOR)?.length ?? 0;
      this.add(cost, { bytes: text.length, segments, draws: 0, images: new Map() });
      checkInlineImages(text);
      for (const match of text.matchAll(DRAW)) this.draw(cost, match[1]!, resources, depth);
    }
    return cost;
  }

  /** Adds the cost of `/name Do` to `cost`. */
  private draw(cost: Cost, name: string, resources: PDFDict | undefined, depth: number): void {
    const xobjects = this.lookup(resources?.get(PDFName.of('XObject')));
    const ref = xobjects instanceof PDFDict ? xobjects.get(PDFName.of(name)) : undefined;
    const xobject = this.lookup(ref);
    if (!(xobject instanceof PDFStream)) return; // pdfjs skips a missing XObject too
    const subtype = String(xobject.dict.get(PDFName.of('Subtype')));
    if (subtype === '/Image') {
      this.image(cost, xobject);
      return;
    }
    if (subtype !== '/Form') return;
    if (depth + 1 > PDF_BOUNDS.maxFormDepth || this.drawing.has(xobject)) throw inputErrors.tooComplex();
    const own = this.lookup(xobject.dict.get(PDFName.of('Resources')));
    const formResources = own instanceof PDFDict ? own : resources;
    let byResources = this.forms.get(xobject);
    if (!byResources) this.forms.set(xobject, (byResources = new Map<PDFDict | undefined, Cost>()));
    let formCost = byResources.get(formResources);
    if (!formCost) {
      this.drawing.add(xobject);
      formCost = this.stream(xobject, formResources, depth + 1);
      this.drawing.delete(xobject);
      byResources.set(formResources, formCost);
    }
    this.add(cost, { ...formCost, draws: formCost.draws + 1 });
  }

  private image(cost: Cost, image: PDFStream): void {
    for (let current: PDFObject | undefined = image; current instanceof PDFStream;) {
      const width = this.lookup(current.dict.get(PDFName.of('Width')));
      const height = this.lookup(current.dict.get(PDFName.of('Height')));
      const declared =
        width instanceof PDFNumber && height instanceof PDFNumber ? width.asNumber() * height.asNumber() : 0;
      // pdfjs decodes a JPEG at the size its own frame header says, whatever the dictionary claims.
      const pixels = Math.max(declared, jpegFramePixels(current) ?? 0);
      if (!(pixels <= PDF_BOUNDS.maxImagePixels)) throw inputErrors.tooComplex();
      cost.images.set(current, pixels);
      // A soft mask is an image of its own, decoded at its own size.
      current = this.lookup(current.dict.get(PDFName.of('SMask')));
    }
  }

  private add(cost: Cost, more: Cost): void {
    cost.bytes += more.bytes;
    cost.segments += more.segments;
    cost.draws += more.draws;
    for (const [image, pixels] of more.images) cost.images.set(image, pixels);
    if (
      cost.bytes > PDF_BOUNDS.maxContentBytes ||
      cost.segments > PDF_BOUNDS.maxPathSegments ||
      cost.draws > PDF_BOUNDS.maxFormDraws
    )
      throw inputErrors.tooComplex();
  }
}

/** `/Name Do`: an XObject drawn. Strings are not told apart from operators, so a count can only be too high. */
const DRAW = /\/([^\s/[\]()<>{}%]+)\s*Do(?![^\s/[\]()<>{}%])/g;
/** A path construction operator, as a whole token. */
const PATH_OPERATOR = /(?<=^|[\s\])>])(?:[mlcvy]|re)(?=[\s/[(<%]|$)/g;
/** An inline image's dictionary: `BI … ID`. */
const INLINE_IMAGE = /\bBI\b([\s\S]{0,4000}?)\bID\b/g;

function checkInlineImages(text: string): void {
  for (const match of text.matchAll(INLINE_IMAGE)) {
    const dict = match[1]!;
    const width = Number(/\/(?:W|Width)\s+(\d+)/.exec(dict)?.[1] ?? 0);
    const height = Number(/\/(?:H|Height)\s+(\d+)/.exec(dict)?.[1] ?? 0);
    if (width * height > PDF_BOUNDS.maxImagePixels) throw inputErrors.tooComplex();
  }
}

/** A content stream's bytes, decompressed, never more than maxContentBytes + 1 of them. */
function decodedContent(stream: PDFStream): Uint8Array {
  if (!(stream instanceof PDFRawStream)) return stream.getContents();
  const filter = stream.dict.get(PDFName.of('Filter'));
  const filters = filter instanceof PDFArray ? filter.asArray().map(String) : filter ? [String(filter)] : [];
  if (filters.length === 0) return stream.contents;
  const cap = PDF_BOUNDS.maxContentBytes + 1;
  if (filters.every((name) => name === '/FlateDecode' || name === '/Fl')) {
    let data: Uint8Array = stream.contents;
    for (const _ of filters) data = inflateCapped(data, cap);
    return data;
  }
  if (stream.contents.length > PDF_BOUNDS.maxOtherFilterBytes) throw inputErrors.tooComplex();
  try {
    return decodePDFRawStream(stream).decode();
  } catch {
    return stream.contents; // pdfjs cannot read it either, and draws nothing from it
  }
}

/** Compressed bytes inflated to find a JPEG's frame header: at most about 1,000× as many come out (16.5 MB). */
const JPEG_HEAD_BYTES = 16 * 1024;

/**
 * Width × height from the frame header (SOFn) of a DCT-encoded image; undefined when there is none to read (a
 * Flate filter before the DCT one is inflated from the stream's first JPEG_HEAD_BYTES only).
 */
export function jpegFramePixels(stream: PDFStream): number | undefined {
  if (!(stream instanceof PDFRawStream)) return undefined;
  const filter = stream.dict.get(PDFName.of('Filter'));
  const filters = filter instanceof PDFArray ? filter.asArray().map(String) : filter ? [String(filter)] : [];
  const last = filters.at(-1);
  if (last !== '/DCTDecode' && last !== '/DCT') return undefined;
  // A bare JPEG is walked whole (segment to segment, no pixels); behind Flate, as far as its first bytes go.
  const flated = filters.length > 1;
  let head: Uint8Array = flated ? stream.contents.subarray(0, JPEG_HEAD_BYTES) : stream.contents;
  for (const name of filters.slice(0, -1)) {
    if (name !== '/FlateDecode' && name !== '/Fl') return undefined;
    try {
      head = inflateSync(head, { finishFlush: constants.Z_SYNC_FLUSH }).subarray(0, JPEG_HEAD_BYTES);
    } catch {
      return undefined;
    }
  }
  return jpegFrameSize(head);
}

/** Walks a JPEG's marker segments to its frame header; width × height, or undefined when not found. */
export function jpegFrameSize(bytes: Uint8Array): number | undefined {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  for (let at = 2; at + 8 < bytes.length;) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    // SOF0–SOF15, except DHT (C4), JPG (C8) and DAC (CC): precision, height, width follow the length.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      const height = (bytes[at + 5]! << 8) | bytes[at + 6]!;
      const width = (bytes[at + 7]! << 8) | bytes[at + 8]!;
      return width * height;
    }
    if (marker === 0xd9 || marker === 0xda) return undefined; // end of image, or a scan before any frame
    at += 2 + ((bytes[at + 2]! << 8) | bytes[at + 3]!);
  }
  return undefined;
}

function inflateCapped(data: Uint8Array, cap: number): Uint8Array {
  try {
    // A sync flush takes what a truncated stream holds, as pdfjs does.
    return inflateSync(data, { maxOutputLength: cap, finishFlush: constants.Z_SYNC_FLUSH });
  } catch (error) {
    if (error instanceof RangeError) throw inputErrors.tooComplex();
    return data;
  }
}
