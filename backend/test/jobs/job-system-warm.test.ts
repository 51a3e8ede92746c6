// A job worker warms the engine it runs when it starts consuming jobs, whichever engine it was given: the worker
// role passes its own (metered) engine, and its first PDF page must not wait for the engine's threads to load.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CreditsService } from '../../src/credits/credits.service.js';
import { DatabaseJobQueue } from '../../src/jobs/database-queue.js';
import { Metrics } from '../../src/metrics/metrics.js';
import { meteredEngine } from '../../src/metrics/metered-engine.js';
import { InProcessEventBus } from '../../src/realtime/event-bus.js';
import { JobSystem } from '../../src/restoration/job-system.js';
import type { PageEngine } from '../../src/restoration/page-engine.js';
import { loadSettings } from '../../src/settings.js';
import { LocalStorage } from '../../src/storage/local-storage.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

let database: TestDatabase | undefined;
let jobs: JobSystem | undefined;

afterEach(async () => {
  await jobs?.close();
  await database?.cleanup();
});

describe('JobSystem.startWorkers', () => {
  it('warms the engine it was given, through the metrics wrapper too', async () => {
    database = await createTestDatabase();
    let warmed = 0;
    const engine: PageEngine = {
      open: () => Promise.reject(new Error('no job runs in this test')),
      warm: () => {
        warmed += 1;
      },
    };
    jobs = new JobSystem({
      settings: loadSettings({}),
      db: database.db,
      queue: new DatabaseJobQueue(database.db, { leaseMs: 60_000, pollMs: 50 }),
      storage: new LocalStorage(path.join(database.dataDir, 'files')),
      eventBus: new InProcessEventBus(),
      credits: new CreditsService(),
      engine: meteredEngine(engine, new Metrics(database.db)),
    });
    expect(warmed).toBe(0);
    await jobs.startWorkers(1);
    expect(warmed).toBe(1);
    await jobs.startWorkers(1); // started once
    expect(warmed).toBe(1);
  });
});
