/**
 * The one registry of rules for every judge: `run`'s checks (registry.ts, with their fixes in
 * run-fixes.ts), check-receiver's and certify-client's rules (one rule where both judge one behaviour),
 * check-pact's verdict. Ids are unique across all of them; a renamed rule keeps its former ids as
 * aliases (canonicalRuleId), so baselines and `--disable-check` lists written before still work.
 * The docs' list of rules (scripts/rules-doc.ts) and `--disable-check`'s validation (disable-check.ts)
 * are made from it.
 */
import { CLIENT_ONLY_RULES } from './client-rules.ts';
import { PACT_RULES } from './pact-rules.ts';
import { WEBHOOK_ENDPOINT_RULES } from './receiver-rules.ts';
import { CHECKS } from './registry.ts';
import { type Assumption, type Judge, JUDGES, type Rule, severityText, withQuote } from './rule.ts';
import { RUN_FIXES } from './run-fixes.ts';

// By id: the order of a module namespace's exports differs between loaders (tsx, vite), the docs' may not.
const runRules: Rule[] = [...CHECKS.values()]
  .sort((a, b) => (a.id < b.id ? -1 : 1))
  .map((c) =>
    withQuote({
      id: c.id,
      judges: ['run'] as Judge[],
      source: c.source,
      clause: c.clause,
      title: c.title,
      fix: (RUN_FIXES as Record<string, string>)[c.id] ?? '',
    }),
  );

const all: readonly Rule[] = [...runRules, ...WEBHOOK_ENDPOINT_RULES, ...CLIENT_ONLY_RULES, ...PACT_RULES];

/** Every registered rule by id, `run`'s first (by id), then check-receiver's, certify-client's, check-pact's. */
export const RULES: ReadonlyMap<string, Rule> = new Map(all.map((r) => [r.id, r]));
if (RULES.size !== all.length) {
  const twice = all.find((r, i) => all.findIndex((s) => s.id === r.id) !== i)!;
  throw new Error(`rule id ${twice.id} is registered twice`);
}

/** Former ids, each to the id that replaced it. */
export const RULE_ALIASES: ReadonlyMap<string, string> = new Map(all.flatMap((r) => (r.formerly ?? []).map((old) => [old, r.id] as const)));
for (const [old, now] of RULE_ALIASES) {
  if (RULES.has(old)) throw new Error(`${old} is both a rule id and a former id of ${now}`);
}

/** The rule an id (current or former) names, or undefined. */
export function ruleById(id: string): Rule | undefined {
  return RULES.get(RULE_ALIASES.get(id) ?? id);
}

/** The current id of a rule from any id it has had (undefined: no rule had it). Baselines and disable lists go through it. */
export function canonicalRuleId(id: string): string | undefined {
  return ruleById(id)?.id;
}

/** Certify-client shows its own rules first, then its webhook endpoint's (as it always has). */
const ORDER: Readonly<Record<Judge, (r: Rule) => number>> = {
  run: () => 0,
  'check-receiver': () => 0,
  'check-pact': () => 0,
  'certify-client': (r) => (r.id.startsWith('client.') ? 0 : 1),
};

/** The rules `judge` judges, in its report order. */
export function rulesOf(judge: Judge): Rule[] {
  return all
    .filter((r) => r.judges.includes(judge))
    .map((r, i) => ({ r, i }))
    .sort((a, b) => ORDER[judge](a.r) - ORDER[judge](b.r) || a.i - b.i)
    .map((x) => x.r);
}

/** The ids of every command's rules. */
export const RULE_IDS_BY_JUDGE: Readonly<Record<Judge, readonly string[]>> = Object.fromEntries(
  JUDGES.map((j) => [j, rulesOf(j).map((r) => r.id)]),
) as Record<Judge, string[]>;

/** One line of the list of rules (the docs are generated from it). */
export interface RuleListing {
  id: string;
  judges: readonly Judge[];
  /** `failure`, or `warning (failure with --strict)`. */
  severity: string;
  source: Rule['source'];
  clause: string;
  title: string;
  fix: string;
  formerly: readonly string[];
  /** The sentence(s) it enforces, verbatim; empty for an assumption. */
  quote: readonly string[];
  /** What it assumes, when no sentence states it. */
  assumption?: Assumption;
}

/** Every rule, with the commands that judge it and its severity in words. */
export function listRules(): RuleListing[] {
  return all.map((r) => ({
    id: r.id,
    judges: r.judges,
    severity: severityText(r.source),
    source: r.source,
    clause: r.clause,
    title: r.title,
    fix: r.fix,
    formerly: r.formerly ?? [],
    quote: r.quote ?? [],
    ...(r.assumption ? { assumption: r.assumption } : {}),
  }));
}
