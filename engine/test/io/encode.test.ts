// The restored PDF: small (few-level lossless text pages), a text layer whose word boxes lie on the page's
// words (read back with poppler's pdftotext -bbox), and a PDF/A-2b option. pdf_001 (3 pages, 200 DPI, JPEG
// scans) is restored once for all of them.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFRawStream,
  PDFStream,
  StandardFonts,
  decodePDFRawStream,
} from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeEnginePool, loadDocument, restorePage, type RestoredPage } from '../../src/index.js';
import {
  asStoredInPdf,
  drawTextLayer,
  fewLevelGrey,
  packGrey,
  TEXT_PAGE_BYTES_PER_PIXEL,
} from '../../src/io/encode.js';
import { srgbIccProfile } from '../../src/io/pdfa.js';
import { assembleOutput } from '../../src/pipeline/restore.js';
import { evalFile } from '../helpers.js';

const input = evalFile('pdf_001', 'degraded.pdf');
let dir = '';
let pages: RestoredPage[] = [];
let plain: Uint8Array;
let pdfa: Uint8Array;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'folio-encode-'));
  const doc = await loadDocument(input);
  // All pages are queued at once, so each page's time limit also covers its wait for a pool thread.
  pages = await Promise.all(
    Array.from({ length: doc.pageCount }, (_, i) => restorePage(doc, i, { timeoutMs: 600_000 })),
  );
  plain = (await assembleOutput(doc, pages)).bytes;
  pdfa = (await assembleOutput(doc, pages, { pdfa: true })).bytes;
}, 900_000);

afterAll(async () => {
  await closeEnginePool();
  await rm(dir, { recursive: true, force: true });
});

async function tool(cmd: string, args: string[], bytes: Uint8Array): Promise<string> {
  const file = path.join(dir, `${cmd}-${Math.random().toString(36).slice(2)}.pdf`);
  await writeFile(file, bytes);
  // pdftotext writes to a file unless told '-'; the other poppler tools print.
  const run = spawnSync(cmd, [...args, file, ...(cmd === 'pdftotext' ? ['-'] : [])], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`${cmd} failed: ${run.stderr}`);
  return run.stdout;
}

interface PlacedWord {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** pdftotext -bbox: each page's words with their boxes in points (top-left origin). */
async function bboxWords(bytes: Uint8Array): Promise<PlacedWord[][]> {
  const xhtml = await tool('pdftotext', ['-bbox'], bytes);
  const unescape = (s: string) =>
    s.replace(
      /&(amp|lt|gt|quot|apos);/g,
      (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" })[e]!,
    );
  return xhtml
    .split('<page ')
    .slice(1)
    .map((page) =>
      [
        ...page.matchAll(
          /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)<\/word>/g,
        ),
      ].map((m) => ({ text: unescape(m[5]!), x0: +m[1]!, y0: +m[2]!, x1: +m[3]!, y1: +m[4]! })),
    );
}

/** A stream of a loaded PDF, as stored. */
function raw(stream: PDFStream): PDFRawStream {
  if (!(stream instanceof PDFRawStream)) throw new Error('expected a stored stream');
  return stream;
}

describe('restored PDF size', () => {
  it('is no larger than the scanned input, and each 200-DPI text page takes at most 150 KB', async () => {
    expect(pages.map((p) => [p.kind, p.dpi])).toEqual([
      ['document', 200],
      ['document', 200],
      ['document', 200],
    ]);
    expect(plain.length).toBeLessThanOrEqual(input.length);
    expect(pdfa.length).toBeLessThanOrEqual(input.length);
    const whole = await PDFDocument.load(plain);
    for (let i = 0; i < whole.getPageCount(); i++) {
      const single = await PDFDocument.create();
      const [page] = await single.copyPages(whole, [i]);
      single.addPage(page);
      expect((await single.save({ useObjectStreams: true })).length).toBeLessThanOrEqual(150_000);
    }
  });

  it('keeps the page images at full size with few grey levels', async () => {
    const listed = await tool('pdfimages', ['-list'], plain);
    const rows = listed
      .split('\n')
      .slice(2)
      .filter((l) => l.trim())
      .map((l) => l.trim().split(/\s+/));
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      // page num type width height color comp bpc enc …
      expect(row.slice(3, 6)).toEqual(['1700', '2200', 'gray']);
      expect(Number(row[7])).toBeLessThanOrEqual(4);
    }
  });
});

