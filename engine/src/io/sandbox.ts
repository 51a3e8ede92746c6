// A memory ceiling for reading untrusted files. pdfjs, pdf-lib and sharp allocate pixels, canvases and inflated
// streams outside the JavaScript heap, where no worker-thread limit reaches; the checks of pdf-bounds.ts stop
// the bombs we know of. Behind them, every inspection, thumbnail and PDF page render runs in a child process
// whose resident memory is watched from outside (/proc) and which is killed past its memory or time budget.
// The caller gets the `too_complex` input error; the next task starts a fresh child, so memory is given back.
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { EngineInputError, inputErrors } from '../errors.js';
import type { RawImage } from '../image.js';
import { engineSettings } from '../settings.js';
import type { InputInfo, InputLimits } from './inspect.js';
import type { Thumbnail } from './thumbnail.js';

export interface DecodedPdfPage {
  image: RawImage;
  dpi: number;
}

/** What a child can be asked to do. `decode` sends the bytes only when the child does not hold that doc yet. */
export type SandboxTask =
  | { op: 'inspect'; bytes: Uint8Array; limits: InputLimits }
  | { op: 'thumbnail'; bytes: Uint8Array; width: number }
  | {
      op: 'decode';
      docId: string;
      bytes?: Uint8Array;
      pageSizes: { width: number; height: number }[];
      index: number;
    };

export type SandboxValue = InputInfo | Thumbnail | DecodedPdfPage;

export type SandboxReply =
  | { ok: true; value: SandboxValue }
  | { ok: false; code: EngineInputError['code']; message: string }
  | { ok: false; error: string };

export interface SandboxOptions {
  /** Resident memory one child may reach, in MB (its JavaScript heap gets half). */
  memoryMb: number;
  /** Children running at once; tasks beyond wait. */
  children: number;
  /** An idle child stops after this, giving its memory back. */
  idleMs: number;
}

/** The engine's settings give the memory budget of one child (`pdfMemoryMb`: FOLIO_ENGINE_PDF_MEMORY_MB). */
export function defaultSandboxOptions(): SandboxOptions {
  return {
    memoryMb: engineSettings().pdfMemoryMb,
    children: 1,
    idleMs: 30_000,
  };
}

const here = fileURLToPath(import.meta.url);
// Under tsx or vitest this file is TypeScript, and so is the child, which then needs tsx's loader.
const runningTs = here.endsWith('.ts');
const childFile = path.join(path.dirname(here), runningTs ? 'sandbox-child.ts' : 'sandbox-child.js');

function childExecArgv(memoryMb: number): string[] {
  const heap = `--max-old-space-size=${Math.floor(memoryMb / 2)}`;
  if (!runningTs) return [heap];
  return [heap, '--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href];
}

/** Resident memory of a process in MB, or 0 where /proc cannot tell. */
export function residentMb(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : 0;
  } catch {
    return 0;
  }
}

const WATCH_MS = 10;

/** One child process, one task at a time. */
class Slot {
  private child: ChildProcess | undefined;
  /** Resolves once the child has loaded its modules: budgets count from there, not from the start. */
  private ready: Promise<void> | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  /** The doc whose bytes this child holds (decode tasks). */
  heldDoc: string | undefined;
  busy = false;

  constructor(
    private readonly opts: SandboxOptions,
    private readonly onPeak: (mb: number) => void,
  ) {}

