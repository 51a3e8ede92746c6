// A PageEngine that counts and times the pages it restores, for the worker's metrics.
import type { PageEngine } from '../restoration/page-engine.js';
import type { Metrics } from './metrics.js';

export function meteredEngine(engine: PageEngine, metrics: Metrics): PageEngine {
  return {
    async open(bytes) {
      const document = await engine.open(bytes);
      return {
        pageCount: document.pageCount,
        assemble: (pages) => document.assemble(pages),
        async restorePage(index, signal) {
          const stopTimer = metrics.pageDuration.startTimer();
          try {
            const page = await document.restorePage(index, signal);
            metrics.pagesRestored.inc();
            return page;
          } catch (error) {
            if (!signal.aborted) metrics.pagesFailed.inc();
            throw error;
          } finally {
            stopTimer();
          }
        },
      };
    },
  };
}
