import type { Queryable } from '../db/client';

export type JobState = 'queued' | 'running' | 'done' | 'failed';

/**
 * Lanes run side by side, each with its own number of workers per instance (JOB_CONCURRENCY_*), so
 * long work never holds back short work: `default` for short jobs (expiries, RevenueCat events,
 * sweeps, push retries), `sync` for long ones (the Mindbody import, the Vimeo sync, vacuuming,
 * pruning), `messages` for automated messages (a Monday run queues a push per client).
 */
export type Lane = 'default' | 'sync' | 'messages';
export const LANES: readonly Lane[] = ['default', 'sync', 'messages'];

export interface Job<Payload = Record<string, unknown>> {
  id: number;
  queue: string;
  payload: Payload;
  singleton_key: string | null;
  state: JobState;
  run_at: Date;
  attempts: number;
  max_attempts: number;
  last_error: string | null;
  result: unknown;
  created_at: Date;
  finished_at: Date | null;
}

export interface RunningJob<Payload = Record<string, unknown>> extends Job<Payload> {
  /**
   * Extends the lease; long jobs call it so another instance does not take the job over. Throws
   * LeaseLostError (and aborts `signal`) when another worker already has: stop then.
   */
  heartbeat(): Promise<void>;
  /** Aborted when the server shuts down or the lease is lost; stop early and the job is retried later. */
  signal: AbortSignal;
  /**
   * Runs `work` in one transaction that holds this job's claim (and renews its lease). When another
   * worker has taken the job over, nothing is written and LeaseLostError is thrown. Writes that a
   * worker whose lease ran out must not make go through it. Query only through `tx` inside: on
   * PGlite another query would wait for this transaction to end.
   */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- handlers of every payload type share one registry
export type JobHandler = (job: RunningJob<any>) => Promise<unknown>;

export interface QueueOptions {
  lane: Lane;
  leaseMs: number;
  maxAttempts: number;
  /** Delay before retry n (1-based) is backoffMs * 2^(n-1), with ±20 % jitter. */
  backoffMs: number;
  /**
   * Called once when the job fails for good: its last attempt threw, or the worker running its last
   * attempt stopped. Records the failure where the area keeps its state (through `job.transaction`).
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- handlers of every payload type share one registry
  onFailed?: (job: RunningJob<any>, error: string) => Promise<void>;
}

/** Another worker has claimed the job since this one did: its lease ran out. */
export class LeaseLostError extends Error {
  constructor(job: { id: number; queue: string }) {
    super(`job ${job.id} (${job.queue}) was taken over by another worker after its lease ran out`);
    this.name = 'LeaseLostError';
  }
}

/** Thrown by a handler: retried after the queue's back-off, never sooner than `retryAfterMs`; `permanent` fails it now. */
export class JobError extends Error {
  constructor(
    message: string,
    readonly options: { retryAfterMs?: number; permanent?: boolean } = {},
  ) {
    super(message);
    this.name = 'JobError';
  }
}

/** Returned by a handler: the job runs again at `runAt`, and the run that returned it does not count as an attempt. */
export class RunAgain {
  constructor(readonly runAt: Date) {}
}

export const runAgainAt = (runAt: Date) => new RunAgain(runAt);

/** Wait before retry n (1-based): baseMs * 2^(n-1) ±20 %, never shorter than the service's Retry-After. */
export function backoffDelayMs(attempt: number, baseMs: number, retryAfterMs = 0, random = Math.random): number {
  const backoff = baseMs * 2 ** (attempt - 1) * (0.8 + random() * 0.4);
  return Math.max(Math.round(backoff), retryAfterMs);
}
