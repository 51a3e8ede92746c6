// Shared helpers of the OCR tests: real crops of the public eval set, a plain character error rate, and Tesseract
// programs that wrap the real one.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { RawImage } from '../../src/image.js';
import { toPnm, type OcrResult, type OcrWord } from '../../src/ocr/index.js';
import type { Box } from '../../src/guard/index.js';
import { editDistance } from '../../src/guard/edit-distance.js';
import { publicSet } from '../helpers.js';

export const EVAL = publicSet;

export async function greyCrop(
  sample: string,
  left: number,
  top: number,
  width: number,
  height: number,
): Promise<RawImage> {
  const { data, info } = await sharp(`${EVAL}/${sample}/clean.png`)
    .extract({ left, top, width, height })
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height, channels: 1 };
}

/** A taller crop (doc_011, two columns) turned by 1.5°: the plan deskews it. */
export async function skewedCrop(): Promise<RawImage> {
  const flat = await greyCrop('doc_011', 0, 200, 1275, 800);
  const turned = await sharp(Buffer.from(flat.data), {
    raw: { width: flat.width, height: flat.height, channels: 1 },
  })
    .rotate(1.5, { background: '#ffffff' })
    .extract({ left: 10, top: 10, width: 1255, height: 780 })
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(turned.data), width: 1255, height: 780, channels: 1 };
}

/** Plain paper of one grey level, nothing on it. */
export function blankPaper(width: number, height: number, level: number): RawImage {
  return { width, height, channels: 1, data: new Uint8Array(width * height).fill(level) };
}

/** doc_005: "- It was agreed that the warehouse …" down to "6.5% per year." (four lines, 15 checkable words). */
export function agreementCrop(): Promise<RawImage> {
  return greyCrop('doc_005', 100, 435, 1050, 140);
}

/** The word of an OCR result with this exact text; throws when the crop no longer reads it. */
export function findWord(ocr: OcrResult, text: string): OcrWord {
  const found = ocr.words.find((w) => w.text === text);
  if (!found) throw new Error(`test crop no longer contains "${text}"`);
  return found;
}

/** An opaque RGBA copy of a grey image: OCR must read it the same. */
export function withAlpha(grey: RawImage): RawImage {
  const rgba = new Uint8Array(grey.data.length * 4);
  grey.data.forEach((v, i) => rgba.set([v, v, v, 255], i * 4));
  return { width: grey.width, height: grey.height, channels: 4, data: rgba };
}

export function copyImage(img: RawImage): RawImage {
  return { ...img, data: Uint8Array.from(img.data) };
}

/** Paints a box of a grey image with one value (255 erases). */
export function fillBox(img: RawImage, box: Box, value: number): void {
  for (let y = box.y0; y < box.y1; y++) img.data.fill(value, y * img.width + box.x0, y * img.width + box.x1);
}

/** Pastes the pixels of one box over another (same top-left; clipped to the target box). */
export function pasteBox(img: RawImage, from: Box, to: Box): void {
  fillBox(img, to, 255);
  const w = Math.min(from.x1 - from.x0, to.x1 - to.x0);
  const h = Math.min(from.y1 - from.y0, to.y1 - to.y0);
  for (let y = 0; y < h; y++) {
    const src = (from.y0 + y) * img.width + from.x0;
    img.data.set(img.data.slice(src, src + w), (to.y0 + y) * img.width + to.x0);
  }
}

/** A mildly smoothed copy of a grey image (sharp's 3×3 median), as an honest cleanup would give. */
export async function median3(img: RawImage): Promise<RawImage> {
  const data = await sharp(Buffer.from(img.data), {
    raw: { width: img.width, height: img.height, channels: 1 },
  })
    .median(3)
    .toColourspace('b-w')
    .raw()
    .toBuffer();
  return { ...img, data: new Uint8Array(data) };
}

export async function textLines(sample: string): Promise<string[]> {
  return (await readFile(`${EVAL}/${sample}/text.txt`, 'utf8')).split('\n');
}

/** Character error rate with whitespace runs collapsed, as OCR scorers usually do. */
export function cer(hypothesis: string, reference: string): number {
  const norm = (s: string) => s.replace(/\s+/g, ' ').trim();
  return editDistance(norm(hypothesis), norm(reference)) / Math.max(1, norm(reference).length);
}

/** The checksum (md5) of an image's pixels as the native back-end hands them to Tesseract on stdin. */
export function pixelSum(img: RawImage): string {
  return createHash('md5').update(toPnm(img)).digest('hex');
}

/**
 * A Tesseract program for `threadServices` at `dir/tesseract-<name>`: a script that passes every call but a read
 * from stdin to the real program, and for such a read saves the image to "$f", its checksum in "$sum", and runs
 * `body(real)`, the shell lines that read it (`real`: the real program's path; "$@" its remaining arguments).
 */
export function wrappedTesseract(dir: string, name: string, body: (real: string) => string): string {
  const real = execFileSync('sh', ['-c', 'command -v tesseract'], { encoding: 'utf8' }).trim();
  const tesseract = path.join(dir, `tesseract-${name}`);
  writeFileSync(
    tesseract,
    `#!/bin/sh\nif [ "$1" != stdin ]; then exec ${real} "$@"; fi\nshift\nf=$(mktemp)\ncat > "$f"\n` +
      `sum=$(md5sum < "$f" | cut -d' ' -f1)\n${body(real)}\nrc=$?\nrm -f "$f"\nexit $rc\n`,
  );
  chmodSync(tesseract, 0o755);
  return tesseract;
}
