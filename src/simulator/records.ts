/**
 * JSON views of the model: the status record, the print slip (with its fault switches), the
 * operation record and the configuration. Built on demand so stored records stay compact.
 * Each correct view is typed with the contract's schema, so a misspelt or missing field does not
 * compile; a fault that breaks the schema goes through {@link broken}, visibly outside the type.
 */
import type { Configuration, OperationRecord, PrintSlip, TransactionRecord } from '../generated/schema-types.ts';
import { broken, type Broken } from './broken.ts';
import type { FaultSet } from './faults.ts';
import { LIBERAL_EXTRA_METHODS } from './liberal.ts';
import type { Merchant, Op, PaymentMethodId, Txn } from './model.ts';
import type { VirtualTerminal } from './virtual-terminal.ts';

/** Currency of every virtual terminal (sandbox#configuration). */
export const CURRENCY = 'EUR';
/** Timezone of every virtual terminal's point of sale (sandbox#configuration). */
export const TIMEZONE = 'Europe/Ljubljana';

/** Payment methods offered by every virtual terminal; ids are values of the spec's enum. */
export const PAYMENT_METHODS = [
  { id: 'CARD', name: 'Card', group: { id: 'cards', name: 'Payment cards' } },
  { id: 'MBILLS', name: 'mBills', group: { id: 'mobile', name: 'Mobile wallets' } },
  { id: 'PAYCONIQ', name: 'Payconiq', group: { id: 'mobile', name: 'Mobile wallets' } },
] as const;

const METHOD_IDS = new Set<string>(PAYMENT_METHODS.map((m) => m.id));

const LIBERAL_METHOD_IDS = new Set<string>([...METHOD_IDS, ...LIBERAL_EXTRA_METHODS.map((m) => m.id)]);

/** True when `id` is one of the configuration's payment method ids (`liberal`: the liberal sandbox's longer list). */
export function isPaymentMethod(id: string, liberal = false): id is PaymentMethodId {
  return (liberal ? LIBERAL_METHOD_IDS : METHOD_IDS).has(id);
}

/** The terminal's timezone: the sandbox's, or another one under `config.wrong-timezone`. */
function timezoneOf(faults: FaultSet): string {
  return faults.has('config.wrong-timezone') ? 'Europe/Vienna' : TIMEZONE;
}

/** A timestamp as the terminal writes it (ISO 8601 UTC with second precision by default); 0 means null. */
function iso(terminal: VirtualTerminal, ms: number): string | null {
  return ms === 0 ? null : terminal.stamp(ms);
}

const AID = { VISA: 'A0000000031010', MASTERCARD: 'A0000000041010' } as const;

/** The card fields, spelt alike in the status record and the print slip. */
type CardFields = Pick<TransactionRecord & PrintSlip, 'payment_option' | 'card_tid' | 'card_number' | 'aid' | 'approve_code' | 'card_type'>;

/** Card fields (null unless an approved card payment); `payment_option` only when known. */
function cardFields(t: Txn, terminal: VirtualTerminal): CardFields {
  const c = t.card;
  return {
    ...(c ? { payment_option: c.option } : {}),
    card_tid: t.method === 'CARD' ? terminal.cardTid : null,
    card_number: c ? `**** **** **** ${c.last4}` : null,
    aid: c ? AID[c.option] : null,
    approve_code: c ? c.approveCode : null,
    card_type: c ? c.type : null,
  };
}

/** The status record of sandbox#status-and-print-slip (also the data of transaction webhooks). */
export function statusRecord(t: Txn, terminal: VirtualTerminal): TransactionRecord {
  return {
    transaction_id: t.id,
    client_transaction_id: t.clientTxnId,
    status: t.status,
    amount: t.amount,
    tip_amount: t.tip,
    total_amount: t.amount + t.tip,
    currency: CURRENCY,
    payment_method: t.method,
    tags: [t.kind === 'refund' ? 'refund' : 'charge'],
    created_at: terminal.stamp(t.createdAt),
    completed_at: iso(terminal, t.completedAt),
    canceled_at: iso(terminal, t.canceledAt),
    reverted_at: iso(terminal, t.revertedAt),
    refund_total_amount: t.refundTotal,
    ...cardFields(t, terminal),
  };
}

/** What the status record depends on that can change; the rest of a Txn never does. */
function recordKey(t: Txn): string {
  return `${t.status}|${t.amount}|${t.tip}|${t.method}|${t.refundTotal}|${t.completedAt}|${t.canceledAt}|${t.revertedAt}|${t.card ? 1 : 0}`;
}

const serialized = new WeakMap<Txn, { key: string; json: string }>();

/**
 * The status record as JSON text, kept per transaction until the record changes: polling is the
 * hottest path of every client, and the record only changes at a terminal step.
 */
