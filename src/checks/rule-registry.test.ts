/**
 * The one registry of rules: every judge's rules in it once, each with a clause, a severity source and
 * a fix; former ids resolve to the rule that replaced them; the webhook endpoint's shared rules are one
 * rule for check-receiver and certify-client.
 */
import { describe, expect, it } from 'vitest';
import { CLIENT_ONLY_RULES } from './client-rules.ts';
import { PACT_RULES } from './pact-rules.ts';
import { WEBHOOK_ENDPOINT_RULES } from './receiver-rules.ts';
import { CHECKS } from './registry.ts';
import { RULE_ALIASES, RULE_IDS_BY_JUDGE, RULES, canonicalRuleId, listRules, ruleById, rulesOf } from './rule-registry.ts';
import { JUDGES } from './rule.ts';

describe('the rule registry', () => {
  it("holds every rule of every judge once: run's checks, the webhook endpoint's, certify-client's, check-pact's", () => {
    const every = [
      ...[...CHECKS.keys()].sort(),
      ...WEBHOOK_ENDPOINT_RULES.map((r) => r.id),
      ...CLIENT_ONLY_RULES.map((r) => r.id),
      ...PACT_RULES.map((r) => r.id),
    ];
    expect(new Set(every).size).toBe(every.length);
    expect([...RULES.keys()]).toEqual(every);
    for (const id of RULES.keys()) expect(id).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/);
    for (const j of JUDGES) expect(rulesOf(j).length, j).toBeGreaterThan(0);
    expect(RULE_IDS_BY_JUDGE.run).toEqual([...CHECKS.keys()].sort());
  });

  // A clause is a heading's anchor as GitHub makes it: endpoint headings keep their underscores (transaction_id).
  it('gives every rule a clause, a severity source, a title, a fix and at least one command', () => {
    const lacking = [...RULES.values()].filter(
      (r) =>
        !/^(spec|profile|sandbox|contract)#[a-z0-9_-]+$/.test(r.clause) ||
        !['spec', 'profile', 'sandbox'].includes(r.source) ||
        r.title.trim().length < 10 ||
        r.fix.trim().length < 10 ||
        r.fix.includes('\n') ||
        r.judges.length === 0,
    );
    expect(lacking.map((r) => r.id)).toEqual([]);
  });

  it('judges a webhook endpoint that refuses genuine deliveries by one rule, a failure, in check-receiver and certify-client', () => {
    const rule = ruleById('receiver.valid-accepted')!;
    expect(rule.judges).toEqual(['check-receiver', 'certify-client']);
    expect(rule.source).toBe('spec');
    expect(listRules().find((r) => r.id === rule.id)!.severity).toBe('failure');
    expect(RULE_IDS_BY_JUDGE['check-receiver']).toContain('receiver.wrong-signature-refused');
    expect(RULE_IDS_BY_JUDGE['certify-client']).toContain('receiver.wrong-signature-refused');
    // No rule of certify-client is a second id for a rule check-receiver has.
    expect(RULE_IDS_BY_JUDGE['certify-client'].filter((id) => /webhook/.test(id))).toEqual([]);
  });

  it('keeps the former ids working, each naming the rule that replaced it', () => {
    expect(RULE_ALIASES.get('client.webhook-accepted')).toBe('receiver.valid-accepted');
    expect(RULE_ALIASES.get('client.webhook-forged-rejected')).toBe('receiver.wrong-signature-refused');
    expect(canonicalRuleId('client.webhook-accepted')).toBe('receiver.valid-accepted');
    expect(canonicalRuleId('response.schema')).toBe('response.schema');
    expect(canonicalRuleId('no.such-rule')).toBeUndefined();
    for (const old of RULE_ALIASES.keys()) expect(RULES.has(old), old).toBe(false);
  });

  it('lists each rule with its commands, severity in words, clause and fix, for the docs', () => {
    const rows = listRules();
    expect(rows).toHaveLength(RULES.size);
    expect(rows.find((r) => r.id === 'webhook.retried')).toMatchObject({
      judges: ['run'],
      severity: 'warning (failure with --strict)',
      clause: 'profile#webhooks',
    });
    expect(rows.find((r) => r.id === 'pact.interaction-possible')).toMatchObject({ judges: ['check-pact'], severity: 'failure' });
    expect(rows.find((r) => r.id === 'receiver.valid-accepted')!.formerly).toEqual(['client.webhook-accepted']);
  });
});
