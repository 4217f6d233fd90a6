import type { Database } from '../db/client';
import type { Claims, ClaimedJob } from './jobQueries';
import { backoffDelayMs, JobError, LeaseLostError, RunAgain, type JobHandler, type Lane, type QueueOptions, type RunningJob } from './job';

interface RunnerDeps {
  database: Database;
  claims: Claims;
  handlers: Map<string, { handler: JobHandler; options: QueueOptions }>;
  log: { warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };
  concurrency: Record<Lane, number>;
}

/** Runs claimed jobs: the lanes' workers, one job's run with its fenced writes, and shutdown. */
export function createRunner({ database, claims, handlers, log, concurrency }: RunnerDeps) {
  const busy: Record<Lane, number> = { default: 0, sync: 0, messages: 0 };
  const inFlight = new Set<Promise<unknown>>();
  let abort = new AbortController();
  let stopping = false;

  const queuesOf = (lane: Lane) => [...handlers].filter(([, entry]) => entry.options.lane === lane).map(([name]) => name);
  const leases = () => Object.fromEntries([...handlers].map(([name, entry]) => [name, entry.options.leaseMs]));

  function track<T>(work: Promise<T>): Promise<T> {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work)).catch(() => undefined);
    return work;
  }

  /** A stale worker's write that matched nothing: the job is another worker's now. */
  const discarded = (job: ClaimedJob, what: string) => log.warn({ queue: job.queue, job: job.id }, `job ${what} after another worker took it over; discarded`);

  async function failForGood(job: ClaimedJob, running: RunningJob, options: QueueOptions, error: string, refund: boolean) {
    try {
      await options.onFailed?.(running, error);
    } catch (hookError) {
      // Left running: once the lease runs out the failure is recorded again.
      log.error({ err: hookError, queue: job.queue, job: job.id }, 'recording a failed job failed');
      return;
    }
    if (!(await claims.fail(job, error, refund))) discarded(job, 'failure');
  }

  async function execute(job: ClaimedJob) {
    const { handler, options } = handlers.get(job.queue)!;
    const lost = new AbortController();
    const leaseLost = () => {
      const error = new LeaseLostError(job);
      lost.abort(error);
      return error;
    };
    const running: RunningJob = {
      ...job,
      signal: AbortSignal.any([abort.signal, lost.signal]),
      heartbeat: async () => {
        if (!(await claims.renew(job, options.leaseMs))) throw leaseLost();
      },
      transaction: (work) =>
        database.transaction(async (tx) => {
          // Locks the job's row until commit: a recovery waits, and a takeover means nothing is written.
          if (!(await claims.renew(job, options.leaseMs, tx))) throw leaseLost();
          return work(tx);
        }),
    };
    if (job.attempts > job.max_attempts) {
      // The worker running its last attempt stopped: this claim only records the failure.
      await failForGood(job, running, options, job.last_error ?? 'the worker running it stopped', true);
      return;
    }
    let result: unknown;
    try {
      result = await handler(running);
    } catch (error) {
      if (error instanceof LeaseLostError || lost.signal.aborted) {
        log.warn({ queue: job.queue, job: job.id }, 'job stopped: another worker took it over after its lease ran out');
        return;
      }
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 2000);
      const final = (error instanceof JobError && error.options.permanent === true) || job.attempts >= job.max_attempts;
      log.warn({ err: error, queue: job.queue, job: job.id, attempt: job.attempts, final }, 'job failed');
      if (final) return failForGood(job, running, options, message, false);
      const delayMs = backoffDelayMs(job.attempts, options.backoffMs, error instanceof JobError ? error.options.retryAfterMs : 0);
      if (!(await claims.requeue(job, { delayMs, error: message }))) discarded(job, 'failure');
      return;
    }
    if (result instanceof RunAgain) {
      if (!(await claims.requeue(job, { runAt: result.runAt, refund: true }))) discarded(job, 'deferral');
    } else if (!(await claims.complete(job, result))) {
      discarded(job, 'result');
    }
  }

  /** One worker: claims and runs jobs of `queues` until none is due. */
  async function work(queues: string[], onClaim?: () => void): Promise<number> {
    let ran = 0;
    while (!stopping) {
      const job = await claims.claim(queues, leases());
      if (!job) break;
      onClaim?.();
      await execute(job);
      ran++;
    }
    return ran;
  }

  return {
    get stopping() {
      return stopping;
    },

    /**
     * Starts a worker in the lane if it has a free one; each worker that finds a job starts another
     * while the lane has room, so an idle lane costs one claim. Resolves when the workers started
     * here stop, with how many jobs they ran.
     */
    fillLane(lane: Lane): Promise<number> {
      const queues = queuesOf(lane);
      if (queues.length === 0 || busy[lane] >= concurrency[lane]) return Promise.resolve(0);
      return new Promise((resolve, reject) => {
        let ran = 0;
        let workers = 0;
        let failure: unknown;
        const startWorker = () => {
          workers++;
          busy[lane]++;
          track(work(queues, () => busy[lane] < concurrency[lane] && !stopping && startWorker()))
            .then(
              (n) => void (ran += n),
              (error) => void (failure ??= error),
            )
            .finally(() => {
              busy[lane]--;
              if (--workers === 0) {
                if (failure === undefined) resolve(ran);
                else reject(failure);
              }
            });
        };
        startWorker();
      });
    },

    drain(queues: string[]): Promise<number> {
      return track(work(queues));
    },

    resume() {
      stopping = false;
      if (abort.signal.aborted) abort = new AbortController();
    },

    async stop() {
      stopping = true;
      abort.abort();
      // Running jobs get a moment to notice the abort; otherwise their lease expires and they are retried.
      await Promise.race([Promise.allSettled([...inFlight]), new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
    },
  };
}
