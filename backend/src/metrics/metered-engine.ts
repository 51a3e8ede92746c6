// A PageEngine that counts and times the pages it restores, for the worker's metrics: it listens to the page
// loop's page-done hook, so pages taken from a checkpoint are not counted again.
import type { PageEngine } from '../restoration/page-engine.js';
import type { Metrics } from './metrics.js';

export function meteredEngine(engine: PageEngine, metrics: Metrics): PageEngine {
  return {
    warm: () => engine.warm?.(),
    async open(bytes) {
      const document = await engine.open(bytes);
      return {
        pageCount: document.pageCount,
        assemble: (pages) => document.assemble(pages),
        restorePages: (hooks) =>
          document.restorePages({
            ...hooks,
            onPageDone: async (page) => {
              if (!page.fromCheckpoint) {
                metrics.pageDuration.observe(page.ms / 1000);
                if (page.outcome.ok) metrics.pagesRestored.inc();
                else metrics.pagesFailed.inc();
              }
              await hooks.onPageDone(page);
            },
          }),
      };
    },
  };
}
