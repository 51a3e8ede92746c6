// Prometheus metrics of one process (prom-client). API nodes serve them at GET /metrics; workers on their own
// port (METRICS_PORT). Queue depth, waiting time and credits are read from the database when scraped, so every
// node reports the same fleet-wide figures for them (use max(), not sum(), across nodes).
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { CreditsRepository } from '../credits/credits.repository.js';
import type { Db } from '../db/database.js';
import { JobsRepository } from '../jobs/jobs.repository.js';

export class Metrics {
  readonly registry = new Registry();
  readonly httpDuration = new Histogram({
    name: 'folio_http_request_duration_seconds',
    help: 'HTTP request latency by route',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly pagesRestored = new Counter({
    name: 'folio_pages_restored_total',
    help: 'Pages the engine restored in this process',
    registers: [this.registry],
  });
  readonly pagesFailed = new Counter({
    name: 'folio_pages_failed_total',
    help: 'Pages the engine failed to restore in this process (refunded)',
    registers: [this.registry],
  });
  readonly pageDuration = new Histogram({
    name: 'folio_page_duration_seconds',
    help: 'Time the engine took for one page',
    buckets: [0.25, 0.5, 1, 2, 4, 8, 15, 30, 60, 120],
    registers: [this.registry],
  });

  constructor(db: Db) {
    const jobs = new JobsRepository();
    const credits = new CreditsRepository();
    collectDefaultMetrics({ register: this.registry });
    new Gauge({
      name: 'folio_queue_waiting_jobs',
      help: 'Restoration jobs queued and not yet started (fleet-wide)',
      registers: [this.registry],
      async collect() {
        this.set(await jobs.countQueued(db));
      },
    });
    new Gauge({
      name: 'folio_queue_oldest_wait_seconds',
      help: 'How long the oldest queued job has been waiting (fleet-wide; 0 when none waits)',
      registers: [this.registry],
      async collect() {
        const at = await jobs.oldestQueuedAt(db);
        const oldest = at ? Date.parse(at) : NaN;
        this.set(Number.isNaN(oldest) ? 0 : Math.max(0, (Date.now() - oldest) / 1000));
      },
    });
    const ledgerSum = (reference: string, reason: string): Promise<number> =>
      credits.sumMoved(db, reference, reason);
    new Gauge({
      name: 'folio_credits_debited',
      help: 'Credits debited for restorations, from the ledger (fleet-wide)',
      registers: [this.registry],
      async collect() {
        this.set(await ledgerSum('restore:%', 'restoration'));
      },
    });
    new Gauge({
      name: 'folio_credits_refunded',
      help: 'Credits refunded for pages not restored, from the ledger (fleet-wide)',
      registers: [this.registry],
      async collect() {
        this.set(await ledgerSum('refund:%', 'refund'));
      },
    });
  }

  /** Sockets open on this API node, read when scraped. */
  trackSockets(count: () => number): void {
    new Gauge({
      name: 'folio_sockets_connected',
      help: 'Realtime WebSocket connections open on this node',
      registers: [this.registry],
      collect() {
        this.set(count());
      },
    });
  }
}
