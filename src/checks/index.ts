export * from './check.ts';
export * from './registry.ts';
export type { ConvergenceObservation, DeliveryObservation, StatusSighting } from './observations.ts';
export { isIso3166Alpha2, isIso4217 } from './invariants.ts';
export { JUDGES, type Judge, type Rule, type RuleMeta, defineRule, severityText } from './rule.ts';
export {
  RULES,
  RULE_ALIASES,
  RULE_IDS_BY_JUDGE,
  type RuleListing,
  canonicalRuleId,
  listRules,
  ruleById,
  rulesOf,
} from './rule-registry.ts';
export { type DisableCheckVerdict, explainDisableCheck, nearestRuleId, validateDisableCheck } from './disable-check.ts';
export { PACT_RULES, interactionPossible } from './pact-rules.ts';
export { FOLLOW_UPS } from './follow-ups.ts';
