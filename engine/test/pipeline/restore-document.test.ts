import { afterAll, describe, expect, it } from 'vitest';
import {
  closeEnginePool,
  loadDocument,
  restoreDocument,
  restorePage,
  type PageOutcome,
  type StepCall,
} from '../../src/index.js';
import { evalFile } from '../helpers.js';

afterAll(async () => {
  await closeEnginePool();
});

// Two cheap steps and no OCR keep these tests quick; the full plan is exercised elsewhere.
const steps: StepCall[] = [{ name: 'whiten-paper', params: {} }];

describe('restoreDocument', () => {
  it('runs pages in parallel on the pool, reports each start and end, and saves each page before it is done', async () => {
    const doc = await loadDocument(evalFile('pdf_001', 'degraded.pdf'));
    // The document lives in shared memory: a page task hands the worker a view of it, not a copy.
    expect(doc.bytes.buffer).toBeInstanceOf(SharedArrayBuffer);
    const log: string[] = [];
    const saved = new Map<number, PageOutcome>();
    let running = 0;
    let mostAtOnce = 0;
    const outcomes = await restoreDocument(doc, {
      steps,
      ocr: false,
      checkpoint: {
        load: () => Promise.resolve(undefined),
        save: (index, outcome) => {
          saved.set(index, outcome);
          log.push(`save ${index}`);
          return Promise.resolve();
        },
      },
      onPageStart: (index) => {
        log.push(`start ${index}`);
      },
      onPageDone: ({ index, ms, fromCheckpoint }) => {
        expect(fromCheckpoint).toBe(false);
        expect(ms).toBeGreaterThan(0);
        log.push(`done ${index}`);
      },
      runPage: async (d, index, opts) => {
        mostAtOnce = Math.max(mostAtOnce, ++running);
        try {
          return await restorePage(d, index, opts);
        } finally {
          running--;
        }
      },
    });
    expect(outcomes.map((o) => o.ok)).toEqual([true, true, true]);
    expect([...saved.keys()].sort()).toEqual([0, 1, 2]);
    for (const index of [0, 1, 2]) {
      expect(log.indexOf(`start ${index}`)).toBeLessThan(log.indexOf(`save ${index}`));
      expect(log.indexOf(`save ${index}`)).toBeLessThan(log.indexOf(`done ${index}`));
    }
    // Pages start in order, and the first two start before either ends (the pool has two threads).
    expect(log.filter((l) => l.startsWith('start'))).toEqual(['start 0', 'start 1', 'start 2']);
    expect(log.slice(0, 2)).toEqual(['start 0', 'start 1']);
    expect(mostAtOnce).toBe(2);
  });

  it('resumes from checkpointed pages without running them again', async () => {
    const doc = await loadDocument(evalFile('pdf_001', 'degraded.pdf'));
    const first = await restoreDocument(doc, { steps, ocr: false });
    const stored = new Map<number, PageOutcome>([
      [0, first[0]!],
      [2, { ok: false, error: 'failed in an earlier run' }],
    ]);
    const ran: number[] = [];
    const done: [number, boolean][] = [];
    const outcomes = await restoreDocument(doc, {
      steps,
      ocr: false,
      checkpoint: { load: (index) => Promise.resolve(stored.get(index)), save: () => Promise.resolve() },
      onPageDone: ({ index, fromCheckpoint }) => {
        done.push([index, fromCheckpoint]);
      },
      runPage: (d, index, opts) => {
        ran.push(index);
        return restorePage(d, index, opts);
      },
    });
    expect(ran).toEqual([1]);
    expect(done).toEqual([
      [0, true],
      [2, true],
      [1, false],
    ]);
    expect(outcomes[0]).toBe(first[0]);
    expect(outcomes[1]?.ok).toBe(true);
    expect(outcomes[2]).toEqual({ ok: false, error: 'failed in an earlier run' });
  });

  it('a failing page is an outcome, a failing hook stops the document with its error', async () => {
    const doc = await loadDocument(evalFile('pdf_001', 'degraded.pdf'));
    const outcomes = await restoreDocument(doc, {
      steps,
      ocr: false,
      runPage: (d, index, opts) =>
        index === 1 ? Promise.reject(new Error('page 2 broke')) : restorePage(d, index, opts),
    });
    expect(outcomes.map((o) => o.ok)).toEqual([true, false, true]);
    expect(outcomes[1]).toEqual({ ok: false, error: 'page 2 broke' });

    const started: number[] = [];
    const stopped = restoreDocument(doc, {
      steps,
      ocr: false,
      onPageStart: (index) => {
        started.push(index);
      },
      checkpoint: {
        load: () => Promise.resolve(undefined),
        save: () => Promise.reject(new Error('storage is down')),
      },
    });
    await expect(stopped).rejects.toThrow('storage is down');
    // No page starts after the failure was seen (the two lanes had started pages 1 and 2 at most).
    expect(started.length).toBeLessThanOrEqual(2);
  });

  it('stops when its signal aborts', async () => {
    const doc = await loadDocument(evalFile('pdf_001', 'degraded.pdf'));
    const controller = new AbortController();
    const run = restoreDocument(doc, {
      steps,
      ocr: false,
      signal: controller.signal,
      onPageStart: () => controller.abort(new Error('taken away')),
    });
    await expect(run).rejects.toThrow('taken away');
  });
});
