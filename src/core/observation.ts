/**
 * What convergence observed for one transaction or operation: produced by src/convergence, judged by
 * src/checks (which may not import each other), so the shape lives here.
 */

/** One status seen on one channel. */
export interface StatusSighting {
  status: string;
  channel: 'poll' | 'webhook';
  atMs: number;
}

/** What convergence observed for one transaction or operation. */
export interface ConvergenceObservation {
  kind: 'transaction' | 'operation';
  id: string;
  /** Polled statuses in order (consecutive duplicates folded). */
  polled: StatusSighting[];
  /** Valid webhook deliveries for the id, in arrival order. */
  webhooks: StatusSighting[];
  /** The final status seen by polling, if any. */
  finalByPoll?: string;
  /** The final status seen by webhook (the latest final one), if any. */
  finalByWebhook?: string;
  /** Whether webhooks were observable for this pairing (receiver reachable and key known). */
  webhooksObservable: boolean;
  deadlineMs: number;
  elapsedMs: number;
  timedOut: boolean;
}
