/**
 * What a vitest worker of the run knows: the run's context (provided by the engine) and which of the
 * run's terminals are its own (its lanes), with their shares of the OTPs and vault pairings. Built
 * here and nowhere else.
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
  /** This worker's first terminal: its share of the OTPs and vault pairings. */
  share: WorkerShare;
  /** Every terminal of this worker (its lanes), in order; `shares[0]` is {@link share}. */
  shares: WorkerShare[];
  /** Vitest's number of this worker, from 1 (shown in the reports' harness load). */
  worker: number;
}

/**
 * The worker's context. Vitest numbers the workers of a pool from 1 (VITEST_POOL_ID) and never runs
 * two at once under one number. The run's terminals (`ctx.terminals`, else one per worker) are dealt
 * out over its `ctx.workers` workers in consecutive runs, the first workers taking one more when they
 * do not divide evenly: no two workers drive one terminal. A worker number past the count wraps around.
 */
export function workerContext(ctx: RunContext = inject(RUN_CONTEXT_KEY), env: NodeJS.ProcessEnv = process.env): WorkerContext {
  const worker = Number(env.VITEST_POOL_ID ?? '1') || 1;
  const workers = Math.max(1, ctx.workers ?? 1);
  const count = Math.max(workers, ctx.terminals ?? workers);
  const w = (Math.max(1, worker) - 1) % workers;
  const base = Math.floor(count / workers);
  const extra = count % workers;
  const first = w * base + Math.min(w, extra);
  const shares = Array.from({ length: base + (w < extra ? 1 : 0) }, (_, i) => ({ index: first + i, count }));
  return { ctx, share: shares[0]!, shares, worker };
}
