// Page-1 previews, rendered in the background after the upload has answered. One at a time: rendering is
// CPU work and must not starve requests. Pending previews are picked up again after a restart, but each file
// gets MAX_PREVIEW_ATTEMPTS starts: one whose render took the process down is not tried again; once stale it
// is marked failed (quarantine).
import { buffer } from 'node:stream/consumers';
import type { FastifyBaseLogger } from 'fastify';
import type { EventBus } from '../realtime/event-bus.js';
import type { ObjectStorage } from '../storage/storage.js';
import { toFileDto } from './file-dto.js';
import type { FileReader } from './file-reader.js';
import type { FileRepository } from './file-repository.js';
import { previewKey } from './storage-keys.js';

/** Twice the card's 280 px so previews stay sharp on high-density screens. */
export const PREVIEW_WIDTH_PX = 560;
/** A failed render is marked failed at once; attempts only run out when a render never finished. */
export const MAX_PREVIEW_ATTEMPTS = 1;

export interface PreviewQueueDeps {
  files: FileRepository;
  storage: ObjectStorage;
  bus: EventBus;
  now: () => Date;
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
  /** Renders in reader children bounded in time and memory. */
  reader: FileReader;
  /** Time limit of one render (settings.fileCheckTimeoutSeconds), to tell a dead attempt from a running one. */
  timeoutMs: number;
}

export class PreviewQueue {
  private readonly waiting: string[] = [];
  private running: Promise<void> | null = null;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: PreviewQueueDeps) {}

  /** Queues a file whose row is committed; rendering starts on a later tick, never inside the caller. */
  enqueue(fileId: string): void {
    if (this.stopped || this.waiting.includes(fileId)) return;
    this.waiting.push(fileId);
    this.running ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.drainLoop());
  }

  /**
   * Queues every pending preview: those left by a previous run of the process and those of files that
   * other processes added (restored files written by workers).
   */
  async resume(): Promise<void> {
    const { files, now, log, timeoutMs } = this.deps;
    // An attempt older than this is not running anywhere any more: its process went down during it.
    const before = new Date(now().getTime() - Math.max(10 * 60_000, 2 * timeoutMs)).toISOString();
    const quarantined = await files.failExhaustedPreviews(MAX_PREVIEW_ATTEMPTS, before, now().toISOString());
    for (const fileId of quarantined) log.warn({ fileId }, 'preview quarantined: its render never finished');
    for (const id of await files.listPendingPreviews()) this.enqueue(id);
  }

  /** Looks for pending previews now and then every `pollMs`. */
  start(pollMs: number): void {
    const tick = (): void => {
      this.resume().catch((error: unknown) => this.deps.log.error({ err: error }, 'preview poll failed'));
    };
    tick();
    this.timer = setInterval(tick, pollMs);
    this.timer.unref();
  }

  /** Resolves when nothing is waiting or rendering (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.waiting.length = 0;
    await this.idle();
  }

  private async drainLoop(): Promise<void> {
    try {
      for (let id = this.waiting.shift(); id !== undefined; id = this.waiting.shift()) {
        await this.render(id).catch((error: unknown) =>
          this.deps.log.error({ err: error, fileId: id }, 'preview failed'),
        );
      }
    } finally {
      this.running = null;
    }
  }

  private async render(fileId: string): Promise<void> {
    const { files, storage, bus, now } = this.deps;
    const row = await files.findLiveById(fileId);
    if (!row || row.preview_status !== 'pending') return;
    if (!(await files.startPreviewAttempt(row.id, MAX_PREVIEW_ATTEMPTS, now().toISOString()))) return;
    let key: string;
    try {
      const bytes = await buffer(await storage.get(row.storage_key));
      const thumbnail = await this.deps.reader.thumbnail(bytes, PREVIEW_WIDTH_PX);
      key = previewKey(row.id, thumbnail.mime);
      await storage.put(key, thumbnail.data);
    } catch (error) {
      this.deps.log.warn({ err: error, fileId }, 'no preview for this file');
      await files.setPreview(row.id, 'failed', null, now().toISOString());
      return;
    }
    const at = now().toISOString();
    if (!(await files.setPreview(row.id, 'ready', key, at))) {
      await storage.delete(key); // removed while rendering
      return;
    }
    // Read again: the file may have changed while its preview rendered (a restoration started: processing).
    const fresh = await files.findLiveById(row.id);
    if (!fresh) return;
    await bus.publish(row.user_id, {
      type: 'file.preview.ready',
      fileId: row.id,
      file: toFileDto(fresh, now()),
    });
  }
}
