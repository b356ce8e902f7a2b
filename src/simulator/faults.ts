/**
 * Fault switches: each one breaks (or, for `legal`, bends within the rules) exactly one rule of the
 * spec or of the sandbox profile, so the harness's own tests can prove that every check fires on the
 * fault it targets and stays silent on the legal ones.
 */
import { editDistance } from '../core/edit-distance.ts';
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

const f = (id: string, kind: FaultKind, rule: string, description: string) => ({ id, kind, rule, description }) as const;

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
  f(
    'slip.currency-disagrees-config',
    'breaks',
    'sandbox#status-and-print-slip',
    'print slip currency "USD" while the configuration says EUR',
  ),
  f('slip.nonfinal-200', 'breaks', 'sandbox#status-and-print-slip', 'print slip of an INITIATED/IN_PROGRESS transaction answers 200'),
  f('slip.wrong-transaction-id', 'breaks', 'spec#transaction-print-slip', "the print slip's transaction_id is not the one in its path"),
  f('slip.wrong-terminal-id', 'breaks', 'spec#what-the-service-does', "the print slip's terminal_id is not the paired terminal's"),
  f(
    'slip.unsuccessful-final-400',
    'breaks',
    'sandbox#status-and-print-slip',
    'print slip of a DECLINED, FAILED, EXPIRED or CANCELED transaction answers 400',
  ),
  f('token.expires-in-number', 'breaks', 'spec#token-result', 'expires_in is the number 3600, not a string'),
  f('token.type-lowercase', 'breaks', 'spec#token-result', 'token_type "bearer"'),
  f('token.expires-early', 'breaks', 'sandbox#tokens', 'tokens stop working after 1 s while expires_in still announces the full lifetime'),
  f(
    'token.dies-early',
    'breaks',
    'sandbox#tokens',
    'tokens stop working 0.3 s after issue while expires_in announces 3600: the requests of later tests meet the 401',
  ),
  f(
    'token.refused',
    'breaks',
    'spec#authentication',
    'the token endpoint answers 401 to every well-formed request, the credentials of a live pairing included',
  ),
  f('config.missing-payment-methods', 'breaks', 'spec#configuration', 'configuration has no payment_methods'),
  f('config.no-card', 'breaks', 'sandbox#configuration', 'payment_methods omit CARD'),
  f('config.wrong-timezone', 'breaks', 'sandbox#configuration', 'the timezone is Europe/Vienna (configuration and print slips agree)'),
  f('config.other-terminal-id', 'breaks', 'spec#what-the-service-does', "the configuration's terminal_id is not the paired terminal's"),
  f('pair.missing-webhook-key', 'breaks', 'spec#pairing-result', 'pairing result has no webhook_secret_key field'),
  f('pair.name-not-echoed', 'breaks', 'spec#pairing-result', 'pay_connect_name is not the name supplied at pairing'),
  f('pair.otp-reuse', 'breaks', 'sandbox#pairing', 'a consumed OTP pairs again'),
  f('pair.bad-otp-accepted', 'breaks', 'sandbox#pairing', 'a malformed or never-valid OTP (000000) pairs'),
  f('pair.bad-otp-401', 'breaks', 'sandbox#pairing', 'a malformed or never-valid OTP answers 401 instead of 400'),
  f('pair.shared-pay-connect-id', 'breaks', 'spec#pairing-result', 'every pairing answers the same pay_connect_id'),
  f('pair.shared-terminal-id', 'breaks', 'sandbox#pairing', 'every new virtual terminal gets the same terminal_id'),
  f(
    'unpair.refused',
    'breaks',
    'profile#endpoints-the-spec-refers-to-but-does-not-show',
    'an authenticated unpair answers 400 and revokes nothing',
  ),
  f('generate.server-error', 'breaks', 'spec#generate', 'generate answers 500 and starts nothing'),
  f('generate.missing-transaction-id', 'breaks', 'spec#generate', 'generate answers {} (the transaction is still created)'),
  f(
    'generate.listed-method-refused',
    'breaks',
    'sandbox#configuration',
    'generate answers 400 for payment_method PAYCONIQ, which the configuration lists',
  ),
  f(
    'generate.unknown-method-accepted',
    'breaks',
    'sandbox#configuration',
    'generate accepts a payment_method not in the configuration (as if none was sent)',
  ),
  f(
    'generate.payment-method-ignored',
    'breaks',
    'sandbox#configuration',
    'the payment_method sent is ignored: the virtual customer picks CARD',
  ),
  f('transaction.client-id-dropped', 'breaks', 'sandbox#transactions', 'client_transaction_id is not kept: the status record says null'),
  f('operation.missing-operation-id', 'breaks', 'spec#operation-reference', 'increment/complete/revert answer without operation_id'),
  f(
    'operation.wrong-transaction-id',
    'breaks',
    'spec#what-the-service-does',
    "the operation reference of an increment or complete names another transaction_id than the path's",
  ),
  f(
    'operation.status-outside-enum',
    'breaks',
    'profile#endpoints-the-spec-refers-to-but-does-not-show',
    'operation records and webhooks say status PROCESSED where they would say SUCCESS, FAILED or EXPIRED',
  ),
  f(
    'operation.wrong-type',
    'breaks',
    'profile#endpoints-the-spec-refers-to-but-does-not-show',
    'operation records of increments say operation_type transaction.preauth.complete',
  ),
  f('auth.bearer-not-enforced', 'breaks', 'spec#authentication', "requests without Authorization act as the integrator's latest pairing"),
  f('auth.invalid-token-accepted', 'breaks', 'sandbox#tokens', "unknown bearer tokens act as the integrator's latest pairing"),
  f('auth.integrator-not-enforced', 'breaks', 'sandbox#pairing', 'a missing or other integrator header is accepted'),
  f('auth.token-requires-integrator', 'breaks', 'sandbox#tokens', 'the token endpoint answers 400 without the integrator header'),
  f('auth.unpair-not-revoking', 'breaks', 'sandbox#pairing', 'tokens keep working after unpair'),
  f('auth.any-secret-accepted', 'breaks', 'spec#authentication', 'a known client_id obtains a token with any client_secret'),
  f(
    'auth.credentials-survive-unpair',
    'breaks',
    'sandbox#pairing',
    'after unpair the client credentials still obtain a token (which answers 401)',
  ),
  f('auth.token-refuses-integrator', 'breaks', 'sandbox#tokens', 'the token endpoint answers 400 with the integrator header'),
  f('transition.final-changes', 'breaks', 'sandbox#transactions', 'a SUCCESS transaction flips to FAILED one step later'),
  f('transaction.never-converges', 'breaks', 'sandbox#transactions', 'transactions stay IN_PROGRESS forever, never expire'),
  f(
    'terminal.offline-picks-up',
    'breaks',
    'sandbox#transactions',
    'a 55 (terminal offline) is picked up at once and waits IN_PROGRESS instead of INITIATED',
  ),
  f('webhook.unsigned', 'breaks', 'sandbox#webhooks', 'webhooks carry no Signature header'),
  f('webhook.bad-signature', 'breaks', 'sandbox#webhooks', 'webhooks are signed with a wrong key'),
  f(
    'webhook.signed-other-bytes',
    'breaks',
    'sandbox#webhooks',
    'the Signature is the HMAC of the compact body, but the body is sent with ", " and ": " separators',
  ),
  f(
    'webhook.disagrees-with-polling',
    'breaks',
    'sandbox#webhooks',
    'the final transaction webhook reports another final status than polling',
  ),
  f(
    'webhook.data-tip-mismatch',
    'breaks',
    'sandbox#webhooks',
    'the final webhook of a tipped transaction says tip_amount 0 and total_amount = amount, while its status record says the tip',
  ),
  f('webhook.bad-schema', 'breaks', 'sandbox#webhooks', 'webhook bodies have no event_id'),
  f('webhook.none', 'breaks', 'sandbox#webhooks', 'no webhooks are sent'),
  f('webhook.no-retry', 'breaks', 'sandbox#webhooks', 'a delivery that gets no 2xx answer is never retried'),
  f('isolation.leak', 'breaks', 'sandbox#isolation', "another pairing's transactions answer 200 on status and print slip"),
  f('status.unknown-id-500', 'breaks', 'sandbox#errors', 'unknown transaction/operation ids answer 500 instead of 404'),
  f('content-type.text-plain', 'breaks', 'spec#bodies', 'JSON success bodies are served as text/plain'),
  f('error.non-json', 'breaks', 'sandbox#errors', 'error bodies are plain text'),
  f('generate.accepts-zero-amount', 'breaks', 'sandbox#transactions', 'generate accepts amount 0 and negative amounts'),
  f('cancel.final-accepted', 'breaks', 'sandbox#transactions', 'cancel of a final transaction answers 200 (still changes nothing)'),
  f('cancel.final-stamps-canceled-at', 'breaks', 'sandbox#transactions', 'cancel of a final transaction answers 400 but sets canceled_at'),
  f('cancel.in-progress-fails', 'breaks', 'sandbox#transactions', 'an approving payment canceled while IN_PROGRESS ends FAILED'),
  f('busy.no-409', 'breaks', 'sandbox#transactions', 'a second transaction while one is pending is accepted'),
  f(
    'preauth.increment-after-complete-succeeds',
    'breaks',
    'sandbox#preauthorization',
    'an increment after a completed preauthorization ends SUCCESS',
  ),
  f(
    'preauth.ops-on-any-transaction',
    'breaks',
    'sandbox#preauthorization',
    'increment and complete of a transaction that is not an authorized preauthorization answer 200 (the operation ends FAILED)',
  ),
  f(
    'preauth.complete-keeps-amount',
    'breaks',
    'sandbox#preauthorization',
    "a successful complete leaves the transaction's amount at the original authorization",
  ),
  f(
    'revert.older-accepted',
    'breaks',
    'sandbox#revert-and-refund',
    'revert of a transaction other than the most recent SUCCESS answers 200 (the operation ends FAILED)',
  ),
  f('revert.no-reverted-at', 'breaks', 'sandbox#revert-and-refund', 'a successful revert leaves reverted_at null'),
  f(
    'refund.non-success-accepted',
    'breaks',
    'sandbox#revert-and-refund',
    'a linked refund of a transaction that is not SUCCESS is accepted',
  ),
  f('refund.above-remainder-accepted', 'breaks', 'sandbox#revert-and-refund', 'a linked refund above the unrefunded remainder is accepted'),
  f('refund.tagged-charge', 'breaks', 'sandbox#revert-and-refund', 'refund transactions are tagged charge'),
  f(
    'refund.total-unchanged',
    'breaks',
    'sandbox#revert-and-refund',
    "a SUCCESS linked refund leaves the original's refund_total_amount unchanged",
  ),
  f('tip.ignored', 'breaks', 'sandbox#transactions', 'amount % 100 == 57 gives tip_amount 0'),
  f('webhook.duplicate', 'legal', 'sandbox#webhooks', 'every delivery is sent twice with the same event_id'),
  f('webhook.out-of-order', 'legal', 'sandbox#webhooks', 'deliveries are delayed at random, so they may arrive out of order'),
  f('slow', 'legal', 'spec#limits', 'every answer is delayed 150 ms'),
  f('cancel.race-success', 'legal', 'sandbox#transactions', 'an approving transaction canceled while IN_PROGRESS ends SUCCESS'),
  f('token.short-lived', 'legal', 'sandbox#tokens', 'expires_in "2", and tokens really expire after 2 s'),
  f('poll.rate-limited', 'legal', 'spec#limits', 'status reads past 5 a second per pairing answer 429 with Retry-After: 1'),
] as const satisfies readonly FaultInfo[];

