/**
 * Follow-ups: one defect, one line. A finding follows from another (its root) when a relation declared
 * between their checks says so (checks/follow-ups.ts: the print slip disagrees with the status record
 * because its own total is wrong) AND both rest on the same exchange of the same test AND every field
 * the follow-up names is one the root judges. Anything else stays a finding of its own: a follow-up
 * whose root is absent, or that names a field the root does not judge, is an independent defect.
 * A folded finding is still a finding (summary.json holds it, marked with its root); the reports show
 * it under its root, `baseline write` makes the root's entry only, and a baseline entry that knows the
 * root knows what follows from it.
 */
import type { Exchange } from './exchange.ts';
import type { Finding, Severity } from './finding.ts';

/** A relation between two checks: a finding of `check` may follow from one of `from`. */
export interface FollowUpRule {
  /** The check whose finding may follow. */
  check: string;
  /** The check of the root. */
  from: string;
  /** The fields the root judges: the follow-up folds only when every field it names is one of them. */
  fields: readonly string[];
  /**
   * The object of the follow-up's evidence whose keys are the fields it names (e.g. `slip`). Absent:
   * the follow-up's check judges nothing but `fields` of the exchange (an answer's status, say).
   */
  fieldsIn?: string;
  /** Why it follows, for a reader. */
  because: string;
}

/** The root a folded finding follows from. */
export interface FollowsFrom {
  check: string;
  clause: string;
  message: string;
  /** The test that reported the root: this one, or an earlier one whose finding this test saw again. */
  test: string;
  because: string;
}

/** A finding of another test that this test saw again on one of its exchanges (a repeat, counted on its root). */
export interface SeenAgain {
  check: string;
  severity: Severity;
  /** This test's exchange it was seen on. */
  exchangeSeq?: number;
  /** The finding it repeats, as the test that reported it has it. */
  root: { check: string; clause: string; message: string; test: string };
}

const weight = (s: Severity) => (s === 'failure' ? 2 : 1);

/** The exchange a finding rests on (its sequence number in the run), if any. */
export function exchangeSeqOf(f: Pick<Finding, 'evidence'>): number | undefined {
  const seq = (f.evidence as { exchange?: Partial<Exchange> } | null | undefined)?.exchange?.seq;
  return typeof seq === 'number' ? seq : undefined;
}

/** The fields a follow-up names: the keys of its evidence's `rule.fieldsIn` object (without one, the rule's). */
function namedFields(f: Pick<Finding, 'evidence'>, rule: FollowUpRule): readonly string[] {
  if (rule.fieldsIn === undefined) return rule.fields;
  const at = (f.evidence as Record<string, unknown> | null | undefined)?.[rule.fieldsIn];
  return at && typeof at === 'object' && !Array.isArray(at) ? Object.keys(at) : [];
}

/**
 * The findings of one test with each follow-up marked `followsFrom` its root: a finding of this test,
 * or a finding of an earlier test seen again here (`seen`), on the same exchange. A root weighs at
 * least as much as what follows from it (a failure never folds under a warning), and is no follow-up
 * itself. A finding marked already keeps its mark.
 */
export function linkFollowUps<F extends Finding>(
  findings: readonly F[],
  seen: readonly SeenAgain[],
  rules: readonly FollowUpRule[],
  test?: string,
): F[] {
  return findings.map((f) => {
    if (f.followsFrom) return f;
    const seq = exchangeSeqOf(f);
    if (seq === undefined) return f;
    for (const rule of rules) {
      if (rule.check !== f.check) continue;
      const named = namedFields(f, rule);
      if (named.length === 0 || !named.every((k) => rule.fields.includes(k))) continue;
      const own = findings.find(
        (g) => g !== f && g.check === rule.from && !g.followsFrom && exchangeSeqOf(g) === seq && weight(g.severity) >= weight(f.severity),
      );
      const again = own
        ? undefined
        : seen.find((r) => r.check === rule.from && r.exchangeSeq === seq && weight(r.severity) >= weight(f.severity));
      const root = own
        ? { check: own.check, clause: own.clause, message: own.message, test: own.test ?? f.test ?? test ?? '' }
        : again?.root;
      if (root)
        return {
          ...f,
          followsFrom: { check: root.check, clause: root.clause, message: root.message, test: root.test, because: rule.because },
        };
    }
    return f;
  });
}

/** Whether `root` is the finding `f` follows from. */
export function isRootOf(root: Pick<Finding, 'check' | 'message' | 'test'>, f: Pick<Finding, 'followsFrom'>): boolean {
  const r = f.followsFrom;
  return r !== undefined && r.check === root.check && r.message === root.message && r.test === root.test;
}