  private start(): ChildProcess {
    const child = fork(childFile, [String(this.opts.memoryMb)], {
      execArgv: childExecArgv(this.opts.memoryMb),
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.on('exit', () => {
      if (this.child === child) this.forget();
    });
    child.on('error', () => undefined); // reported through the task's exit
    this.ready = new Promise<void>((resolve, reject) => {
      child.once('message', () => resolve());
      child.once('exit', (code) => reject(new Error(`file reader did not start (code ${code})`)));
    });
    this.ready.catch(() => undefined);
    return child;
  }

  private forget(): void {
    this.child = undefined;
    this.ready = undefined;
    this.heldDoc = undefined;
    clearTimeout(this.idleTimer);
  }

  stop(): void {
    const child = this.child;
    this.forget();
    child?.kill('SIGKILL');
  }

  async run(task: SandboxTask, timeoutMs: number): Promise<SandboxValue> {
    clearTimeout(this.idleTimer);
    const child = (this.child ??= this.start());
    child.ref();
    child.channel?.ref();
    await this.ready;
    let peak = 0;
    let over: 'memory' | 'time' | undefined;
    const started = Date.now();
    try {
      return await new Promise<SandboxValue>((resolve, reject) => {
        const watch = setInterval(() => {
          if (child.pid !== undefined) peak = Math.max(peak, residentMb(child.pid));
          if (peak > this.opts.memoryMb) over = 'memory';
          else if (Date.now() - started > timeoutMs) over = 'time';
          if (over) child.kill('SIGKILL');
          // A child that ended before the task reached it sends no exit event any more.
          if (over && (child.exitCode !== null || child.signalCode !== null)) onExit(null, 'SIGKILL');
        }, WATCH_MS);
        const done = (): void => {
          clearInterval(watch);
          child.off('message', onMessage);
          child.off('exit', onExit);
        };
        const onMessage = (reply: SandboxReply): void => {
          done();
          if (reply.ok) resolve(reply.value);
          else if ('code' in reply) reject(new EngineInputError(reply.code, reply.message));
          else reject(new Error(reply.error));
        };
        const onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
          done();
          // Past a budget, or out of heap (the child's own limit): the file costs more than we allow.
          if (over || signal === 'SIGKILL' || signal === 'SIGABRT' || code === 134)
            reject(inputErrors.tooComplex());
          else reject(new Error(`file reader stopped (code ${code}, signal ${signal})`));
        };
        child.on('message', onMessage);
        child.on('exit', onExit);
        child.send(task);
      });
    } finally {
      this.onPeak(peak);
      if (this.child === child) {
        child.unref();
        child.channel?.unref();
        this.idleTimer = setTimeout(() => this.stop(), this.opts.idleMs);
        this.idleTimer.unref();
      }
    }
  }
}

/** A small pool of reader children. */
export class Sandbox {
  private readonly slots: Slot[];
  private readonly waiting: (() => void)[] = [];
  /** Largest resident memory a child reached during a task, in MB (for tests and benches). */
  peakMb = 0;

  constructor(readonly opts: SandboxOptions = defaultSandboxOptions()) {
    const onPeak = (mb: number): void => {
      this.peakMb = Math.max(this.peakMb, mb);
    };
    this.slots = Array.from({ length: Math.max(1, opts.children) }, () => new Slot(opts, onPeak));
  }

  /** Runs a task in a child; a child over its memory or time budget is killed and the task throws too_complex. */
  async run(task: SandboxTask, timeoutMs: number): Promise<SandboxValue> {
    const slot = await this.claim(task.op === 'decode' ? task.docId : undefined);
    try {
      // A child already holding the document does not get its bytes again; a SharedArrayBuffer (the engine's
      // Doc) cannot cross to a process, so the child gets a copy.
      if (task.op === 'decode' && slot.heldDoc === task.docId) task = { ...task, bytes: undefined };
      else if (task.bytes?.buffer instanceof SharedArrayBuffer) task = { ...task, bytes: task.bytes.slice() };
      const value = await slot.run(task, timeoutMs);
      if (task.op === 'decode') slot.heldDoc = task.docId;
      return value;
    } finally {
      slot.busy = false;
      this.waiting.shift()?.();
    }
  }

  inspect(bytes: Uint8Array, limits: InputLimits, timeoutMs: number): Promise<InputInfo> {
    return this.run({ op: 'inspect', bytes, limits }, timeoutMs) as Promise<InputInfo>;
  }

  thumbnail(bytes: Uint8Array, width: number, timeoutMs: number): Promise<Thumbnail> {
    return this.run({ op: 'thumbnail', bytes, width }, timeoutMs) as Promise<Thumbnail>;
  }

  /** Stops every child (the next task starts a new one). */
  close(): void {
    for (const slot of this.slots) slot.stop();
  }

  /** A free child, preferring one that already holds `docId`. */
  private async claim(docId: string | undefined): Promise<Slot> {
    for (;;) {
      const free = this.slots.filter((slot) => !slot.busy);
      const slot = free.find((s) => docId !== undefined && s.heldDoc === docId) ?? free[0];
      if (slot) {
        slot.busy = true;
        return slot;
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }
}