/** The id of a fault switch. */
export type FaultId = (typeof FAULTS)[number]['id'];

const KNOWN = new Set<string>(FAULTS.map((x) => x.id));

/** True when `id` names a fault switch. */
export function isFaultId(id: string): id is FaultId {
  return KNOWN.has(id);
}

/**
 * The fix for `id`, which names no fault switch: the nearest switches (a misspelling is a letter or
 * two away), and where every one is listed, rather than all 90 in one line.
 */
export function faultFix(id: string): string {
  const scored = [...KNOWN].map((k) => ({ k, d: editDistance(id, k) })).sort((a, b) => a.d - b.d);
  const near = scored.filter((x) => x.d <= Math.max(2, Math.floor(id.length / 4)) && x.d === scored[0]!.d).map((x) => x.k);
  const list = "'payconnect-conformance sim --help' lists every fault switch";
  return near.length > 0 ? `did you mean ${near.join(' or ')}? (${list})` : list;
}

/**
 * Throws a PCC_CONFIG_INVALID error naming the first unknown id, as the user gave it (`where`: the
 * flag, variable or config key; the simulator's own options by default).
 */
export function assertFaultIds(ids: readonly string[], where = 'simulator fault'): asserts ids is readonly FaultId[] {
  for (const id of ids) {
    if (!isFaultId(id)) throw new ToolkitError('PCC_CONFIG_INVALID', `${where} "${id}" is not a fault switch`, faultFix(id));
  }
}