export function statusRecordJson(t: Txn, terminal: VirtualTerminal): string {
  const key = recordKey(t);
  const hit = serialized.get(t);
  if (hit && hit.key === key) return hit.json;
  const json = JSON.stringify(statusRecord(t, terminal));
  serialized.set(t, { key, json });
  return json;
}

/** An id of the same shape as `id` that is not `id` (its last character changed). */
export function otherId(id: string): string {
  return `${id.slice(0, -1)}${id.endsWith('0') ? '1' : '0'}`;
}

/** The print slip of spec#transaction-print-slip, with the slip fault switches applied. */
export function printSlip(t: Txn, terminal: VirtualTerminal, faults: FaultSet): PrintSlip | Broken {
  const m: Merchant = terminal.merchant;
  const slip: PrintSlip = {
    transaction_id: t.id,
    terminal_id: terminal.id,
    organization: { ...m.organization },
    point_of_sale: { ...m.point_of_sale },
    amount: t.amount,
    tip_amount: t.tip,
    total_amount: t.amount + t.tip,
    currency: CURRENCY,
    status: t.status,
    payment_method: t.method ?? 'CARD',
    tags: [t.kind === 'refund' ? 'refund' : 'charge'],
    timezone: timezoneOf(faults),
    created_at: terminal.stamp(t.createdAt),
    completed_at: iso(terminal, t.completedAt),
    canceled_at: iso(terminal, t.canceledAt),
    reverted_at: iso(terminal, t.revertedAt),
    digital_slip: `https://slips.sandbox.pay-connect.example/v1/${encodeURIComponent(t.id)}.pdf`,
    refund_total_amount: t.refundTotal,
    ...cardFields(t, terminal),
  };
  return broken(slip, (s) => {
    if (faults.has('slip.missing-digital-slip')) delete s.digital_slip;
    if (faults.has('slip.amount-as-string')) s.amount = String(t.amount);
    if (faults.has('slip.bad-created-at')) s.created_at = '22/11/2026 10:00';
    if (faults.has('slip.bad-digital-slip-uri')) s.digital_slip = 'not a url';
    if (faults.has('slip.total-mismatch')) s.total_amount = t.amount + t.tip + 1;
    if (faults.has('slip.bad-currency')) s.currency = 'euro';
    if (faults.has('slip.bad-country')) s.organization = { ...slip.organization, country: 'SVN' };
    if (faults.has('slip.status-outside-enum')) s.status = 'COMPLETED';
    if (faults.has('slip.bad-payment-method')) s.payment_method = 'CASH';
    if (faults.has('slip.bad-tag')) s.tags = ['sale'];
    if (faults.has('slip.currency-disagrees-config')) s.currency = 'USD';
    // Another id of the same shape: the last character changed.
    if (faults.has('slip.wrong-transaction-id')) s.transaction_id = otherId(t.id);
    if (faults.has('slip.wrong-terminal-id')) s.terminal_id = `9${terminal.id.slice(1)}`;
  });
}

/** The operation record of the public profile (also the data of operation webhooks). */
export function operationRecord(o: Op, faults: FaultSet): OperationRecord | Broken {
  // operation.wrong-type names another type of the enum: a lie the schema allows, so it stays typed.
  const misnamed = o.type === 'transaction.preauth.increment' && faults.has('operation.wrong-type');
  const final = o.status === 'SUCCESS' || o.status === 'FAILED' || o.status === 'EXPIRED';
  const record: OperationRecord = {
    operation_id: o.id,
    operation_type: misnamed ? 'transaction.preauth.complete' : o.type,
    transaction_id: o.txnId,
    status: o.status,
    ...(o.amount === null ? {} : { metadata: { amount: o.amount } }),
  };
  return broken(record, (r) => {
    if (final && faults.has('operation.status-outside-enum')) r.status = 'PROCESSED';
  });
}

/** The configuration of spec#configuration, with the config fault switches applied. */
export function configRecord(terminal: VirtualTerminal, faults: FaultSet): Configuration | Broken {
  const methods = faults.has('config.no-card') ? PAYMENT_METHODS.filter((m) => m.id !== 'CARD') : PAYMENT_METHODS;
  const config: Configuration = {
    version: '1.0.0',
    // Terminal ids start with 8: a 9 names some other terminal.
    terminal_id: faults.has('config.other-terminal-id') ? `9${terminal.id.slice(1)}` : terminal.id,
    default_language: 'sl',
    currency: CURRENCY,
    timezone: timezoneOf(faults),
    payment_methods: methods.map((p) => ({ ...p, group: { ...p.group } })),
  };
  return broken(config, (c) => {
    if (faults.has('config.missing-payment-methods')) delete c.payment_methods;
  });
}
