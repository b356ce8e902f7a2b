/**
 * Fault switches: each one breaks (or, for `legal`, bends within the rules) exactly one rule of the
 * spec or of the sandbox profile, so the harness's own tests can prove that every check fires on the
 * fault it targets and stays silent on the legal ones.
 */
import { ToolkitError } from '../core/errors.ts';

/** A fault either breaks a rule (a correct harness must flag it) or is legal (it must not). */
export type FaultKind = 'breaks' | 'legal';

/** One row of the fault table. */
export interface FaultInfo {
  readonly id: string;
  readonly kind: FaultKind;
  /** The rule broken (for `breaks`) or the rule that makes the behaviour legal (for `legal`). */
  readonly rule: string;
  readonly description: string;
}

const f = (id: string, kind: FaultKind, rule: string, description: string) =>
  ({ id, kind, rule, description }) as const;

/** Every fault switch the simulator implements. */
export const FAULTS = [
  f('slip.missing-digital-slip', 'breaks', 'spec#transaction-print-slip', 'print slip omits digital_slip'),
  f('slip.amount-as-string', 'breaks', 'spec#transaction-print-slip', 'print slip amount is a string ("1000")'),
  f('slip.bad-created-at', 'breaks', 'spec#transaction-print-slip', 'print slip created_at is not a date-time ("22/11/2026 10:00")'),
  f('slip.bad-digital-slip-uri', 'breaks', 'spec#transaction-print-slip', 'print slip digital_slip is not a URI ("not a url")'),
  f('slip.total-mismatch', 'breaks', 'spec#transaction-print-slip', 'print slip total_amount = amount + tip_amount + 1'),
  f('slip.bad-currency', 'breaks', 'spec#transaction-print-slip', 'print slip currency is not ISO 4217 ("euro")'),
  f('slip.bad-country', 'breaks', 'spec#transaction-print-slip', 'print slip organization.country is alpha-3 ("SVN")'),
  f('slip.status-outside-enum', 'breaks', 'spec#states-and-transitions', 'print slip status "COMPLETED"'),
  f('slip.bad-payment-method', 'breaks', 'spec#transaction-print-slip', 'print slip payment_method "CASH"'),
  f('slip.bad-tag', 'breaks', 'spec#transaction-print-slip', 'print slip tags ["sale"]'),
  f('slip.currency-disagrees-config', 'breaks', 'sandbox#status-and-print-slip', 'print slip currency "USD" while the configuration says EUR'),
  f('slip.nonfinal-200', 'breaks', 'sandbox#status-and-print-slip', 'print slip of an INITIATED/IN_PROGRESS transaction answers 200'),
  f('token.expires-in-number', 'breaks', 'spec#token-result', 'expires_in is the number 3600, not a string'),
  f('token.type-lowercase', 'breaks', 'spec#token-result', 'token_type "bearer"'),
  f('config.missing-payment-methods', 'breaks', 'spec#configuration', 'configuration has no payment_methods'),
  f('pair.missing-webhook-key', 'breaks', 'spec#pairing-result', 'pairing result has no webhook_secret_key field'),
  f('pair.name-not-echoed', 'breaks', 'spec#pairing-result', 'pay_connect_name is not the name supplied at pairing'),
  f('pair.otp-reuse', 'breaks', 'sandbox#pairing', 'a consumed OTP pairs again'),
  f('generate.server-error', 'breaks', 'spec#generate', 'generate answers 500 and starts nothing'),
  f('generate.missing-transaction-id', 'breaks', 'spec#generate', 'generate answers {} (the transaction is still created)'),
  f('operation.missing-operation-id', 'breaks', 'spec#operation-reference', 'increment/complete/revert answer without operation_id'),
  f('auth.bearer-not-enforced', 'breaks', 'spec#authentication', "requests without Authorization act as the integrator's latest pairing"),
  f('auth.invalid-token-accepted', 'breaks', 'sandbox#tokens', "unknown bearer tokens act as the integrator's latest pairing"),
  f('auth.integrator-not-enforced', 'breaks', 'sandbox#pairing', 'a missing or other integrator header is accepted'),
  f('auth.token-requires-integrator', 'breaks', 'sandbox#tokens', 'the token endpoint answers 400 without the integrator header'),
  f('auth.unpair-not-revoking', 'breaks', 'sandbox#pairing', 'tokens keep working after unpair'),
  f('transition.final-changes', 'breaks', 'sandbox#transactions', 'a SUCCESS transaction flips to FAILED one step later'),
  f('transaction.never-converges', 'breaks', 'sandbox#transactions', 'transactions stay IN_PROGRESS forever, never expire'),
  f('webhook.unsigned', 'breaks', 'sandbox#webhooks', 'webhooks carry no Signature header'),
  f('webhook.bad-signature', 'breaks', 'sandbox#webhooks', 'webhooks are signed with a wrong key'),
  f('webhook.disagrees-with-polling', 'breaks', 'sandbox#webhooks', 'the final transaction webhook reports another final status than polling'),
  f('webhook.bad-schema', 'breaks', 'sandbox#webhooks', 'webhook bodies have no event_id'),
  f('webhook.none', 'breaks', 'sandbox#webhooks', 'no webhooks are sent'),
  f('isolation.leak', 'breaks', 'sandbox#isolation', "another pairing's transactions answer 200 on status and print slip"),
  f('status.unknown-id-500', 'breaks', 'sandbox#errors', 'unknown transaction/operation ids answer 500 instead of 404'),
  f('content-type.text-plain', 'breaks', 'spec#bodies', 'JSON success bodies are served as text/plain'),
  f('error.non-json', 'breaks', 'sandbox#errors', 'error bodies are plain text'),
  f('generate.accepts-zero-amount', 'breaks', 'sandbox#transactions', 'generate accepts amount 0 and negative amounts'),
  f('cancel.final-accepted', 'breaks', 'sandbox#cancel', 'cancel of a final transaction answers 200 (still changes nothing)'),
  f('busy.no-409', 'breaks', 'sandbox#transactions', 'a second transaction while one is pending is accepted'),
  f('preauth.increment-after-complete-succeeds', 'breaks', 'sandbox#preauthorization', 'an increment after a completed preauthorization ends SUCCESS'),
  f('tip.ignored', 'breaks', 'sandbox#transactions', 'amount % 100 == 57 gives tip_amount 0'),
  f('webhook.duplicate', 'legal', 'sandbox#webhooks', 'every delivery is sent twice with the same event_id'),
  f('webhook.out-of-order', 'legal', 'sandbox#webhooks', 'deliveries are delayed at random, so they may arrive out of order'),
  f('slow', 'legal', 'spec#limits', 'every answer is delayed 150 ms'),
  f('cancel.race-success', 'legal', 'sandbox#cancel', 'an approving transaction canceled while IN_PROGRESS ends SUCCESS'),
  f('token.short-lived', 'legal', 'sandbox#tokens', 'expires_in "2", and tokens really expire after 2 s'),
] as const satisfies readonly FaultInfo[];

/** The id of a fault switch. */
export type FaultId = (typeof FAULTS)[number]['id'];

const KNOWN = new Set<string>(FAULTS.map((x) => x.id));

/** True when `id` names a fault switch. */
export function isFaultId(id: string): id is FaultId {
  return KNOWN.has(id);
}

/** Throws a PCC_CONFIG_INVALID error naming the first unknown id. */
export function assertFaultIds(ids: readonly string[]): asserts ids is readonly FaultId[] {
  for (const id of ids) {
    if (!isFaultId(id)) {
      throw new ToolkitError('PCC_CONFIG_INVALID', `unknown simulator fault "${id}"`,
        `use one of: ${[...KNOWN].join(', ')}`);
    }
  }
}

/** The live set of active faults; replaced as a whole at runtime, read on every decision. */
export class FaultSet {
  private active = new Set<FaultId>();
  constructor(ids: readonly string[] = []) {
    this.set(ids);
  }
  /** Replaces the active faults (validated first, so a bad list changes nothing). */
  set(ids: readonly string[]): void {
    assertFaultIds(ids);
    this.active = new Set(ids);
  }
  has(id: FaultId): boolean {
    return this.active.has(id);
  }
  list(): FaultId[] {
    return [...this.active];
  }
}
