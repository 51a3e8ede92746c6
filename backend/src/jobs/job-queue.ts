// The queue seen by the rest of the backend: one interface, two implementations (database table or BullMQ).
// It only moves job ids; the job's state lives in the `jobs` row, which the runner reads and updates.

export interface QueuedJob {
  jobId: string;
  /** Higher runs first (TIER_PRIORITY of the user's best purchase). */
  priority: number;
}

/**
 * Runs one job; `signal` aborts when this worker lost the job (lease taken over, shutdown deadline passed);
 * `drain` aborts when the process is shutting down: the handler finishes its current page and throws, so
 * the job goes back to the queue for another worker.
 */
export type JobHandler = (jobId: string, signal: AbortSignal, drain: AbortSignal) => Promise<void>;

export interface JobQueue {
  /** Called after the job row is committed. Enqueuing a job twice runs it at most once at a time. */
  enqueue(job: QueuedJob): Promise<void>;
  /** Starts `concurrency` consumers in this process. */
  startWorkers(handler: JobHandler, concurrency: number): void;
  /**
   * Stops taking jobs: running handlers are told to drain (hand their jobs back after the current page) and
   * are aborted if still running after `graceMs` (0 = at once). Enqueueing keeps working.
   */
  stopWorkers(graceMs: number): Promise<void>;
  /** Stops the workers at once (if still running) and releases connections. */
  close(): Promise<void>;
  /** Resolves when the queue's backing service answers (readiness). */
  ping(): Promise<void>;
}
