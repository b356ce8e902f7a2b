/**
 * The provider states of the pact: what must be true of the provider before an interaction, and the
 * values a state hands to the interaction at verification (`fromProviderState`). The verifier sets
 * each one up through the public API only (see provider-states.ts), so they hold on a staging sandbox
 * as well as on the embedded simulator.
 */

/** Provider state names. */
export const STATE = Object.freeze({
  /** A six-digit OTP never used (supplies `otp`, `webhookUrl`). */
  otp: 'an unused one-time password',
  /** A six-digit OTP that has paired once already (supplies `otp`). */
  consumedOtp: 'a one-time password already used',
  /** The toolkit is paired with a terminal, which has no transaction pending. */
  paired: 'a paired terminal',
  /** A pairing made for this interaction alone, that may be revoked. */
  unpairable: 'a paired terminal that may be unpaired',
  /** A transaction waiting for a card (`amount % 100 == 54`) (supplies `transactionId`). */
  inProgress: 'a transaction in progress',
  /** A transaction the terminal approved; also the terminal's most recent success (supplies `transactionId`). */
  success: 'a successful transaction',
  /** `amount % 100 == 51` (supplies `transactionId`). */
  declined: 'a declined transaction',
  /** `amount % 100 == 52` (supplies `transactionId`). */
  failed: 'a failed transaction',
  /** `amount % 100 == 53` (supplies `transactionId`). */
  expired: 'an expired transaction',
  /** `amount % 100 == 57`: approved with a tip of 100 cents (supplies `transactionId`). */
  tip: 'a successful transaction with a tip',
  /** A preauthorization the terminal authorized (supplies `transactionId`). */
  preauth: 'a successful preauthorization',
  /** A preauthorization the terminal declined (`amount % 100 == 51`) (supplies `transactionId`). */
  preauthDeclined: 'a declined preauthorization',
  /** An independent refund the terminal completed (supplies `transactionId`). */
  refund: 'a successful independent refund',
  /** An increment of a successful preauthorization (supplies `operationId`). */
  operation: 'an operation on a successful preauthorization',
  /** A complete of a successful preauthorization, ended SUCCESS (supplies `operationId`). */
  completed: 'a successful preauthorization completed',
  /** The toolkit is paired with a `webhook_url` whose deliveries it receives. */
  webhooks: 'a paired terminal whose webhooks reach the toolkit',
} as const);

/** A provider state name. */
export type StateName = (typeof STATE)[keyof typeof STATE];

/** The outcome a transaction state stands for: the amount that produces it and its final status. */
export interface OutcomeState {
  state: StateName;
  /** The slug used in descriptions and example ids. */
  slug: 'success' | 'declined' | 'failed' | 'expired' | 'tip';
  /** An amount the sandbox's outcome table maps to this outcome. */
  amount: number;
  /** A regex matching every amount that maps to it (the table keys on `amount % 100`). */
  amountPattern: string;
  final: 'SUCCESS' | 'DECLINED' | 'FAILED' | 'EXPIRED';
  tip: number;
  /** The fake transaction id of the pact's examples. */
  exampleId: string;
}

const o = (
  state: StateName,
  slug: OutcomeState['slug'],
  amount: number,
  amountPattern: string,
  final: OutcomeState['final'],
  tip = 0,
): OutcomeState => ({ state, slug, amount, amountPattern, final, tip, exampleId: `tx_example_${slug}` });

/** The payment outcomes of sandbox.md's table that a stateless mock can stand for (no cancel race). */
export const OUTCOMES: readonly OutcomeState[] = [
  // anything but 51..57 approves: two digits outside 51-57, or a single digit but 0 (no amount is 0)
  o(STATE.success, 'success', 1250, '^(?:\\d*(?:[0-46-9]\\d|5[089])|[1-9])$', 'SUCCESS'),
  o(STATE.declined, 'declined', 1251, '^\\d*51$', 'DECLINED'),
  o(STATE.failed, 'failed', 1252, '^\\d*52$', 'FAILED'),
  o(STATE.expired, 'expired', 1253, '^\\d*53$', 'EXPIRED'),
  o(STATE.tip, 'tip', 1257, '^\\d*57$', 'SUCCESS', 100),
];

/** Fake ids of the pact's examples for the other states. */
export const EXAMPLE_IDS = Object.freeze({
  inProgress: 'tx_example_in_progress',
  preauth: 'tx_example_preauth',
  preauthDeclined: 'tx_example_preauth_declined',
  refund: 'tx_example_refund',
  linkedRefund: 'tx_example_linked_refund',
  increment: 'op_example_increment',
  complete: 'op_example_complete',
  revert: 'op_example_revert',
});
