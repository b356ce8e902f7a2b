/**
 * The shape of a check: a small pure function registered under a stable id. It returns an explicit
 * outcome (pass, skip with a reason, or fail with findings) instead of throwing; a check that throws
 * anyway becomes a `check.crashed` finding, never a dead run.
 */
import type { Exchange, OperationEntry, RuleSource } from '../core/index.ts';
import type { Profile } from '../profile/index.ts';

/** What a check knows besides its input. */
export interface CheckContext {
  profile: Profile;
  strict: boolean;
  /** The contract's entry for the exchange's operation, when the path matched one. */
  operation?: OperationEntry;
  /** --max-response-time, ms: the opt-in limit on an answer's time; absent, slowness is not judged. */
  maxResponseTimeMs?: number;
}

/** A finding before the runtime adds the test name and computes severity. */
export interface FindingDraft {
  message: string;
  /** Overrides the check's own source (e.g. the x-source of the schema that was violated). */
  source?: RuleSource;
  /** Overrides the check's own clause (e.g. the section of the resource whose schema was violated). */
  clause?: string;
  /** Overrides the rule's quote (rule-quotes.ts): the sentence that makes this input invalid, say. */
  quote?: readonly string[];
  evidence?: unknown;
}

export type CheckOutcome = { kind: 'pass' } | { kind: 'skip'; reason: string } | { kind: 'fail'; findings: FindingDraft[] };

/** A registered check. `I` is its input: an exchange for automatic checks, an observation otherwise. */
export interface Check<I = unknown, Id extends string = string> {
  /** Stable id, e.g. `response.schema`. Never renamed: reports and users' configs refer to it. */
  id: Id;
  /** The spec section or profile rule it rests on, e.g. `spec#transaction-print-slip`. */
  clause: string;
  /** Where the rule comes from; decides severity (spec fails, profile and sandbox warn). */
  source: RuleSource;
  title: string;
  /** Run on every recorded exchange. */
  auto?: boolean;
  run(input: I, ctx: CheckContext): CheckOutcome;
}

export const pass = (): CheckOutcome => ({ kind: 'pass' });
export const skip = (reason: string): CheckOutcome => ({ kind: 'skip', reason });
export const fail = (...findings: FindingDraft[]): CheckOutcome => (findings.length === 0 ? { kind: 'pass' } : { kind: 'fail', findings });

/** Defines a check; `Id` keeps its id as a literal type, so `scope.check(id, input)` knows the input type. */
export function defineCheck<I, const Id extends string = string>(check: Check<I, Id>): Check<I, Id> {
  return check;
}

/** The exchange's response body when it parsed as JSON, else undefined. */
export function jsonBody(ex: Exchange): unknown {
  return ex.response?.body;
}
