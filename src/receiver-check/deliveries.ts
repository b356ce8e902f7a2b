/**
 * The webhook deliveries `check-receiver` sends, built as sandbox.md (Webhooks) describes them: a JSON
 * object `{"data", "event", "event_id"}` with keys sorted at every level, no whitespace, signed in the
 * `Signature` header (lowercase hex HMAC-SHA256 of the exact body bytes, keyed with the secret as
 * UTF-8); and the byte forms and forgeries the rules need. The harness's own code: nothing here comes
 * from the simulator, which is judged by the same documents.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { canonicalJson, sortKeys } from '../core/index.ts';
import { enums } from '../generated/contract.ts';
import { signBody } from '../webhooks/index.ts';

/** Keys in reverse order at every level: the same object, other bytes. */
function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const k of Object.keys(value).sort().reverse()) out[k] = reverseKeys((value as Record<string, unknown>)[k]);
    return out;
  }
  return value;
}

/** The sender's form (sandbox.md: "keys sorted at every level"): sorted keys, no whitespace. */
export const compactJson = canonicalJson;

/** Sorted keys with `", "` and `": "` separators (Python's default `json.dumps`). */
export function spacedJson(value: unknown): string {
  const v = sortKeys(value);
  if (Array.isArray(v)) return `[${v.map(spacedJson).join(', ')}]`;
  if (v !== null && typeof v === 'object')
    return `{${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}: ${spacedJson(x)}`)
      .join(', ')}}`;
  return JSON.stringify(v);
}

/** Sorted keys, indented by two spaces, with a final newline. */
export function indentedJson(value: unknown): string {
  return `${JSON.stringify(sortKeys(value), null, 2)}\n`;
}

/** Keys in reverse order, no whitespace. */
export function reorderedJson(value: unknown): string {
  return JSON.stringify(reverseKeys(value));
}

/** Sorted keys, no whitespace, every character outside ASCII and every `/` escaped (`\u00e8`, `\/`). */
export function escapedJson(value: unknown): string {
  return compactJson(value)
    .replace(/\//g, '\\/')
    .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** One request body with its `Signature` header value (null: no header). */
export interface SignedBody {
  body: Buffer;
  signature: string | null;
}

/** `text` signed with `secret` over its exact UTF-8 bytes. */
export function signed(text: string | Buffer, secret: string): SignedBody {
  const body = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  return { body, signature: signBody(body, secret) };
}

/** A key that is not the receiver's: 32 random bytes, hex (never shown). */
export function otherKey(): string {
  return randomBytes(32).toString('hex');
}

/** A well-formed signature (64 lowercase hex digits) that signs nothing. */
export function randomSignature(): string {
  return randomBytes(32).toString('hex');
}

/** An ISO 8601 UTC timestamp with second precision (the profile's samples). */
export function isoSeconds(at = Date.now()): string {
  return new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Ids this command makes up: recognisable in the receiver's logs. */
export function checkId(kind: 'txn' | 'op' | 'evt'): string {
  return `pcc-check-${kind}-${randomUUID()}`;
}

/** The final transaction statuses (a final one has `completed_at`). */
const IN_FLIGHT = new Set(['INITIATED', 'IN_PROGRESS']);

/** A transaction status record as sandbox.md lists its fields. */
export function transactionRecord(status: string, transactionId: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  const now = isoSeconds();
  const final = !IN_FLIGHT.has(status);
  return {
    transaction_id: transactionId,
    client_transaction_id: null,
    status,
    amount: 100,
    tip_amount: 0,
    total_amount: 100,
    currency: 'EUR',
    payment_method: status === 'INITIATED' ? null : 'CARD',
    tags: ['charge'],
    created_at: now,
    completed_at: final ? now : null,
    canceled_at: status === 'CANCELED' ? now : null,
    reverted_at: status === 'REVERTED' ? now : null,
    refund_total_amount: 0,
    ...over,
  };
}

/** An operation record (public-profile.md: operation details). */
export function operationRecord(status: string, operationId: string, transactionId: string): Record<string, unknown> {
  return {
    operation_id: operationId,
    operation_type: 'transaction.preauth.increment',
    transaction_id: transactionId,
    status,
    metadata: { amount: 100 },
  };
}

/** A webhook payload: `{data, event, event_id}`. */
export function payload(event: string, data: unknown, eventId = checkId('evt')): { data: unknown; event: string; event_id: string } {
  return { data, event, event_id: eventId };
}

/**
 * Every transaction and operation event of the contract (`<kind>.<status in lower case>`), each about
 * a transaction or operation of its own, so that no two of them make a sequence a receiver could judge.
 */
export function everyEvent(): ReturnType<typeof payload>[] {
  return [
    ...enums.TransactionStatus.map((s) => payload(`transaction.${s.toLowerCase()}`, transactionRecord(s, checkId('txn')))),
    ...enums.OperationStatus.map((s) => payload(`operation.${s.toLowerCase()}`, operationRecord(s, checkId('op'), checkId('txn')))),
  ];
}
