/**
 * `--disable-check ID` for every command: which ids a command may turn off, former ids taken as the
 * rule's current one, and for an id the command does not judge, one line saying why, with the nearest
 * id (did you mean) and the command(s) whose rule it is. Commands call `validateDisableCheck` once,
 * on the whole list, before anything runs.
 */
import { type ErrorCode, ToolkitError, editDistance } from '../core/index.ts';
import { RULE_ALIASES, RULE_IDS_BY_JUDGE, RULES, ruleById } from './rule-registry.ts';
import type { Judge } from './rule.ts';

export { editDistance } from '../core/index.ts';

/** The registered id (or former id) nearest to `id`, preferring `judge`'s own; undefined when none is near. */
export function nearestRuleId(id: string, judge?: Judge): string | undefined {
  const far = Math.max(3, Math.floor(id.length / 4));
  const best = (ids: readonly string[]) =>
    ids
      .map((k) => ({ k, d: editDistance(id, k) }))
      .filter((x) => x.d <= far)
      .sort((x, y) => x.d - y.d || (x.k < y.k ? -1 : 1))[0];
  const own = judge ? best(RULE_IDS_BY_JUDGE[judge]) : undefined;
  const any = best([...RULES.keys(), ...RULE_ALIASES.keys()]);
  const pick = own && (!any || own.d <= any.d) ? own : any;
  return pick ? ruleById(pick.k)!.id : undefined;
}

const judgesOf = (id: string) => ruleById(id)!.judges.join(' and ');

/** One id of a disable list: the rule's current id, or why `judge` cannot turn it off (and a hint). */
export type DisableCheckVerdict = { ok: true; id: string; renamedFrom?: string } | { ok: false; message: string; hint: string };

/** Whether `judge` judges the rule `id` names (current or former id), and if not, why not. */
export function explainDisableCheck(id: string, judge: Judge, where = '--disable-check'): DisableCheckVerdict {
  const rule = ruleById(id);
  if (rule?.judges.includes(judge)) return { ok: true, id: rule.id, ...(rule.id !== id ? { renamedFrom: id } : {}) };
  const list = `${judge}'s rules are listed in docs/rules.md`;
  if (rule) {
    return {
      ok: false,
      message: `${where} ${id}: a rule of ${rule.judges.join(' and ')}, not of ${judge}`,
      hint: `pass it to ${rule.judges.join(' or ')}; ${list}`,
    };
  }
  const near = nearestRuleId(id, judge);
  const area = RULE_IDS_BY_JUDGE[judge].filter((k) => k.split('.')[0] === id.split('.')[0]);
  const otherJudges = near && !ruleById(near)!.judges.includes(judge) ? ` (a rule of ${judgesOf(near)}, not of ${judge})` : '';
  return {
    ok: false,
    message: `${where} names no rule: ${id}${near ? `; did you mean ${near}${otherJudges}?` : ''}`,
    hint:
      area.length > 0
        ? `ids are as the reports show them; of its area ${judge} judges ${area.join(', ')}`
        : `ids are as the reports show them; ${list}`,
  };
}

/**
 * Validates a command's `--disable-check` ids (or a config's `checks.disable`): each must name a rule
 * the command judges, by its current or a former id. Returns the current ids, each once, in order;
 * throws a ToolkitError (`code`, default PCC_USAGE) naming the first id that does not.
 */
export function validateDisableCheck(ids: readonly string[], judge: Judge, o: { where?: string; code?: ErrorCode } = {}): string[] {
  const out: string[] = [];
  for (const id of ids) {
    const v = explainDisableCheck(id, judge, o.where);
    if (!v.ok) throw new ToolkitError(o.code ?? 'PCC_USAGE', v.message, v.hint);
    if (!out.includes(v.id)) out.push(v.id);
  }
  return out;
}