/** The random source a fault rate draws from: a uniform number in [0, 1). */
export type Draw = () => number;

/**
 * The live set of active faults; replaced as a whole at runtime, read on every decision. With a rate
 * below 1 (`sim --fault-rate P`) an active fault fires at each decision that consults it with
 * probability P, drawn from a seeded source of its own: an intermittent defect, reproducible from the
 * seed, that leaves the ids and OTPs of the run as they would be without it.
 */
export class FaultSet {
  private active = new Set<FaultId>();
  constructor(
    ids: readonly string[] = [],
    private readonly rate = 1,
    private readonly draw: Draw = Math.random,
  ) {
    assertFaultRate(rate);
    this.set(ids);
  }
  /** Replaces the active faults (validated first, so a bad list changes nothing). */
  set(ids: readonly string[]): void {
    assertFaultIds(ids);
    this.active = new Set(ids);
  }
  /** Whether the fault acts at this decision: it is active, and (below rate 1) the draw says so. */
  has(id: FaultId): boolean {
    if (!this.active.has(id)) return false;
    return this.rate >= 1 || this.draw() < this.rate;
  }
  list(): FaultId[] {
    return [...this.active];
  }
  /** The probability an active fault fires at a decision. */
  get faultRate(): number {
    return this.rate;
  }
}

/** Throws a PCC_CONFIG_INVALID error unless `rate` is a probability above 0 and at most 1. */
export function assertFaultRate(rate: number): void {
  if (!(typeof rate === 'number' && rate > 0 && rate <= 1)) {
    throw new ToolkitError(
      'PCC_CONFIG_INVALID',
      `simulator fault rate ${JSON.stringify(rate)} is not a probability above 0 and at most 1`,
      'give the fault rate as a number such as 0.3 (30 % of the decisions a fault switch makes), or 1 (always)',
    );
  }
}
