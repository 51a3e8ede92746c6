// PDF/A-2b parts of a restored PDF: the sRGB output intent (an ICC profile built here, so no system file is
// needed), the XMP metadata that names the conformance level, matching document info, and a file identifier.
// The text layer's font is embedded by encode.ts (LiberationSans from pdfjs-dist, subset).
import { randomBytes } from 'node:crypto';
import { PDFHexString, PDFName, PDFString, type PDFDocument } from 'pdf-lib';

function s15Fixed16(v: number): number {
  return Math.round(v * 65536) | 0;
}

/** A tag's data padded to four bytes, as the ICC format wants. */
function padded(bytes: Buffer): Buffer {
  return Buffer.concat([bytes, Buffer.alloc((4 - (bytes.length % 4)) % 4)]);
}

function xyzTag(x: number, y: number, z: number): Buffer {
  const b = Buffer.alloc(20);
  b.write('XYZ ', 0, 'ascii');
  b.writeInt32BE(s15Fixed16(x), 8);
  b.writeInt32BE(s15Fixed16(y), 12);
  b.writeInt32BE(s15Fixed16(z), 16);
  return b;
}

function textTag(text: string): Buffer {
  return Buffer.concat([Buffer.from('text\0\0\0\0', 'ascii'), Buffer.from(`${text}\0`, 'ascii')]);
}

/** ICC v2 textDescriptionType: ASCII, then empty Unicode and ScriptCode parts. */
function descTag(text: string): Buffer {
  const ascii = Buffer.from(`${text}\0`, 'ascii');
  const head = Buffer.alloc(12);
  head.write('desc', 0, 'ascii');
  head.writeUInt32BE(ascii.length, 8);
  // Unicode language and count (0), ScriptCode code (0) and count (0), 67 bytes of ScriptCode.
  return Buffer.concat([head, ascii, Buffer.alloc(4 + 4 + 2 + 1 + 67)]);
}

/** The sRGB transfer curve (IEC 61966-2-1) as a 1024-entry table. */
function srgbCurveTag(): Buffer {
  const n = 1024;
  const b = Buffer.alloc(12 + 2 * n);
  b.write('curv', 0, 'ascii');
  b.writeUInt32BE(n, 8);
  for (let i = 0; i < n; i++) {
    const v = i / (n - 1);
    const linear = v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    b.writeUInt16BE(Math.round(linear * 65535), 12 + 2 * i);
  }
  return b;
}

/**
 * A display profile for sRGB (ICC v2: primaries adapted to D50 with Bradford, the sRGB curve), small enough to
 * build on every call (about 2.5 KB).
 */
export function srgbIccProfile(): Buffer {
  const curve = srgbCurveTag();
  const tags: [string, Buffer][] = [
    ['desc', descTag('sRGB IEC61966-2.1')],
    ['cprt', textTag('No copyright, use freely')],
    ['wtpt', xyzTag(0.9642, 1.0, 0.8249)],
    ['rXYZ', xyzTag(0.4361, 0.2225, 0.0139)],
    ['gXYZ', xyzTag(0.3851, 0.7169, 0.0971)],
    ['bXYZ', xyzTag(0.1431, 0.0606, 0.7141)],
    ['rTRC', curve],
    ['gTRC', curve],
    ['bTRC', curve],
  ];
  const tableSize = 4 + 12 * tags.length;
  const table = Buffer.alloc(tableSize);
  table.writeUInt32BE(tags.length, 0);
  const data: Buffer[] = [];
  const placed = new Map<Buffer, number>();
  let offset = 128 + tableSize;
  tags.forEach(([sig, bytes], i) => {
    let at = placed.get(bytes);
    if (at === undefined) {
      at = offset;
      placed.set(bytes, at);
      data.push(padded(bytes));
      offset += padded(bytes).length;
    }
    table.write(sig, 4 + 12 * i, 'ascii');
    table.writeUInt32BE(at, 8 + 12 * i);
    table.writeUInt32BE(bytes.length, 12 + 12 * i);
  });
  const header = Buffer.alloc(128);
  header.writeUInt32BE(offset, 0);
  header.writeUInt32BE(0x02100000, 8); // version 2.1
  header.write('mntrRGB XYZ ', 12, 'ascii');
  // Creation date: 2026-01-01 00:00:00 (fixed, so the profile is the same bytes every time).
  [2026, 1, 1, 0, 0, 0].forEach((v, i) => header.writeUInt16BE(v, 24 + 2 * i));
  header.write('acsp', 36, 'ascii');
  header.writeInt32BE(s15Fixed16(0.9642), 68);
  header.writeInt32BE(s15Fixed16(1.0), 72);
  header.writeInt32BE(s15Fixed16(0.8249), 76);
  return Buffer.concat([header, table, ...data]);
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** XMP packet declaring PDF/A-2b, with the same producer, creator tool and dates as the info dictionary. */
export function pdfaXmp(meta: { producer: string; creator: string; date: Date }): string {
  const iso = meta.date.toISOString().replace(/\.\d+Z$/, 'Z');
  return `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/"
    xmlns:xmp="http://ns.adobe.com/xap/1.0/"
    xmlns:pdf="http://ns.adobe.com/pdf/1.3/">
   <pdfaid:part>2</pdfaid:part>
   <pdfaid:conformance>B</pdfaid:conformance>
   <xmp:CreatorTool>${escapeXml(meta.creator)}</xmp:CreatorTool>
   <xmp:CreateDate>${iso}</xmp:CreateDate>
   <xmp:ModifyDate>${iso}</xmp:ModifyDate>
   <pdf:Producer>${escapeXml(meta.producer)}</pdf:Producer>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>`;
}

/**
 * Marks a document as PDF/A-2b: info dictionary, XMP metadata (uncompressed), the sRGB output intent and a file
 * identifier. The pages must already meet the rest (embedded fonts, device colours under the output intent).
 */
export function makePdfA(pdf: PDFDocument, producer: string): void {
  const date = new Date(Math.floor(Date.now() / 1000) * 1000);
  const creator = producer;
  pdf.setProducer(producer);
  pdf.setCreator(creator);
  pdf.setCreationDate(date);
  pdf.setModificationDate(date);
  const { context, catalog } = pdf;
  const metadata = context.stream(Buffer.from(pdfaXmp({ producer, creator, date }), 'utf8'), {
    Type: 'Metadata',
    Subtype: 'XML',
  });
  catalog.set(PDFName.of('Metadata'), context.register(metadata));
  const profile = context.flateStream(srgbIccProfile(), { N: 3 });
  const intent = context.obj({
    Type: 'OutputIntent',
    S: 'GTS_PDFA1',
    OutputConditionIdentifier: PDFString.of('sRGB IEC61966-2.1'),
    Info: PDFString.of('sRGB IEC61966-2.1'),
    DestOutputProfile: context.register(profile),
  });
  catalog.set(PDFName.of('OutputIntents'), context.obj([context.register(intent)]));
  const id = PDFHexString.of(randomBytes(16).toString('hex'));
  context.trailerInfo.ID = context.obj([id, id]);
}
