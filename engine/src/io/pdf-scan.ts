// Scanned PDFs usually hold one JPEG per page, drawn over the whole page. Such a page is decoded straight from
// its JPEG bytes (sharp): the same pixels pdfjs would paint at the scan's resolution, several times faster. Any
// other page (vector content, several images, masks, unusual colour spaces) returns null and is rendered.
import {
  PDFArray,
  PDFDict,
  type PDFDocument,
  PDFName,
  PDFNumber,
  PDFRawStream,
  PDFRef,
  PDFStream,
  decodePDFRawStream,
} from 'pdf-lib';

export interface ScanImage {
  /** The page's JPEG file, as stored in the PDF. */
  jpeg: Uint8Array;
  width: number;
  height: number;
}

const NUMBER = String.raw`(-?[\d.]+)`;
const FULL_PAGE_IMAGE = new RegExp(
  String.raw`^\s*q\s+${Array(6)
    .fill(NUMBER)
    .join(String.raw`\s+`)}\s+cm\s+\/([^\s/]+)\s+Do\s+Q\s*$`,
);
const PLAIN_COLOUR_SPACES = new Set(['/DeviceRGB', '/DeviceGray']);

function contentText(doc: PDFDocument, contents: unknown): string | null {
  const streams = contents instanceof PDFArray ? contents.asArray() : [contents];
  let text = '';
  for (const item of streams) {
    const stream = item instanceof PDFRef ? doc.context.lookup(item) : item;
    if (stream instanceof PDFRawStream)
      text += Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1');
    else if (stream instanceof PDFStream) text += Buffer.from(stream.getContents()).toString('latin1');
    else return null;
    text += '\n';
  }
  return text;
}

function isPlainJpeg(dict: PDFDict): boolean {
  const filter = dict.get(PDFName.of('Filter'));
  const filterName = filter instanceof PDFArray && filter.size() === 1 ? filter.get(0) : filter;
  if (String(filterName) !== '/DCTDecode') return false;
  if (dict.get(PDFName.of('SMask')) || dict.get(PDFName.of('Mask')) || dict.get(PDFName.of('Decode')))
    return false;
  const bits = dict.get(PDFName.of('BitsPerComponent'));
  if (!(bits instanceof PDFNumber) || bits.asNumber() !== 8) return false;
  return PLAIN_COLOUR_SPACES.has(String(dict.get(PDFName.of('ColorSpace'))));
}

/** The page's scan image when the page is exactly one plain JPEG drawn over the whole (unrotated) page. */
export function findScanImage(doc: PDFDocument, pageIndex: number): ScanImage | null {
  const page = doc.getPage(pageIndex);
  if (page.getRotation().angle % 360 !== 0) return null;
  const { width: pageWidth, height: pageHeight } = page.getSize();
  const text = contentText(doc, page.node.get(PDFName.of('Contents')));
  const match = text === null ? null : FULL_PAGE_IMAGE.exec(text);
  if (!match) return null;
  const [a, b, c, d, e, f] = match.slice(1, 7).map(Number);
  const name = match[7]!;
  const near = (x: number | undefined, y: number) => x !== undefined && Math.abs(x - y) <= 0.5;
  if (!near(a, pageWidth) || !near(d, pageHeight) || !near(b, 0) || !near(c, 0) || !near(e, 0) || !near(f, 0))
    return null;
  const xobjects = page.node.Resources()?.lookup(PDFName.of('XObject'));
  const image = xobjects instanceof PDFDict ? xobjects.lookup(PDFName.of(name)) : undefined;
  if (!(image instanceof PDFRawStream) || !isPlainJpeg(image.dict)) return null;
  const width = image.dict.lookup(PDFName.of('Width'));
  const height = image.dict.lookup(PDFName.of('Height'));
  if (!(width instanceof PDFNumber) || !(height instanceof PDFNumber)) return null;
  return { jpeg: image.contents, width: width.asNumber(), height: height.asNumber() };
}
