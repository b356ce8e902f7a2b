/**
 * What makes two findings one defect, and the root cause other tests are blocked by. Shared by the
 * runtime (which files findings as they are seen) and the reports (which count repeats and blocks).
 */
import type { Exchange } from './exchange.ts';
import type { Finding } from './finding.ts';

/** A finding that keeps other tests from going on: what they are blocked by. */
export interface RootCause {
  check: string;
  severity: Finding['severity'];
  clause: string;
  /** The sentence(s) its rule enforces (Finding.quote). */
  quote?: readonly string[];
  message: string;
  /** The test that saw it first. */
  test: string;
}

const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
/** Ids the service or the run made up: long tokens that mix letters and digits. */
const ID_LIKE = /\b(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{12,}\b/g;
/** Amounts, durations, sequence numbers (status codes have three digits and stay). */
const LONG_NUMBER = /\b\d{4,}\b/g;

/**
 * The run's amounts in an amount field (`tip_amount 100`, `total_amount 1501 vs 1500`) or its sum
 * (`!= amount 500 + tip_amount 0`): the defect is the arithmetic, not the amounts a run drew. A lone
 * `amount 1551` stays: in a sandbox its last digits choose the outcome, so it names the scenario.
 */
const AMOUNT_FIELD = /\b(\w+_amount\s*[:=]?\s*)-?\d+\b/g;
const SUMMED_AMOUNT = /((?:!=|==|\+|-)\s*amount\s+)-?\d+\b/g;
const VERSUS = /(<n>\s+(?:vs|!=|==)\s+)-?\d+\b/g;

/** A message with the ids, large numbers and amounts that differ between occurrences of one defect taken out. */
export function normaliseMessage(message: string): string {
  return message
    .replace(UUID, '<id>')
    .replace(ID_LIKE, '<id>')
    .replace(LONG_NUMBER, '<n>')
    .replace(AMOUNT_FIELD, '$1<n>')
    .replace(SUMMED_AMOUNT, '$1<n>')
    .replace(VERSUS, '$1<n>');
}

/** What makes two findings the same defect. */
export function defectKey(f: Pick<Finding, 'check' | 'severity' | 'clause' | 'message' | 'evidence'>): string {
  const ex = (f.evidence as { exchange?: Exchange } | undefined)?.exchange;
  const op = ex ? (ex.operationId ?? `${ex.request.method} ${ex.request.path}`) : '';
  return [f.check, f.severity, f.clause, normaliseMessage(op), normaliseMessage(f.message)].join('\u0000');
}

/** The root cause a finding stands for. */
export function rootOf(f: Pick<Finding, 'check' | 'severity' | 'clause' | 'message' | 'quote'>, test: string): RootCause {
  return { check: f.check, severity: f.severity, clause: f.clause, ...(f.quote ? { quote: f.quote } : {}), message: f.message, test };
}
