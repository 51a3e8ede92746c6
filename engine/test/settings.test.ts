// The engine's settings: parsed from an environment once, unknown values refused at start.
import { describe, expect, it } from 'vitest';
import { engineSettings, parseEngineSettings, useEngineSettings } from '../src/settings.js';

describe('engine settings', () => {
  it('has defaults for an empty environment', () => {
    const s = parseEngineSettings({});
    expect(s.ocr).toBe('auto');
    expect(s.tesseract).toBe('tesseract');
    expect(s.guardRead).toBe('changed');
    expect(s.pdfMemoryMb).toBe(1536);
    expect(s.ocrTimeoutMs).toBe(60_000);
    expect(s.threads).toBeGreaterThanOrEqual(1);
    expect(s.threads).toBeLessThanOrEqual(2);
  });

  it('reads FOLIO_ENGINE_THREADS, _OCR, _TESSERACT, _GUARD, _OCR_TIMEOUT_MS and _PDF_MEMORY_MB', () => {
    const s = parseEngineSettings({
      FOLIO_ENGINE_THREADS: '3',
      FOLIO_ENGINE_OCR: 'tesseract.js',
      FOLIO_ENGINE_TESSERACT: '/opt/tesseract',
      FOLIO_ENGINE_GUARD: 'full',
      FOLIO_ENGINE_OCR_TIMEOUT_MS: '90000',
      FOLIO_ENGINE_PDF_MEMORY_MB: '768',
    });
    expect(s).toMatchObject({
      threads: 3,
      ocr: 'tesseract.js',
      tesseract: '/opt/tesseract',
      guardRead: 'full',
      ocrTimeoutMs: 90_000,
      pdfMemoryMb: 768,
    });
    expect(parseEngineSettings({ FOLIO_ENGINE_OCR: 'off' }).ocr).toBe('off');
    // Not a positive integer: the default.
    expect(parseEngineSettings({ FOLIO_ENGINE_THREADS: '0' }).threads).toBe(parseEngineSettings({}).threads);
    // A reader child needs at least 256 MB; below that, or not an integer: the default.
    expect(parseEngineSettings({ FOLIO_ENGINE_PDF_MEMORY_MB: '255' }).pdfMemoryMb).toBe(1536);
    expect(parseEngineSettings({ FOLIO_ENGINE_PDF_MEMORY_MB: '1e3x' }).pdfMemoryMb).toBe(1536);
    expect(parseEngineSettings({ FOLIO_ENGINE_OCR_TIMEOUT_MS: '-5' }).ocrTimeoutMs).toBe(60_000);
  });

  it('refuses an unknown OCR back-end or guard reading with a RangeError', () => {
    expect(() => parseEngineSettings({ FOLIO_ENGINE_OCR: 'tesseract-js' })).toThrow(RangeError);
    expect(() => parseEngineSettings({ FOLIO_ENGINE_OCR: 'tesseract-js' })).toThrow(
      /FOLIO_ENGINE_OCR must be one of off, auto, native, tesseract.js, paddle; got "tesseract-js"/,
    );
    expect(() => parseEngineSettings({ FOLIO_ENGINE_GUARD: 'all' })).toThrow(RangeError);
  });

  it('gives a Tesseract child the environment with one OpenMP thread', () => {
    const s = parseEngineSettings({ PATH: '/usr/bin', OMP_THREAD_LIMIT: '8' });
    expect(s.tesseractEnv).toEqual({ PATH: '/usr/bin', OMP_THREAD_LIMIT: '1' });
  });

  it('parses once per thread; a worker thread uses the settings its pool gave it', () => {
    const first = engineSettings();
    expect(engineSettings()).toBe(first);
    const given = { ...first, ocr: 'off' as const };
    useEngineSettings(given);
    expect(engineSettings()).toBe(given);
    useEngineSettings(first);
  });
});
