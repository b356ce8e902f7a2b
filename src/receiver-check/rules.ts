/**
 * The rules `check-receiver` judges an integrator's webhook endpoint by, registered by stable id like
 * the checks of a run: each has a source (spec: a failure; profile: a warning, a failure with
 * --strict), a clause, the deliveries it sends and what it expects of each answer. Each rule is one
 * test in the reports (capability `receiver`).
 *
 * Why these severities. pay-connect-spec.md (Events) says the service sends webhooks to `webhook_url`
 * and that `webhook_secret_key` "is used to verify the webhook signature": an endpoint must take every
 * genuine delivery (validly signed over the bytes it got, whatever their layout, again when it comes
 * twice, and late) and refuse a forged one. The event catalogue, the answer codes and the timing are
 * the public profile's (public-profile.md, Webhooks): a deviation there is a warning.
 */
import type { RuleSource as CoreRuleSource } from '../core/index.ts';
import {
  compactJson, escapedJson, everyEvent, indentedJson, otherKey, payload, randomSignature, reorderedJson, signed, spacedJson,
  checkId, operationRecord, transactionRecord, type SignedBody,
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

/** A rule: id, severity source, clause, and what it sends. */
export interface ReceiverRule {
  id: `receiver.${string}`;
  source: RuleSource;
  clause: string;
  /** The test's name in the reports (after `receiver > `). */
  title: string;
  /** What a receiver that breaks the rule should do instead. */
  fix: string;
  /** The deliveries, sent in this order. */
  plan(secret: string): PlannedDelivery[];
}

/** The clause of the spec rules: pay-connect-spec.md, Events. */
export const SPEC_EVENTS = 'spec#events';
/** The clause of at-least-once delivery (sandbox.md, Webhooks): a warning, a failure with --strict. */
export const SANDBOX_WEBHOOKS = 'sandbox#webhooks';
/** The clause of the profile rules: public-profile.md, Webhooks. */
export const PROFILE_WEBHOOKS = 'profile#webhooks';

/** A body larger than any Pay-Connect delivery (a status record is well under 2 KiB). */
export const OVERSIZED_BYTES = 2 * 1024 * 1024;

const valid = (p: ReturnType<typeof payload>, secret: string, label = p.event): PlannedDelivery => ({
  label, signed: signed(compactJson(p), secret), expect: 'accepted', event: p.event, eventId: p.event_id,
});

const success = () => payload('transaction.success', transactionRecord('SUCCESS', checkId('txn')));

/** Every rule, in the order they run. The first delivery of the first rule tells whether the receiver answers at all. */
export const RECEIVER_RULES: readonly ReceiverRule[] = [
  {
    id: 'receiver.valid-accepted',
    source: 'spec',
    clause: SPEC_EVENTS,
    title: 'a validly signed delivery of every transaction and operation event is accepted (2xx)',
    fix: 'answer 2xx to every delivery whose Signature verifies, including events about transactions your system does not know (ignore them)',
    plan: (secret) => everyEvent().map((p) => valid(p, secret)),
  },
  {
    id: 'receiver.raw-bytes-verified',
    source: 'spec',
    clause: SPEC_EVENTS,
    title: 'a valid signature over bytes that are not compact JSON is accepted (the signature is over the exact bytes)',
    fix: 'compute the HMAC over the raw request body as received, before any JSON parsing; never over a re-serialised object',
    plan: (secret) => {
      const forms: [string, (v: unknown) => string][] = [
        ['spaced JSON (", " and ": ")', spacedJson],
        ['indented JSON with a final newline', indentedJson],
        ['keys in another order', reorderedJson],
        ['escaped unicode and "\\/"', escapedJson],
      ];
      return forms.map(([what, form]) => {
        const p = payload('transaction.success', transactionRecord('SUCCESS', checkId('txn'), { client_transaction_id: 'pcc-check/čaj-€-ü' }));
        return { label: `transaction.success as ${what}`, signed: signed(form(p), secret), expect: 'accepted', event: p.event, eventId: p.event_id };
      });
    },
  },
  {
    id: 'receiver.unsigned-refused',
    source: 'spec',
    clause: SPEC_EVENTS,
    title: 'a delivery without a signature is refused (not 2xx)',
    fix: 'refuse (403) a delivery whose Signature header is missing or empty',
    plan: () => {
      const a = success();
      const b = success();
      return [
        { label: 'no Signature header', signed: { body: Buffer.from(compactJson(a)), signature: null }, expect: 'refused', event: a.event, eventId: a.event_id },
        { label: 'an empty Signature header', signed: { body: Buffer.from(compactJson(b)), signature: '' }, expect: 'refused', event: b.event, eventId: b.event_id },
      ];
    },
  },
  {
    id: 'receiver.wrong-signature-refused',
    source: 'spec',
    clause: SPEC_EVENTS,
    title: 'a delivery with a wrong signature is refused (not 2xx)',
    fix: 'compare the Signature header with the HMAC-SHA256 of the body (constant-time) and refuse (403) when they differ',
    plan: () => {
      const a = success();
      const b = success();
      return [
        { label: 'a well-formed signature of nothing', signed: { body: Buffer.from(compactJson(a)), signature: randomSignature() }, expect: 'refused', event: a.event, eventId: a.event_id },
        { label: 'a Signature that is not hex', signed: { body: Buffer.from(compactJson(b)), signature: 'not-a-signature' }, expect: 'refused', event: b.event, eventId: b.event_id },
      ];
    },
  },
  {
    id: 'receiver.other-key-refused',
    source: 'spec',
    clause: SPEC_EVENTS,
    title: 'a delivery signed with another key is refused (not 2xx)',
    fix: "verify with this pairing's webhook_secret_key only",
    plan: () => {
      const p = success();
      return [{ label: 'signed with another key', signed: signed(compactJson(p), otherKey()), expect: 'refused', event: p.event, eventId: p.event_id }];
    },
  },
  {
    id: 'receiver.tampered-refused',
    source: 'spec',
    clause: SPEC_EVENTS,
    title: 'a delivery whose body was changed after signing is refused (not 2xx)',
    fix: 'verify the signature over the body received, and act on nothing before it verifies',
    plan: (secret) => {
      const txn = checkId('txn');
      const p = payload('transaction.failed', transactionRecord('FAILED', txn));
      const original = signed(compactJson(p), secret);
      const forged = { ...p, event: 'transaction.success', data: { ...(p.data as Record<string, unknown>), status: 'SUCCESS' } };
      return [{ label: 'transaction.failed signed, then turned into transaction.success', signed: { body: Buffer.from(compactJson(forged)), signature: original.signature }, expect: 'refused', event: forged.event, eventId: forged.event_id }];
    },
  },
  {
    id: 'receiver.duplicate-accepted',
    // The spec leaves delivery and retry behaviour "not shown": at-least-once comes from sandbox.md.
    source: 'sandbox',
    clause: SANDBOX_WEBHOOKS,
    title: 'the same delivery twice (same event_id) is accepted both times (at-least-once delivery)',
    fix: 'deduplicate by event_id and answer 2xx to a delivery already processed (do not answer 409)',
    plan: (secret) => {
      const d = valid(success(), secret);
      return [{ ...d, label: `${d.event} (first)` }, { ...d, label: `${d.event} again, same event_id` }];
    },
  },
  {
    id: 'receiver.out-of-order-accepted',
    // The spec leaves delivery and retry behaviour "not shown": at-least-once comes from sandbox.md.
    source: 'sandbox',
    clause: SANDBOX_WEBHOOKS,
    title: 'events out of order (in_progress after the final success) are accepted',
    fix: 'answer 2xx to an event older than the state you hold, and keep the final state',
    plan: (secret) => {
      const txn = checkId('txn');
      const op = checkId('op');
      const base = checkId('txn');
      return [
        valid(payload('transaction.success', transactionRecord('SUCCESS', txn)), secret),
        valid(payload('transaction.in_progress', transactionRecord('IN_PROGRESS', txn)), secret, 'transaction.in_progress after transaction.success'),
        valid(payload('operation.success', operationRecord('SUCCESS', op, base)), secret),
        valid(payload('operation.in_progress', operationRecord('IN_PROGRESS', op, base)), secret, 'operation.in_progress after operation.success'),
      ];
    },
  },
  {
    id: 'receiver.unknown-event-accepted',
    source: 'profile',
    clause: PROFILE_WEBHOOKS,
    title: 'a validly signed event the receiver does not know is accepted (the event catalogue is not published)',
    fix: 'answer 2xx to an event name you do not handle, and ignore it',
    plan: (secret) => [
      valid(payload('transaction.partially_refunded', transactionRecord('SUCCESS', checkId('txn'))), secret),
      valid(payload('terminal.updated', { terminal_id: checkId('txn') }), secret),
    ],
  },
  {
    id: 'receiver.oversized-refused',
    source: 'profile',
    clause: PROFILE_WEBHOOKS,
    title: `an oversized body (${OVERSIZED_BYTES / 1024 / 1024} MiB, validly signed) is refused without a 5xx`,
    fix: 'bound the body size (e.g. 64 KiB) and answer 413 beyond it, without reading it all',
    plan: (secret) => {
      const p = payload('transaction.success', transactionRecord('SUCCESS', checkId('txn')));
      const head = compactJson(p);
      // The padding goes into data, keeping the keys sorted: {"data":{..."x_padding":"xxx…"},...}.
      const padded = { ...p, data: { ...(p.data as Record<string, unknown>), x_padding: 'x'.repeat(Math.max(0, OVERSIZED_BYTES - head.length - 16)) } };
      const text = compactJson(padded);
      return [{
        label: `transaction.success padded to ${text.length} bytes`, signed: signed(text, secret), expect: 'refused-cleanly', event: p.event, eventId: p.event_id,
        shownBody: `(${text.length} bytes, not shown: ${compactJson(p).slice(0, 200)}… with data.x_padding of ${padded.data.x_padding.length} "x")`,
      }];
    },
  },
  {
    id: 'receiver.malformed-refused',
    source: 'profile',
    clause: PROFILE_WEBHOOKS,
    title: 'a malformed body (validly signed) is refused without a 5xx (400 bad payload)',
    fix: 'answer 400 to a body that is not a JSON object with data, event and event_id; never 5xx (a 5xx is retried)',
    plan: (secret) => {
      const truncated = compactJson(success());
      return [
        { label: 'JSON cut in the middle', signed: signed(truncated.slice(0, Math.floor(truncated.length / 2)), secret), expect: 'refused-cleanly' },
        { label: 'an empty body', signed: signed('', secret), expect: 'refused-cleanly' },
        { label: 'a JSON array instead of an object', signed: signed('[]', secret), expect: 'refused-cleanly' },
      ];
    },
  },
];

/** The rule that judges every answer's time: a delivery answered after --timeout is retried by the sender. */
export const ANSWERED_IN_TIME: Pick<ReceiverRule, 'id' | 'source' | 'clause' | 'title' | 'fix'> = {
  id: 'receiver.answered-in-time',
  source: 'profile',
  clause: PROFILE_WEBHOOKS,
  title: 'every delivery is answered within the timeout',
  fix: 'answer at once and do the work after answering (a queue): a late answer counts as a failed delivery and is retried',
};

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
