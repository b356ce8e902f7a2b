/**
 * The embedded simulator's terminal clock, skipped ahead where a scenario would only sit out the
 * terminal's steps and deadlines: the stateful model's waits and the deadline scenario's.
 */
import type { RunContext } from '../../../src/index.ts';
import { postSimControl } from '../../../src/suite.ts';

/** What a skip of the terminal's clock did: a line for the trace; `settled` when the record was final past the settle window. */
export interface Skip {
  line: string;
  settled: boolean;
}

/** Skips the clock of the terminal of transaction or operation `id` ahead; see {@link clockSkipper}. */
export type SkipAhead = (id: string) => Promise<Skip>;

/**
 * On the embedded simulator, and only there (a URL or a Pact mock keeps its own time), a wait that
 * would only sit out the terminal's steps and deadlines first skips that terminal's clock ahead through
 * the simulator's control surface (`POST /_sim/clock`, never its code): the terminal does what it
 * would have done, in the same order, now, until the record is final and then for the run's settle
 * window (a final status that changes a step later has changed when the wait polls it). Never past the
 * run's own deadline, so a transaction that would not be final by then still is not. Best effort:
 * whatever it answers, the convergence that follows observes and judges as before; a skip that failed
 * costs only the time it would have saved, and the settle window is then waited in real time.
 */
export function clockSkipper(ctx: Pick<RunContext, 'targetKind' | 'baseUrl' | 'deadlineMs' | 'settleMs'>): SkipAhead | undefined {
  if (ctx.targetKind !== 'sim') return undefined;
  const url = new URL('/_sim/clock', ctx.baseUrl).href;
  const ms = (v: number, min: number) => Math.max(min, Math.min(600_000, Math.round(v)));
  const body = (id: string) => ({ id, max_ms: ms(ctx.deadlineMs, 1), settle_ms: ms(ctx.settleMs, 0) });
  return async (id) => {
    try {
      const { status, body: b } = await postSimControl(url, body(id), 5_000);
      const detail = typeof b.detail === 'string' ? b.detail : '';
      if (status < 200 || status > 299) return { line: `clock not skipped (${status} ${detail})`.trim(), settled: false };
      return { line: `clock +${String(b.skipped_ms)} ms: ${String(b.status)}`, settled: b.final === true };
    } catch (e) {
      return { line: `clock not skipped (${(e as Error).message})`, settled: false };
    }
  };
}

/**
 * For a scenario's wait for `id` to be final: on the embedded simulator, its terminal's clock skipped
 * ahead first ({@link clockSkipper}); the convergence's options (no settle window left when the skip
 * went through it). Anywhere else, nothing: the wait is the service's.
 */
export async function skipAheadOnSim(ctx: Parameters<typeof clockSkipper>[0], id: string): Promise<{ settleMs?: number }> {
  const skip = clockSkipper(ctx);
  if (!skip) return {};
  return (await skip(id)).settled ? { settleMs: 0 } : {};
}
