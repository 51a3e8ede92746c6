// The pool's worker threads take the main thread's settings (workerData) rather than reading the environment again.
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { closeEnginePool, loadDocument, restorePage } from '../../src/index.js';
import { poolThreads } from '../../src/pipeline/pool.js';
import { engineSettings, useEngineSettings } from '../../src/settings.js';
import { evalFile } from '../helpers.js';

afterAll(async () => {
  await closeEnginePool();
});

describe('engine settings in the worker threads', () => {
  it('uses the settings the main thread holds, not the environment', async () => {
    await closeEnginePool();
    // This environment says OCR 'auto' (FOLIO_ENGINE_OCR is not set); the main thread's settings say 'off'.
    expect(process.env.FOLIO_ENGINE_OCR ?? 'auto').toBe('auto');
    const saved = engineSettings();
    useEngineSettings({ ...saved, ocr: 'off', threads: 1 });
    try {
      const crop = await sharp(evalFile('doc_005', 'clean.png'))
        .extract({ left: 0, top: 0, width: 1200, height: 500 })
        .withMetadata({ density: 150 })
        .png()
        .toBuffer();
      const page = await restorePage(await loadDocument(crop), 0, {
        ocr: true,
        steps: [{ name: 'whiten-paper', params: {} }],
      });
      expect(poolThreads()).toBe(1);
      // With OCR on in the worker, this crop of printed text would come back with its words.
      expect(page.words).toEqual([]);
    } finally {
      await closeEnginePool();
      useEngineSettings(saved);
    }
  });
});
