// The queue seen by the rest of the backend: one interface, two implementations (database table or BullMQ).
// It only moves job ids; the job's state lives in the `jobs` row, which the runner reads and updates.

export interface QueuedJob {
  jobId: string;
  /** Higher runs first (TIER_PRIORITY of the user's best purchase). */
  priority: number;
}

/** Runs one job; `signal` aborts when this worker lost the job (lease taken over, shutting down). */
export type JobHandler = (jobId: string, signal: AbortSignal) => Promise<void>;

export interface JobQueue {
  /** Called after the job row is committed. Enqueuing a job twice runs it at most once at a time. */
  enqueue(job: QueuedJob): Promise<void>;
  /** Starts `concurrency` consumers in this process. */
  startWorkers(handler: JobHandler, concurrency: number): void;
  /** Stops taking jobs, aborts running handlers, and releases connections. */
  close(): Promise<void>;
}