describe('text layer', () => {
  it.each([
    ['plain', () => plain],
    ['PDF/A', () => pdfa],
  ])('puts each OCR word where pdftotext -bbox finds it (%s)', async (_name, output) => {
    const found = await bboxWords(output());
    expect(found).toHaveLength(pages.length);
    let checked = 0;
    for (const [i, page] of pages.entries()) {
      const scale = 612 / page.width;
      const words = page.words.filter((w) => /^[\x21-\x7e]+$/.test(w.text.trim()));
      expect(words.length).toBeGreaterThan(100);
      for (const word of words) {
        const want = { x0: word.x0 * scale, y0: word.y0 * scale, x1: word.x1 * scale, y1: word.y1 * scale };
        const h = want.y1 - want.y0;
        // Across within 2 pt; down: the descent ends at the box's bottom, the ascent (a font's own) covers its
        // top, reaching at most 0.6 of the box's height above it.
        const placed = found[i]!.some(
          (f) =>
            f.text === word.text.trim() &&
            Math.abs(f.x0 - want.x0) < 2 &&
            Math.abs(f.x1 - want.x1) < 2 &&
            Math.abs(f.y1 - want.y1) <= Math.max(1, 0.15 * h) &&
            f.y0 <= want.y0 + 0.2 * h &&
            f.y0 >= want.y0 - 0.6 * h,
        );
        expect(placed, `${word.text} at ${JSON.stringify(want)}`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(500);
  });

  it('keeps two words apart whose boxes touch, as OCR sometimes reads them', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const word = (text: string, x0: number, x1: number) => ({
      text,
      confidence: 96,
      x0,
      y0: 100,
      x1,
      y1: 130,
    });
    // Public pdf_001 page 2, restored: "Allen." ended where "at" began, and the layer read "Allen.at".
    drawTextLayer(page, font, [word('Allen.', 1067, 1145), word('at', 1145, 1174)], 1700, 2200);
    const [found] = await bboxWords(await doc.save());
    expect(found!.map((w) => w.text)).toEqual(['Allen.', 'at']);
    expect(found![0]!.x1).toBeCloseTo(1145 * (612 / 1700), 0);
  });
});

describe('a page shown as it came', () => {
  it('keeps the source page, its scan untouched, under a text layer on its words', async () => {
    const doc = await loadDocument(input);
    const first = { ...pages[0]!, asInput: true as const };
    const out = (await assembleOutput(doc, [first, ...pages.slice(1)])).bytes;
    const images = (await tool('pdfimages', ['-list'], out))
      .split('\n')
      .slice(2)
      .filter((l) => l.trim())
      .map((l) => l.trim().split(/\s+/));
    const scans = (await tool('pdfimages', ['-list'], input))
      .split('\n')
      .slice(2)
      .filter((l) => l.trim())
      .map((l) => l.trim().split(/\s+/));
    // page num type width height color comp bpc enc …: page 1 holds the scan as it was (JPEG, 8 bits), the
    // restored pages their few grey levels.
    expect(images.map((r) => [r[0], r[8]])).toEqual([
      ['1', scans[0]![8]],
      ['2', 'image'],
      ['3', 'image'],
    ]);
    expect(Number(images[0]![7])).toBe(8);
    const found = (await bboxWords(out))[0]!;
    const scale = 612 / first.width;
    const words = first.words.filter((w) => /^[\x21-\x7e]+$/.test(w.text.trim()));
    expect(words.length).toBeGreaterThan(100);
    const placed = words.filter((w) =>
      found.some(
        (f) =>
          f.text === w.text.trim() && Math.abs(f.x0 - w.x0 * scale) < 2 && Math.abs(f.x1 - w.x1 * scale) < 2,
      ),
    );
    expect(placed.length).toBe(words.length);
  });
});

describe('PDF/A-2b option', () => {
  it('declares PDF/A-2b in XMP metadata matching the info dictionary, with an sRGB output intent and an ID', async () => {
    const pdf = await PDFDocument.load(pdfa, { updateMetadata: false });
    const metadata = raw(pdf.context.lookup(pdf.catalog.get(PDFName.of('Metadata')), PDFStream));
    expect(metadata.dict.get(PDFName.of('Filter'))).toBeUndefined();
    const xmp = Buffer.from(metadata.getContents()).toString('utf8');
    expect(xmp).toContain('<pdfaid:part>2</pdfaid:part>');
    expect(xmp).toContain('<pdfaid:conformance>B</pdfaid:conformance>');
    const created = pdf.getCreationDate()!;
    expect(xmp).toContain(
      `<xmp:CreateDate>${created.toISOString().replace(/\.\d+Z$/, 'Z')}</xmp:CreateDate>`,
    );
    expect(xmp).toContain(`<pdf:Producer>${pdf.getProducer()}</pdf:Producer>`);
    expect(xmp).toContain(`<xmp:CreatorTool>${pdf.getCreator()}</xmp:CreatorTool>`);

    const intents = pdf.catalog.lookup(PDFName.of('OutputIntents'), PDFArray);
    expect(intents.size()).toBe(1);
    const intent = intents.lookup(0, PDFDict);
    expect(intent.get(PDFName.of('S'))).toBe(PDFName.of('GTS_PDFA1'));
    const profile = raw(intent.lookup(PDFName.of('DestOutputProfile'), PDFStream));
    expect(profile.dict.get(PDFName.of('N'))?.toString()).toBe('3');
    const icc = Buffer.from(decodePDFRawStream(profile).decode());
    expect(icc).toEqual(srgbIccProfile());

    expect(pdf.context.trailerInfo.ID).toBeInstanceOf(PDFArray);
    expect((await tool('pdfinfo', [], pdfa)).match(/^PDF version:\s+(.*)$/m)?.[1]).toBe('1.7');
  });

  it('embeds the text layer font and keeps the same words as the plain output', async () => {
    const fonts = (await tool('pdffonts', [], pdfa))
      .split('\n')
      .slice(2)
      .filter((l) => l.trim());
    expect(fonts.length).toBeGreaterThan(0);
    // name type encoding emb sub uni object ID: every font embedded
    for (const line of fonts) expect(line).toMatch(/\s+yes\s+(yes|no)\s+(yes|no)\s+\d+\s+\d+$/);
    // The same words; the order pdftotext reads them in can differ with the fonts' heights.
    const words = async (bytes: Uint8Array) => (await tool('pdftotext', [], bytes)).split(/\s+/).sort();
    const text = await words(pdfa);
    // Nearly every word of the document (its ground truth has 1,019) is in the text layer.
    const truth = evalFile('pdf_001', 'text.txt').toString('utf8').split(/\s+/).filter(Boolean);
    expect(text.length).toBeGreaterThan(0.9 * truth.length);
    // The same characters, hyphens aside: pdftotext joins a word that ends in a hyphen with the next line's first
    // word (dropping the hyphen) where the lines' heights let it, which differs with the font.
    const characters = (ws: string[]) => [...ws.join('').replace(/-/g, '')].sort().join('');
    expect(characters(text)).toBe(characters(await words(plain)));
  });

  it('builds a valid ICC v2 sRGB display profile', () => {
    const icc = srgbIccProfile();
    expect(icc.readUInt32BE(0)).toBe(icc.length);
    expect(icc.toString('ascii', 12, 24)).toBe('mntrRGB XYZ ');
    expect(icc.toString('ascii', 36, 40)).toBe('acsp');
    const tags = icc.readUInt32BE(128);
    const names = Array.from({ length: tags }, (_, i) => icc.toString('ascii', 132 + 12 * i, 136 + 12 * i));
    expect(names.sort()).toEqual(['bTRC', 'bXYZ', 'cprt', 'desc', 'gTRC', 'gXYZ', 'rTRC', 'rXYZ', 'wtpt']);
    for (let i = 0; i < tags; i++) {
      const offset = icc.readUInt32BE(136 + 12 * i);
      const size = icc.readUInt32BE(140 + 12 * i);
      expect(offset % 4).toBe(0);
      expect(offset + size).toBeLessThanOrEqual(icc.length);
    }
  });
});

describe('few-level grey', () => {
  it('packs levels most significant bits first, each row starting on a byte', () => {
    const grey = new Uint8Array([0, 85, 170, 255, 255, 0]);
    expect([...packGrey(grey, 3, 2, 2)]).toEqual([0b00011000, 0b11110000]);
    expect([...packGrey(grey, 6, 1, 1)]).toEqual([0b00111000]);
    expect([...packGrey(grey, 3, 2, 4)]).toEqual([0x05, 0xa0, 0xff, 0x00]);
  });

  it('keeps 16 levels when they fit the budget and falls to fewer when they do not', async () => {
    const [w, h] = [400, 300];
    const paper = new Uint8Array(w * h).fill(255);
    expect((await fewLevelGrey(paper, w, h)).bits).toBe(4);
    let seed = 7;
    const noise = paper.map(() => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 24);
    const chosen = await fewLevelGrey(noise, w, h);
    expect(chosen.bits).toBe(1);
    expect(chosen.data.length).toBeGreaterThan(TEXT_PAGE_BYTES_PER_PIXEL * w * h);
  });

  it('keeps grey ink in black and white, cutting where the ink parts from the paper', async () => {
    const [w, h] = [400, 300];
    let seed = 5;
    const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 24;
    // Grainy paper (200–255: too busy for four levels within the budget) and ink left grey at 150, as a blurred
    // office scan's restored ink. Cut at mid-grey, the ink would be stored as paper.
    const grey = new Uint8Array(w * h).map((_, i) => (i % w < 60 ? 150 : 200 + (random() % 56)));
    expect((await fewLevelGrey(grey, w, h)).bits).toBe(1);
    const stored = await asStoredInPdf({ data: grey, width: w, height: h, channels: 1 });
    const inkStored = stored.data.filter((v, i) => i % w < 60 && v === 0).length;
    const paperStored = stored.data.filter((v, i) => i % w >= 60 && v === 255).length;
    expect(inkStored).toBe(60 * h);
    expect(paperStored).toBeGreaterThan(0.9 * (w - 60) * h);
  });

  it('shows a page as the PDF stores it: grey rounded to the kept levels, colour untouched', async () => {
    const [w, h] = [400, 300];
    let seed = 11;
    const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 24;
    // Mottled paper (16 levels do not fit the budget) with faint ink at 215: two bits keep 0, 85, 170 and 255,
    // and the ink rounds to paper.
    const grey = new Uint8Array(w * h).map((_, i) => (i % w < 100 ? 215 : 236 + (random() % 20)));
    const page = { data: grey, width: w, height: h, channels: 1 as const };
    const stored = await asStoredInPdf(page);
    expect((await fewLevelGrey(grey, w, h)).bits).toBe(2);
    expect(new Set(stored.data)).toEqual(new Set([255]));
    // Rounding what is already rounded changes nothing, so the PDF holds exactly the page the guard checked.
    expect(await asStoredInPdf(stored)).toEqual(stored);
    // A grey page carried as RGB is rounded alike; a colour page keeps its pixels.
    const rgb = {
      data: new Uint8Array(w * h * 3).map((_, i) => grey[Math.floor(i / 3)]!),
      width: w,
      height: h,
      channels: 3 as const,
    };
    expect(new Set((await asStoredInPdf(rgb)).data)).toEqual(new Set([255]));
    const colour = { ...rgb, data: rgb.data.map((v, i) => (i % 3 === 0 ? v - 30 : v)) };
    expect((await asStoredInPdf(colour)).data).toEqual(colour.data);
  });
});
