/**
 * A finding is data about the system under test: which check fired, how severe it is, which clause of
 * the spec or rule of the profile it rests on, and the (redacted) evidence.
 */

import type { FollowsFrom } from './follow-up.ts';
import type { Confirmation, KnownMark } from './known-finding.ts';

/** `failure`: the spec is broken. `warning`: a profile or sandbox assumption does not hold. */
export type Severity = 'failure' | 'warning';

/** Where a rule comes from: the spec (a requirement), the public profile or the sandbox profile. */
export type RuleSource = 'spec' | 'profile' | 'sandbox';

/** One finding about the service under test. */
export interface Finding {
  /** Stable id of the check that fired, e.g. `response.schema`. */
  check: string;
  severity: Severity;
  /** The spec section or profile rule, e.g. `spec#transaction-print-slip` or `sandbox#cancel`. */
  clause: string;
  /** The sentence(s) of the documents the rule enforces, verbatim (the rule registry's quote). */
  quote?: readonly string[];
  message: string;
  /** The test that observed it (filled in by the suite runtime). */
  test?: string;
  /** Redacted exchanges or observations. */
  evidence?: unknown;
  /** Present when a baseline entry knows the defect (`--baseline`): reported, but it fails nothing. */
  known?: KnownMark;
  /** Present when the test was run again to confirm it (`--confirm N`). */
  confirmation?: Confirmation;
  /** Present when it follows from another finding (follow-up.ts): reported folded under that root. */
  followsFrom?: FollowsFrom;
}

/**
 * The severity a rule of the given source has: the spec always fails; profile and sandbox rules warn,
 * unless `strict` is set.
 */
export function severityFor(source: RuleSource, strict: boolean): Severity {
  return source === 'spec' || strict ? 'failure' : 'warning';
}
