// The job machinery of one process on a fresh test database: real storage, ledger, event bus, files and
// engine. `engine` wraps the real engine so tests can count page runs or make chosen pages fail.
import path from 'node:path';
import { restorePage } from '@folio/engine';
import type { RealtimeEvent } from '../../src/realtime/realtime-event.js';
import { CreditsService } from '../../src/credits/credits.service.js';
import { DatabaseJobQueue } from '../../src/jobs/database-queue.js';
import { JobsRepository } from '../../src/jobs/jobs.repository.js';
import { InProcessEventBus } from '../../src/realtime/event-bus.js';
import { FolioPageEngine } from '../../src/restoration/engine-adapter.js';
import type { EngineDocument, PageEngine } from '../../src/restoration/page-engine.js';
import { RepositoryRestorationFiles } from '../../src/restoration/restoration-files.adapter.js';
import { RestorationRunner } from '../../src/restoration/restoration-runner.js';
import { RestorationService } from '../../src/restoration/restoration.service.js';
import { LocalStorage } from '../../src/storage/local-storage.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

export class PageFailure extends Error {
  override name = 'PageFailure';
}

/** The real engine, with a record of the pages it ran and the option to fail chosen pages. */
export class RecordingEngine implements PageEngine {
  readonly restoredPages: number[] = [];
  failPages = new Set<number>();
  private readonly real = new FolioPageEngine(60_000, (doc, index, opts) => {
    this.restoredPages.push(index);
    if (this.failPages.has(index))
      return Promise.reject(new PageFailure(`page ${index + 1} failed on purpose`));
    return restorePage(doc, index, opts);
  });

  open(bytes: Buffer): Promise<EngineDocument> {
    return this.real.open(bytes);
  }
}

export interface RunnerHarness {
  database: TestDatabase;
  storage: LocalStorage;
  events: { userId: string; event: RealtimeEvent }[];
  eventBus: InProcessEventBus;
  engine: RecordingEngine;
  service: RestorationService;
  jobs: JobsRepository;
  runner(maxAttempts?: number): RestorationRunner;
  close(): Promise<void>;
}

export async function createRunnerHarness(): Promise<RunnerHarness> {
  const database = await createTestDatabase();
  const storage = new LocalStorage(path.join(database.dataDir, 'files'));
  const eventBus = new InProcessEventBus();
  const events: { userId: string; event: RealtimeEvent }[] = [];
  const publish = eventBus.publish.bind(eventBus);
  eventBus.publish = (userId, event) => {
    events.push({ userId, event });
    return publish(userId, event);
  };
  const credits = new CreditsService();
  const files = new RepositoryRestorationFiles(30);
  const engine = new RecordingEngine();
  // The queue only records the enqueue; tests run the runner themselves to control each run.
  const queue = new DatabaseJobQueue(database.db, { leaseMs: 60_000, pollMs: 60_000 });
  const service = new RestorationService(database.db, credits, files, queue);
  return {
    database,
    storage,
    events,
    eventBus,
    engine,
    service,
    jobs: new JobsRepository(),
    runner: (maxAttempts = 3) =>
      new RestorationRunner({
        db: database.db,
        storage,
        engine,
        credits,
        eventBus,
        files,
        options: { maxAttempts },
      }),
    async close() {
      await queue.close();
      await database.cleanup();
    },
  };
}
