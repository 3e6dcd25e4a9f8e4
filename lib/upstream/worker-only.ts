import "server-only";
import type { JobResult } from "pg-boss";
import { AppError, isAppError, type FieldErrors } from "@/lib/errors";
import { defineJob, type JobDefinition, type QueueSpec } from "@/lib/jobs/define-job";
import { runInWorker } from "@/lib/jobs/run-in-worker";
import { backgroundWork } from "@/lib/jobs/background-work";
import { logger } from "@/lib/log";
import type { Scope } from "@/lib/upstream/client";
import { upstream } from "./service";

/** What a worker-only task answers through its job: its value, or the AppError it refused with. */
type Outcome<O> =
  | { ok: true; value: O }
  | {
      ok: false;
      error: {
        code: string;
        message: string;
        status?: number;
        fieldErrors?: FieldErrors;
        correlationId?: string;
        extra?: Record<string, unknown>;
      };
    };

/**
 * Upstream work that needs a scope the web processes may not hold (the payout key's
 * `wallet.withdraw` and `wallet.deposit-address.write`: README, "The upstream's keys"). A web
 * process that holds a key with the scope (the one-key setup) runs it at once, as before;
 * one that does not hands it to the worker, which does, and waits up to `waitMs` for the
 * outcome (not at all while no worker beats: lib/jobs/background-work.ts). So no page or
 * route of a least-privilege web process can move funds out: it can only ask the worker to
 * carry out what the database already says was approved, and `run` checks that again where
 * it runs (lock, check, record, then act).
 *
 * `run` takes plain JSON (it crosses the job queue) and answers a value or throws an
 * AppError; either reaches the web caller as if it had run there. No retries: the task's own
 * rules decide what is safe to send again (a withdrawal is never resent blindly).
 */
export function workerOnly<I extends object, O>(spec: {
  queue: string;
  scope: Scope;
  run: (input: I) => Promise<O>;
  /** How long a web caller waits for the worker before answering "still running" (default 10 s). */
  waitMs?: number;
}): { call(input: I): Promise<{ waiting: false; value: O } | { waiting: true }>; job: JobDefinition; queue: QueueSpec } {
  const queue: QueueSpec = {
    name: spec.queue,
    options: { policy: "standard", retryLimit: 0, expireInSeconds: 120, deleteAfterSeconds: 3_600 },
    notify: true,
  };

  const job = defineJob<I>({
    queue,
    // A person is waiting on each of these: look often (on PostgreSQL, NOTIFY wakes it at once).
    work: () => ({ pollingIntervalSeconds: 0.5, batchSize: 1, perJobResults: true }),
    async handle(jobs): Promise<JobResult[]> {
      const results: JobResult[] = [];
      for (const job of jobs) {
        let outcome: Outcome<O>;
        try {
          outcome = { ok: true, value: await spec.run(job.data) };
        } catch (error) {
          if (!isAppError(error)) logger.warn("worker-only task failed", { queue: spec.queue, error: String(error) });
          const known = isAppError(error)
            ? error
            : new AppError("upstream_unavailable", "The worker could not finish this; try again in a minute.", { status: 503 });
          const { code, message, status, fieldErrors, correlationId, extra } = known;
          outcome = { ok: false, error: { code, message, status, fieldErrors, correlationId, extra } };
        }
        results.push({ id: job.id, status: "completed", output: outcome });
      }
      return results;
    },
  });

  return {
    queue,
    job,
    async call(input) {
      if (upstream().transport.serves(spec.scope)) return { waiting: false, value: await spec.run(input) };
      // No worker beats: the job waits for the next one, and the caller is not kept waiting for nothing.
      const waitMs = (await backgroundWork()).running ? (spec.waitMs ?? 10_000) : 0;
      const answer = await runInWorker<Outcome<O>>(queue, input, waitMs);
      if (answer.waiting) return { waiting: true };
      const outcome = answer.output;
      if (outcome.ok) return { waiting: false, value: outcome.value };
      if (!outcome.error) throw new Error(`the ${spec.queue} job answered no outcome`);
      const { code, message, ...more } = outcome.error;
      throw new AppError(code, message, more);
    },
  };
}
