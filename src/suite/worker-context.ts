/**
 * What a vitest worker of the run knows: the run's context (provided by the engine) and which share
 * of the terminals, OTPs and vault pairings is its own. Built here and nowhere else.
 */
import { inject } from 'vitest';
import { RUN_CONTEXT_KEY, type RunContext, type WorkerShare } from '../runtime/index.ts';

declare module 'vitest' {
  interface ProvidedContext {
    /** The run's context, provided by the engine under RUN_CONTEXT_KEY (`payconnect`). */
    payconnect: RunContext;
  }
}

/** The run as one worker sees it. */
export interface WorkerContext {
  ctx: RunContext;
  /** This worker's share: its terminal and its part of the OTPs and vault pairings. */
  share: WorkerShare;
  /** Vitest's number of this worker, from 1 (shown in the reports' harness load). */
  worker: number;
}

/**
 * The worker's context. Vitest numbers the workers of a pool from 1 (VITEST_POOL_ID) and never runs
 * two at once under one number, so with N terminals and N workers each worker has a terminal of its
 * own; a worker number past the count wraps around (workers are never more than terminals).
 */
export function workerContext(ctx: RunContext = inject(RUN_CONTEXT_KEY), env: NodeJS.ProcessEnv = process.env): WorkerContext {
  const worker = Number(env.VITEST_POOL_ID ?? '1') || 1;
  const count = Math.max(1, ctx.workers ?? 1);
  return { ctx, share: { index: (Math.max(1, worker) - 1) % count, count }, worker };
}
