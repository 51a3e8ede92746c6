// Page-1 previews, rendered in the background after the upload has answered. One at a time: rendering is
// CPU work and must not starve requests. Pending previews are picked up again after a restart.
import { buffer } from 'node:stream/consumers';
import type { FastifyBaseLogger } from 'fastify';
import type { EventBus } from '../realtime/event-bus.js';
import type { ObjectStorage } from '../storage/storage.js';
import { toFileDto } from './file-dto.js';
import { thumbnailInThread } from './inspect-pool.js';
import type { FileRepository } from './file-repository.js';
import { previewKey } from './storage-keys.js';

/** Twice the card's 280 px so previews stay sharp on high-density screens. */
export const PREVIEW_WIDTH_PX = 560;

export interface PreviewQueueDeps {
  files: FileRepository;
  storage: ObjectStorage;
  bus: EventBus;
  now: () => Date;
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
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
    for (const id of await this.deps.files.listPendingPreviews()) this.enqueue(id);
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
    let key: string;
    try {
      const bytes = await buffer(await storage.get(row.storage_key));
      const thumbnail = await thumbnailInThread(bytes, PREVIEW_WIDTH_PX);
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
    const file = toFileDto({ ...row, preview_status: 'ready', preview_key: key, updated_at: at }, now());
    await bus.publish(row.user_id, { type: 'file.preview.ready', fileId: row.id, file });
  }
}
