/**
 * The service's pace, measured on a test's own exchanges (the client's recorder times each one): how
 * long its answers took, by operation. Budgets and property-run counts follow it, so a service that
 * answers slowly where no document sets a limit is given the time it needs, and what does not fit is
 * named "not checked" with the pace that kept it out.
 */
import type { Exchange } from './exchange.ts';

/** How long one operation's answers took in a set of exchanges. */
export interface OperationPace {
  /** The contract's operationId, else `METHOD path`. */
  operation: string;
  count: number;
  meanMs: number;
  totalMs: number;
}

/** The time the service took to answer these exchanges, ms (their durations summed). */
export function serviceMs(exchanges: readonly Exchange[]): number {
  let total = 0;
  for (const ex of exchanges) total += Math.max(0, ex.durationMs || 0);
  return total;
}

/** The pace of each operation in `exchanges`, the one that took the most time first. */
export function paceOf(exchanges: readonly Exchange[]): OperationPace[] {
  const by = new Map<string, { count: number; totalMs: number }>();
  for (const ex of exchanges) {
    const key = ex.operationId ?? `${ex.request.method} ${ex.request.path}`;
    const p = by.get(key) ?? { count: 0, totalMs: 0 };
    p.count++;
    p.totalMs += Math.max(0, ex.durationMs || 0);
    by.set(key, p);
  }
  return [...by]
    .map(([operation, p]) => ({ operation, count: p.count, totalMs: p.totalMs, meanMs: p.totalMs / p.count }))
    .sort((a, b) => b.totalMs - a.totalMs || (a.operation < b.operation ? -1 : 1));
}

/** `3.1 s` (or `420 ms` below a second). */
export function durationText(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** The pace in words, the `most` slowest operations by time spent: `pair 3.1 s a request, getToken 40 ms a request`. */
export function paceText(exchanges: readonly Exchange[], most = 2): string {
  const paces = paceOf(exchanges).slice(0, most);
  return paces.length === 0 ? 'no request answered' : paces.map((p) => `${p.operation} ${durationText(p.meanMs)} a request`).join(', ');
}
