/**
 * What `check-receiver` sends for each rule and what it expects of each answer. Each rule's id, source
 * (spec: a failure; profile or sandbox: a warning, a failure with --strict), clause, title and fix are
 * registered once in the rule registry (checks/receiver-rules.ts, with why each weighs what it does);
 * the rules a webhook endpoint shares with certify-client (valid deliveries accepted, wrong signatures
 * refused) are one rule there, so they have one id and one severity in both commands. Each rule is one
 * test in the reports (capability `receiver`).
 */
import type { RuleSource as CoreRuleSource } from '../core/index.ts';
import {
  OVERSIZED_BYTES,
  type RuleMeta,
  answeredInTime,
  duplicateAccepted,
  malformedRefused,
  otherKeyRefused,
  outOfOrderAccepted,
  oversizedRefused,
  rawBytesVerified,
  tamperedRefused,
  unknownEventAccepted,
  unsignedRefused,
  validAccepted,
  wrongSignatureRefused,
} from '../checks/receiver-rules.ts';
import {
  compactJson,
  escapedJson,
  everyEvent,
  indentedJson,
  otherKey,
  payload,
  randomSignature,
  reorderedJson,
  signed,
  spacedJson,
  checkId,
  operationRecord,
  transactionRecord,
  type SignedBody,
} from './deliveries.ts';
import type { SentDelivery } from './send.ts';

/** The source of a rule, as in the contract's `x-source` (spec: a failure; else a warning, a failure with --strict). */
export type RuleSource = Extract<CoreRuleSource, 'spec' | 'profile' | 'sandbox'>;

/** What an answer must be: 2xx; not 2xx; not 2xx and not 5xx (a 4xx, or the connection closed for an oversized body). */
export type Expectation = 'accepted' | 'refused' | 'refused-cleanly';

/** One delivery a rule sends. */
export interface PlannedDelivery {
  /** What it is, for the reports: `transaction.success`, `no Signature header`... */
  label: string;
  signed: SignedBody;
  expect: Expectation;
  /** What the reports show of the body, when not the body itself (a 2 MiB body is not shown). */
  shownBody?: string;
  /** The event and its id, when the body has them. */
  event?: string;
  eventId?: string;
}

/**
 * A rule: its registered metadata (id, severity source, clause, title: the test's name after
 * `receiver > `, fix: what a receiver that breaks it should do instead) and what it sends.
 */
export interface ReceiverRule extends RuleMeta<`receiver.${string}`> {
  source: RuleSource;
  /** The deliveries, sent in this order. */
  plan(secret: string): PlannedDelivery[];
}

export { OVERSIZED_BYTES };

const valid = (p: ReturnType<typeof payload>, secret: string, label = p.event): PlannedDelivery => ({
  label,
  signed: signed(compactJson(p), secret),
  expect: 'accepted',
  event: p.event,
  eventId: p.event_id,
});

const success = () => payload('transaction.success', transactionRecord('SUCCESS', checkId('txn')));

