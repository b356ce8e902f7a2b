import type { TransitionGraph } from './profile.ts';

/**
 * Whether `to` can follow `from` in an observation. Polling may miss intermediate states, so a
 * transition is legal when `to` is reachable from `from` through the graph (or equal).
 */
export function isReachable(graph: TransitionGraph, from: string, to: string): boolean {
  if (from === to) return true;
  const seen = new Set<string>([from]);
  const queue = [from];
  while (queue.length > 0) {
    const s = queue.shift()!;
    for (const next of graph[s] ?? []) {
      if (next === to) return true;
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return false;
}
