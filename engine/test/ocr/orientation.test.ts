// Tesseract's orientation detection (`--psm 0`), which settles the pages whose glyphs do not vote which way up.
import { describe, expect, it } from 'vitest';
import {
  detectOrientationNative,
  nativeOrientationAvailable,
  parseOrientation,
} from '../../src/ocr/index.js';
import { turnImage } from '../../src/pixels/geometry.js';
import { textPage } from '../pages.js';
import { blankPaper } from './helpers.js';

/** Capitals only: no letter rises above or drops below the others, so the glyph vote has nothing to count. */
const CAPITALS =
  'LET THE COMMITTEE NOTE THAT EVERY MEMBER AGREED TO THE REVISED SCHEDULE BEFORE THE MEETING CLOSED AND THAT ' +
  'THE TREASURER WILL REPORT ON THE ACCOUNTS';

describe("Tesseract's orientation detection", () => {
  it('has its model installed beside the English one, and is not found for a missing program', async () => {
    expect(await nativeOrientationAvailable('tesseract')).toBe(true);
    expect(await nativeOrientationAvailable('/nonexistent/tesseract')).toBe(false);
  });

  it('finds the turn that brings a page of capitals upright, each way it was scanned', async () => {
    const upright = await textPage({ lines: 20, text: CAPITALS });
    for (const scanned of [0, 1, 2, 3] as const) {
      const found = await detectOrientationNative(turnImage(upright, scanned), { dpi: 150 });
      expect(found?.turns).toBe((4 - scanned) % 4);
      expect(found!.confidence).toBeGreaterThan(5);
    }
  }, 60_000);

  it('says nothing of blank paper (too few characters), without failing', async () => {
    const blank = blankPaper(600, 800, 250);
    expect(await detectOrientationNative(blank, { dpi: 150 })).toBeUndefined();
  });

  it('reads the turn and confidence from its report', () => {
    const report = 'Page number: 0\nOrientation in degrees: 90\nRotate: 270\nOrientation confidence: 13.21\n';
    expect(parseOrientation(report)).toEqual({ turns: 3, confidence: 13.21 });
    expect(parseOrientation('Page number: 0\n')).toBeUndefined();
  });
});