/** Every rule, in the order they run. The first delivery of the first rule tells whether the receiver answers at all. */
export const RECEIVER_RULES: readonly ReceiverRule[] = [
  {
    ...validAccepted,
    plan: (secret) => everyEvent().map((p) => valid(p, secret)),
  },
  {
    ...rawBytesVerified,
    plan: (secret) => {
      const forms: [string, (v: unknown) => string][] = [
        ['spaced JSON (", " and ": ")', spacedJson],
        ['indented JSON with a final newline', indentedJson],
        ['keys in another order', reorderedJson],
        ['escaped unicode and "\\/"', escapedJson],
      ];
      return forms.map(([what, form]) => {
        const p = payload(
          'transaction.success',
          transactionRecord('SUCCESS', checkId('txn'), { client_transaction_id: 'pcc-check/čaj-€-ü' }),
        );
        return {
          label: `transaction.success as ${what}`,
          signed: signed(form(p), secret),
          expect: 'accepted',
          event: p.event,
          eventId: p.event_id,
        };
      });
    },
  },
  {
    ...unsignedRefused,
    plan: () => {
      const a = success();
      const b = success();
      return [
        {
          label: 'no Signature header',
          signed: { body: Buffer.from(compactJson(a)), signature: null },
          expect: 'refused',
          event: a.event,
          eventId: a.event_id,
        },
        {
          label: 'an empty Signature header',
          signed: { body: Buffer.from(compactJson(b)), signature: '' },
          expect: 'refused',
          event: b.event,
          eventId: b.event_id,
        },
      ];
    },
  },
  {
    ...wrongSignatureRefused,
    plan: () => {
      const a = success();
      const b = success();
      return [
        {
          label: 'a well-formed signature of nothing',
          signed: { body: Buffer.from(compactJson(a)), signature: randomSignature() },
          expect: 'refused',
          event: a.event,
          eventId: a.event_id,
        },
        {
          label: 'a Signature that is not hex',
          signed: { body: Buffer.from(compactJson(b)), signature: 'not-a-signature' },
          expect: 'refused',
          event: b.event,
          eventId: b.event_id,
        },
      ];
    },
  },
  {
    ...otherKeyRefused,
    plan: () => {
      const p = success();
      return [
        {
          label: 'signed with another key',
          signed: signed(compactJson(p), otherKey()),
          expect: 'refused',
          event: p.event,
          eventId: p.event_id,
        },
      ];
    },
  },
  {
    ...tamperedRefused,
    plan: (secret) => {
      const txn = checkId('txn');
      const p = payload('transaction.failed', transactionRecord('FAILED', txn));
      const original = signed(compactJson(p), secret);
      const forged = { ...p, event: 'transaction.success', data: { ...(p.data as Record<string, unknown>), status: 'SUCCESS' } };
      return [
        {
          label: 'transaction.failed signed, then turned into transaction.success',
          signed: { body: Buffer.from(compactJson(forged)), signature: original.signature },
          expect: 'refused',
          event: forged.event,
          eventId: forged.event_id,
        },
      ];
    },
  },
  {
    ...duplicateAccepted,
    plan: (secret) => {
      const d = valid(success(), secret);
      return [
        { ...d, label: `${d.event} (first)` },
        { ...d, label: `${d.event} again, same event_id` },
      ];
    },
  },
  {
    ...outOfOrderAccepted,
    plan: (secret) => {
      const txn = checkId('txn');
      const op = checkId('op');
      const base = checkId('txn');
      return [
        valid(payload('transaction.success', transactionRecord('SUCCESS', txn)), secret),
        valid(
          payload('transaction.in_progress', transactionRecord('IN_PROGRESS', txn)),
          secret,
          'transaction.in_progress after transaction.success',
        ),
        valid(payload('operation.success', operationRecord('SUCCESS', op, base)), secret),
        valid(
          payload('operation.in_progress', operationRecord('IN_PROGRESS', op, base)),
          secret,
          'operation.in_progress after operation.success',
        ),
      ];
    },
  },
  {
    ...unknownEventAccepted,
    plan: (secret) => [
      valid(payload('transaction.partially_refunded', transactionRecord('SUCCESS', checkId('txn'))), secret),
      valid(payload('terminal.updated', { terminal_id: checkId('txn') }), secret),
    ],
  },
  {
    ...oversizedRefused,
    plan: (secret) => {
      const p = payload('transaction.success', transactionRecord('SUCCESS', checkId('txn')));
      const head = compactJson(p);
      // The padding goes into data, keeping the keys sorted: {"data":{..."x_padding":"xxx…"},...}.
      const padded = {
        ...p,
        data: { ...(p.data as Record<string, unknown>), x_padding: 'x'.repeat(Math.max(0, OVERSIZED_BYTES - head.length - 16)) },
      };
      const text = compactJson(padded);
      return [
        {
          label: `transaction.success padded to ${text.length} bytes`,
          signed: signed(text, secret),
          expect: 'refused-cleanly',
          event: p.event,
          eventId: p.event_id,
          shownBody: `(${text.length} bytes, not shown: ${compactJson(p).slice(0, 200)}… with data.x_padding of ${padded.data.x_padding.length} "x")`,
        },
      ];
    },
  },
  {
    ...malformedRefused,
    plan: (secret) => {
      const truncated = compactJson(success());
      return [
        {
          label: 'JSON cut in the middle',
          signed: signed(truncated.slice(0, Math.floor(truncated.length / 2)), secret),
          expect: 'refused-cleanly',
        },
        { label: 'an empty body', signed: signed('', secret), expect: 'refused-cleanly' },
        { label: 'a JSON array instead of an object', signed: signed('[]', secret), expect: 'refused-cleanly' },
      ];
    },
  },
];

/** The rule that judges every answer's time: a delivery answered after --timeout is retried by the sender. */
export const ANSWERED_IN_TIME: Pick<ReceiverRule, 'id' | 'source' | 'clause' | 'title' | 'fix' | 'quote'> = answeredInTime;

/** Every rule id, in report order. */
export const RULE_IDS: readonly string[] = [...RECEIVER_RULES.map((r) => r.id), ANSWERED_IN_TIME.id];

/** Whether an answer meets an expectation; the reason when not. */
export function meets(expect: Expectation, sent: SentDelivery): { ok: true } | { ok: false; why: string } {
  const s = sent.status;
  const what = s === undefined ? `no answer (${sent.errorCode ?? 'error'})` : `answered ${s}`;
  if (expect === 'accepted') return s !== undefined && s >= 200 && s < 300 ? { ok: true } : { ok: false, why: what };
  if (expect === 'refused') return s !== undefined && s >= 200 && s < 300 ? { ok: false, why: `${what} (accepted)` } : { ok: true };
  if (s === undefined) return sent.errorCode === 'ECONNRESET' || sent.errorCode === 'EPIPE' ? { ok: true } : { ok: false, why: what };
  if (s >= 200 && s < 300) return { ok: false, why: `${what} (accepted)` };
  return s >= 500 ? { ok: false, why: `${what} (a 5xx is a temporary failure: the sender retries it)` } : { ok: true };
}
