// ONNX Runtime session wrapper: CPU execution provider, lazy and locked loading (the first caller loads,
// concurrent callers wait for the same promise), one session per model per worker thread.
import { access } from 'node:fs/promises';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { DEFAULT_MODELS_DIR } from './catalog.js';
import { ModelLoadError, ModelRunError } from './errors.js';

export interface ModelRuntimeSettings {
  /** Folder holding the converted .onnx files */
  modelsDir: string;
  /** ONNX Runtime intra-op threads per session (per worker thread) */
  intraOpThreads: number;
}

const settings: ModelRuntimeSettings = { modelsDir: DEFAULT_MODELS_DIR, intraOpThreads: 1 };

/** Sets where models come from and how many threads each session uses. Call before the first model runs. */
export function configureModels(next: Partial<ModelRuntimeSettings>): void {
  if (
    next.intraOpThreads !== undefined &&
    (!Number.isInteger(next.intraOpThreads) || next.intraOpThreads < 1)
  ) {
    throw new RangeError(`intraOpThreads must be a positive integer, got ${next.intraOpThreads}`);
  }
  Object.assign(settings, next);
}

export function modelSettings(): Readonly<ModelRuntimeSettings> {
  return settings;
}

export type Feeds = Record<string, ort.Tensor>;

export class OnnxSession {
  private loading: Promise<ort.InferenceSession> | undefined;

  constructor(
    readonly modelId: string,
    readonly file: string,
    private readonly intraOpThreads: number,
  ) {}

  /** Loads on first use; a failed load is not cached, so a repaired file can be picked up later. */
  load(): Promise<ort.InferenceSession> {
    this.loading ??= this.create().catch((error: unknown) => {
      this.loading = undefined;
      throw error;
    });
    return this.loading;
  }

  get loaded(): boolean {
    return this.loading !== undefined;
  }

  async run(feeds: Feeds): Promise<ort.InferenceSession.ReturnType> {
    const session = await this.load();
    try {
      return await session.run(feeds);
    } catch (cause) {
      throw new ModelRunError(this.modelId, cause instanceof Error ? cause.message : String(cause), {
        cause,
      });
    }
  }

  async release(): Promise<void> {
    const loading = this.loading;
    this.loading = undefined;
    if (loading) await (await loading).release();
  }

  private async create(): Promise<ort.InferenceSession> {
    try {
      await access(this.file);
    } catch (cause) {
      throw new ModelLoadError('missing', this.modelId, this.file, { cause });
    }
    try {
      return await ort.InferenceSession.create(this.file, {
        executionProviders: ['cpu'],
        intraOpNumThreads: this.intraOpThreads,
        interOpNumThreads: 1,
        executionMode: 'sequential',
        graphOptimizationLevel: 'all',
        // The arena would keep each thread's largest run (a 200-DPI page in one window: about 400 MB) for the
        // thread's life; without it the memory goes back after each page. pdf_003 (5 pages, 2 threads) peaked
        // at 717 MB instead of 1117 MB, with the same output and within 4 % of the time.
        enableCpuMemArena: false,
      });
    } catch (cause) {
      throw new ModelLoadError('invalid', this.modelId, this.file, { cause });
    }
  }
}

// Module state is per worker thread, so this is "once per worker thread".
const sessions = new Map<string, OnnxSession>();

/** The thread's session for a model file in the configured models folder (created lazily, loaded on first run). */
export function sessionFor(modelId: string, fileName: string): OnnxSession {
  return sessionForFile(modelId, path.join(settings.modelsDir, fileName));
}

/** The thread's session for a model file anywhere (the committed weights live outside the models folder). */
export function sessionForFile(modelId: string, file: string): OnnxSession {
  const key = `${file}#${settings.intraOpThreads}`;
  let session = sessions.get(key);
  if (!session) {
    session = new OnnxSession(modelId, file, settings.intraOpThreads);
    sessions.set(key, session);
  }
  return session;
}

/** Frees every session of this thread (for worker shutdown and tests). */
export async function releaseSessions(): Promise<void> {
  const all = [...sessions.values()];
  sessions.clear();
  await Promise.all(all.map((s) => s.release()));
}
