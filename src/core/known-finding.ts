/**
 * Known findings (a baseline) and confirmations: the words both the suites' runtime (which marks a
 * finding known as the test ends) and the reports (which list known findings apart, and how often a
 * finding reproduced) use.
 */
import type { Exchange } from './exchange.ts';
import type { Finding } from './finding.ts';
import { isRootOf } from './follow-up.ts';

/**
 * One entry of a baseline file: a defect of the service that is known, has a reason (and a ticket),
 * and an expiry date. A finding matches when its check is the entry's and, for each of `operation`,
 * `clause` and `match` the entry gives, the finding agrees: narrower entries hide less.
 */
export interface BaselineEntry {
  /** The check id, as the reports show it. */
  check: string;
  /** The contract operation id of the exchange the finding rests on (`generateTransaction`). */
  operation?: string;
  /** The clause, e.g. `spec#endpoints`. */
  clause?: string;
  /** A regular expression the finding's message must match (JavaScript syntax, unanchored). */
  match?: string;
  /** Why it is known: what a reader of the report is told. */
  reason: string;
  /** The ticket that tracks the fix. */
  ticket?: string;
  /** `YYYY-MM-DD` (the end of that day, UTC) or an ISO 8601 date-time: past it the entry fails the run. */
  expires: string;
}

/** What a known finding carries: the entry that matched it (its place in the file, from 1), and why. */
export interface KnownMark {
  entry: number;
  reason: string;
  ticket?: string;
  expires: string;
}

/** How a failure reproduced when its test was run again (`--confirm N`). */
export interface Confirmation {
  /** The runs again that counted (one the harness was overloaded through does not). */
  attempts: number;
  /** In how many of them the same defect was seen again. */
  reproduced: number;
  /** `deterministic`: seen in every attempt; `intermittent`: not (still a defect, with its rate). */
  kind: 'deterministic' | 'intermittent';
  /** The share of all the runs (the first and the attempts) that saw it. */
  rate: number;
  /** Attempts not counted because the harness stood still through them (each run once more). */
  rechecked?: number;
}

/** The moment an entry's expiry passes: a date means the end of that day, UTC. */
export function expiryTime(expires: string): number {
  return /^\d{4}-\d{2}-\d{2}$/.test(expires) ? Date.parse(`${expires}T23:59:59.999Z`) : Date.parse(expires);
}

/** Whether the entry has expired at `now` (ms). */
export function isExpired(entry: Pick<BaselineEntry, 'expires'>, now: number): boolean {
  return expiryTime(entry.expires) < now;
}

/** The operation id of the exchange a finding rests on, if it rests on one. */
export function operationOfFinding(f: Pick<Finding, 'evidence'>): string | undefined {
  const ex = (f.evidence as { exchange?: Exchange } | undefined)?.exchange;
  return ex?.operationId ?? undefined;
}

/** Whether the entry matches the finding. */
export function entryMatches(entry: BaselineEntry, f: Pick<Finding, 'check' | 'clause' | 'message' | 'evidence'>): boolean {
  if (entry.check !== f.check) return false;
  if (entry.clause !== undefined && entry.clause !== f.clause) return false;
  if (entry.operation !== undefined && entry.operation !== operationOfFinding(f)) return false;
  return entry.match === undefined || new RegExp(entry.match).test(f.message);
}

/**
 * The findings with those a live entry matches marked `known` (the first entry that matches). An
 * expired entry marks nothing: what it matches is a finding again, and the run fails naming it.
 */
export function markKnown<F extends Finding>(findings: readonly F[], entries: readonly BaselineEntry[], now: number): F[] {
  const live = entries.map((e, i) => ({ e, n: i + 1 })).filter(({ e }) => !isExpired(e, now));
  const marked = findings.map((f) => {
    const hit = live.find(({ e }) => entryMatches(e, f));
    if (!hit) return f;
    const { reason, ticket, expires } = hit.e;
    return { ...f, known: { entry: hit.n, reason, ...(ticket ? { ticket } : {}), expires } };
  });
  // What follows from a known root is the same defect: the root's entry knows it too (one entry per root).
  return marked.map((f) => {
    if (f.known || !f.followsFrom) return f;
    const root = marked.find((r) => r.known && isRootOf(r, f));
    return root ? { ...f, known: { ...root.known! } } : f;
  });
}

/** Whether a finding counts against the run: a failure that no baseline entry knows. */
export function countsAsFailure(f: Pick<Finding, 'severity' | 'known'>): boolean {
  return f.severity === 'failure' && f.known === undefined;
}
