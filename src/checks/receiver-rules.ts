/**
 * The rules a webhook endpoint is judged by: check-receiver sends it deliveries, certify-client sees the
 * deliveries the simulator sent the client's endpoint. Where both judge one behaviour (genuine deliveries
 * accepted, wrongly signed ones refused) they judge one rule, with one id and one severity: an endpoint
 * that refuses every genuine delivery fails both commands.
 *
 * Why these severities. pay-connect-spec.md (Events) says the service sends webhooks to `webhook_url`
 * and that `webhook_secret_key` "is used to verify the webhook signature": an endpoint must take every
 * genuine delivery (validly signed over the bytes it got, whatever their layout) and refuse a forged
 * one. At-least-once delivery is sandbox.md's; the event catalogue, the answer codes and the timing are
 * the public profile's (public-profile.md, Webhooks): a deviation there is a warning.
 */
import { defineRule } from './rule.ts';

/** The metadata type, for check-receiver, which may import this file of the checks room only. */
export type { RuleMeta } from './rule.ts';

/** The clause of the spec rules: pay-connect-spec.md, Events. */
export const SPEC_EVENTS = 'spec#events';
/** The clause of at-least-once delivery (sandbox.md, Webhooks). */
export const SANDBOX_WEBHOOKS = 'sandbox#webhooks';
/** The clause of the profile rules: public-profile.md, Webhooks. */
export const PROFILE_WEBHOOKS = 'profile#webhooks';

/** Both commands that judge a webhook endpoint. */
const BOTH = ['check-receiver', 'certify-client'] as const;
const RECEIVER = ['check-receiver'] as const;

export const validAccepted = defineRule({
  id: 'receiver.valid-accepted',
  judges: BOTH,
  formerly: ['client.webhook-accepted'],
  source: 'spec',
  clause: SPEC_EVENTS,
  title: 'a validly signed delivery of any transaction or operation event is accepted (2xx)',
  fix:
    'verify the HMAC-SHA256 of the raw body keyed with webhook_secret_key (UTF-8 text, not hex-decoded) ' +
    'and answer 2xx to every delivery that verifies, also for events you ignore',
});

export const rawBytesVerified = defineRule({
  id: 'receiver.raw-bytes-verified',
  judges: RECEIVER,
  source: 'spec',
  clause: SPEC_EVENTS,
  title: 'a valid signature over bytes that are not compact JSON is accepted (the signature is over the exact bytes)',
  fix: 'compute the HMAC over the raw request body as received, before any JSON parsing; never over a re-serialised object',
});

export const unsignedRefused = defineRule({
  id: 'receiver.unsigned-refused',
  judges: RECEIVER,
  source: 'spec',
  clause: SPEC_EVENTS,
  title: 'a delivery without a signature is refused (not 2xx)',
  fix: 'refuse (403) a delivery whose Signature header is missing or empty',
});

export const wrongSignatureRefused = defineRule({
  id: 'receiver.wrong-signature-refused',
  judges: BOTH,
  formerly: ['client.webhook-forged-rejected'],
  source: 'spec',
  clause: SPEC_EVENTS,
  title: 'a delivery with a wrong signature is refused (not 2xx)',
  fix: 'compare the Signature header with the HMAC-SHA256 of the raw body (webhook_secret_key), in constant time, and refuse (403) when they differ',
});

export const otherKeyRefused = defineRule({
  id: 'receiver.other-key-refused',
  judges: RECEIVER,
  source: 'spec',
  clause: SPEC_EVENTS,
  title: 'a delivery signed with another key is refused (not 2xx)',
  fix: "verify with this pairing's webhook_secret_key only",
});

export const tamperedRefused = defineRule({
  id: 'receiver.tampered-refused',
  judges: RECEIVER,
  source: 'spec',
  clause: SPEC_EVENTS,
  title: 'a delivery whose body was changed after signing is refused (not 2xx)',
  fix: 'verify the signature over the body received, and act on nothing before it verifies',
});

export const duplicateAccepted = defineRule({
  // The spec leaves delivery and retry behaviour "not shown": at-least-once comes from sandbox.md.
  id: 'receiver.duplicate-accepted',
  judges: RECEIVER,
  source: 'sandbox',
  clause: SANDBOX_WEBHOOKS,
  title: 'the same delivery twice (same event_id) is accepted both times (at-least-once delivery)',
  fix: 'deduplicate by event_id and answer 2xx to a delivery already processed (do not answer 409)',
});

export const outOfOrderAccepted = defineRule({
  id: 'receiver.out-of-order-accepted',
  judges: RECEIVER,
  source: 'sandbox',
  clause: SANDBOX_WEBHOOKS,
  title: 'events out of order (in_progress after the final success) are accepted',
  fix: 'answer 2xx to an event older than the state you hold, and keep the final state',
});

export const unknownEventAccepted = defineRule({
  id: 'receiver.unknown-event-accepted',
  judges: RECEIVER,
  source: 'profile',
  clause: PROFILE_WEBHOOKS,
  title: 'a validly signed event the receiver does not know is accepted (the event catalogue is not published)',
  fix: 'answer 2xx to an event name you do not handle, and ignore it',
});

/** A body larger than any Pay-Connect delivery (a status record is well under 2 KiB). */
export const OVERSIZED_BYTES = 2 * 1024 * 1024;

export const oversizedRefused = defineRule({
  id: 'receiver.oversized-refused',
  judges: RECEIVER,
  source: 'profile',
  clause: PROFILE_WEBHOOKS,
  title: `an oversized body (${OVERSIZED_BYTES / 1024 / 1024} MiB, validly signed) is refused without a 5xx`,
  fix: 'bound the body size (e.g. 64 KiB) and answer 413 beyond it, without reading it all',
});

export const malformedRefused = defineRule({
  id: 'receiver.malformed-refused',
  judges: RECEIVER,
  source: 'profile',
  clause: PROFILE_WEBHOOKS,
  title: 'a malformed body (validly signed) is refused without a 5xx (400 bad payload)',
  fix: 'answer 400 to a body that is not a JSON object with data, event and event_id; never 5xx (a 5xx is retried)',
});

export const answeredInTime = defineRule({
  id: 'receiver.answered-in-time',
  judges: RECEIVER,
  source: 'profile',
  clause: PROFILE_WEBHOOKS,
  title: 'every delivery is answered within the timeout',
  fix: 'answer at once and do the work after answering (a queue): a late answer counts as a failed delivery and is retried',
});

/** Every rule of a webhook endpoint, in check-receiver's report order. */
export const WEBHOOK_ENDPOINT_RULES = [
  validAccepted,
  rawBytesVerified,
  unsignedRefused,
  wrongSignatureRefused,
  otherKeyRefused,
  tamperedRefused,
  duplicateAccepted,
  outOfOrderAccepted,
  unknownEventAccepted,
  oversizedRefused,
  malformedRefused,
  answeredInTime,
] as const;
