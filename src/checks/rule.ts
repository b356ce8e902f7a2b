/**
 * What every judge's rule is, whichever command judges it: `run`'s checks, certify-client's and
 * check-receiver's rules, check-pact's verdict. A rule has a stable id, the source its severity comes
 * from (spec: a failure; profile or sandbox: a warning, a failure under --strict), the clause it judges,
 * and a fix: one line telling whoever owns the code under judgement what to change. Each judge keeps
 * its own logic; this metadata is registered once, in rule-registry.ts, so one behaviour has one id and
 * one severity wherever it is judged.
 */
import type { RuleSource } from '../core/index.ts';
import { type Assumption, RULE_ASSUMPTIONS, RULE_QUOTES } from './rule-quotes.ts';

export type { Assumption } from './rule-quotes.ts';

/** The commands that judge rules. */
export const JUDGES = ['run', 'check-receiver', 'certify-client', 'check-pact'] as const;
/** A command that judges rules (and takes `--disable-check`). */
export type Judge = (typeof JUDGES)[number];

/** A rule's metadata: what the reports, the docs and `--disable-check` know of it. */
export interface RuleMeta<Id extends string = string> {
  /** Stable id, `area.rule`. Never renamed without an alias: reports, baselines and configs name it. */
  id: Id;
  /** The heading of the document its sentence is under, e.g. `spec#events`. */
  clause: string;
  /**
   * The sentence(s) of the documents it enforces, verbatim (rule-quotes.ts); empty for an assumption.
   * Filled in from rule-quotes.ts by {@link defineRule} and the registry.
   */
  quote?: readonly string[];
  /** Present when no sentence states the rule: what we assume instead (rule-quotes.ts). */
  assumption?: Assumption;
  /** Where the rule comes from; decides severity (spec fails, profile and sandbox warn). */
  source: RuleSource;
  /** What it expects, as a test's name says it. */
  title: string;
  /** One line for whoever must fix a breach: the service team (run) or the integrator (the other commands). */
  fix: string;
}

/** A registered rule: its metadata, the commands that judge it, and the ids it was known by before. */
export interface Rule<Id extends string = string> extends RuleMeta<Id> {
  judges: readonly Judge[];
  /** Former ids, still accepted by `--disable-check` and baselines (canonicalRuleId). */
  formerly?: readonly string[];
}

/** A rule's metadata with its quote (or its assumption) from rule-quotes.ts. */
export function withQuote<R extends { id: string }>(rule: R): R & { quote: readonly string[]; assumption?: Assumption } {
  const assumption = RULE_ASSUMPTIONS[rule.id];
  return { ...rule, quote: RULE_QUOTES[rule.id] ?? [], ...(assumption ? { assumption } : {}) };
}

/** The quote of rule `id` (empty: an assumption, or no such rule). */
export function quoteOf(id: string): readonly string[] {
  return RULE_QUOTES[id] ?? [];
}

/** Defines a rule, with its quote from rule-quotes.ts; `Id` stays a literal type. */
export function defineRule<const Id extends string>(rule: Rule<Id>): Rule<Id> & { quote: readonly string[] } {
  return withQuote(rule);
}

/** How a rule of `source` weighs, in words: `failure`, or `warning (failure with --strict)`. */
export function severityText(source: RuleSource): string {
  return source === 'spec' ? 'failure' : 'warning (failure with --strict)';
}
