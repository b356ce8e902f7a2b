/** `--disable-check` for every command: known ids pass (former ids as their rule's), others fail with did-you-mean. */
import { describe, expect, it } from 'vitest';
import { ToolkitError } from '../core/index.ts';
import { editDistance, explainDisableCheck, nearestRuleId, validateDisableCheck } from './disable-check.ts';

const failure = (f: () => unknown): ToolkitError => {
  try {
    f();
  } catch (e) {
    return e as ToolkitError;
  }
  throw new Error('expected an error');
};

describe('--disable-check validation', () => {
  it('measures edit distance', () => {
    expect(editDistance('webhook.retried', 'webhook.retried')).toBe(0);
    expect(editDistance('webhook.retired', 'webhook.retried')).toBe(2);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it("accepts each command's own ids, once each, and a former id as its rule's current id", () => {
    expect(validateDisableCheck(['webhook.retried', 'response.schema', 'webhook.retried'], 'run')).toEqual([
      'webhook.retried',
      'response.schema',
    ]);
    expect(validateDisableCheck(['receiver.duplicate-accepted', 'receiver.answered-in-time'], 'check-receiver')).toEqual([
      'receiver.duplicate-accepted',
      'receiver.answered-in-time',
    ]);
    expect(validateDisableCheck(['client.webhook-accepted', 'client.poll-rate'], 'certify-client')).toEqual([
      'receiver.valid-accepted',
      'client.poll-rate',
    ]);
    expect(explainDisableCheck('client.webhook-forged-rejected', 'certify-client')).toEqual({
      ok: true,
      id: 'receiver.wrong-signature-refused',
      renamedFrom: 'client.webhook-forged-rejected',
    });
    expect(validateDisableCheck(['pact.interaction-possible'], 'check-pact')).toEqual(['pact.interaction-possible']);
    expect(validateDisableCheck([], 'run')).toEqual([]);
  });

  it('refuses a misspelt id with the nearest one (did you mean), as a usage error', () => {
    const e = failure(() => validateDisableCheck(['webhook.retired'], 'run'));
    expect(e).toBeInstanceOf(ToolkitError);
    expect(e.code).toBe('PCC_USAGE');
    expect(e.message).toBe('--disable-check names no rule: webhook.retired; did you mean webhook.retried?');
    expect(e.hint).toMatch(/of its area run judges .*webhook\.retried/);
    expect(failure(() => validateDisableCheck(['client.poll-rat'], 'certify-client')).message).toMatch(/did you mean client\.poll-rate\?$/);
    // A misspelt former id is matched too, and named by the rule's current id.
    expect(nearestRuleId('client.webhook-acepted', 'certify-client')).toBe('receiver.valid-accepted');
  });

  it('says whose rule an id is when the command does not judge it, also for a near miss', () => {
    const e = failure(() => validateDisableCheck(['receiver.tampered-refused'], 'certify-client'));
    expect(e.message).toBe('--disable-check receiver.tampered-refused: a rule of check-receiver, not of certify-client');
    expect(e.hint).toMatch(/^pass it to check-receiver;/);
    expect(failure(() => validateDisableCheck(['client.poll-rate'], 'run')).message).toMatch(/a rule of certify-client, not of run/);
    expect(failure(() => validateDisableCheck(['receiver.tampered-refsed'], 'run')).message).toBe(
      '--disable-check names no rule: receiver.tampered-refsed; did you mean receiver.tampered-refused (a rule of check-receiver, not of run)?',
    );
  });

  it("offers no guess for an id far from every rule, and takes the caller's code and wording", () => {
    const e = failure(() => validateDisableCheck(['zzz'], 'run', { where: 'checks.disable', code: 'PCC_CONFIG_INVALID' }));
    expect(e.code).toBe('PCC_CONFIG_INVALID');
    expect(e.message).toBe('checks.disable names no rule: zzz');
    expect(e.hint).toMatch(/docs\/rules\.md/);
  });
});
