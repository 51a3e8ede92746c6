// Shared helpers of the OCR tests: real crops of the public eval set and a plain character error rate.
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import type { RawImage } from '../../src/image.js';
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

export async function textLines(sample: string): Promise<string[]> {
  return (await readFile(`${EVAL}/${sample}/text.txt`, 'utf8')).split('\n');
}

function levenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length]!;
}

/** Character error rate with whitespace runs collapsed, as OCR scorers usually do. */
export function cer(hypothesis: string, reference: string): number {
  const norm = (s: string) => s.replace(/\s+/g, ' ').trim();
  return levenshtein(norm(hypothesis), norm(reference)) / Math.max(1, norm(reference).length);
}
