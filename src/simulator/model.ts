/**
 * The simulator's own data model (deliberately independent of the contract's generated types: the
 * simulator is a second, separate implementation of the rules the harness checks). Only the JSON
 * answers built from it (records.ts, api-*.ts) are typed with the contract's schemas.
 * Records are kept compact: timestamps are epoch milliseconds (0 = null), card data is one small
 * object only for approved card payments, and JSON views are built on demand.
 */
import type { ClockTimer } from './terminal-clock.ts';

/** Transaction status values of the spec. */
export type TxnStatus = 'INITIATED' | 'IN_PROGRESS' | 'SUCCESS' | 'CANCELED' | 'DECLINED' | 'REVERTED' | 'EXPIRED' | 'FAILED';

/** Operation status values of the public profile. */
export type OpStatus = 'INITIATED' | 'IN_PROGRESS' | 'SUCCESS' | 'FAILED' | 'EXPIRED';

/** Operation types of the public profile. */
export type OpType = 'transaction.revert' | 'transaction.preauth.increment' | 'transaction.preauth.complete';

/** Payment method ids the virtual terminals offer (the configuration's list, in records.ts; TWINT and VALU only the liberal sandbox's). */
export type PaymentMethodId = 'CARD' | 'MBILLS' | 'PAYCONIQ' | 'TWINT' | 'VALU';

/** What started a transaction: generate, preauth, or a (linked or independent) refund. */
export type TxnKind = 'payment' | 'preauth' | 'refund';

/** Card details of an approved card payment. */
export interface Card {
  readonly option: 'VISA' | 'MASTERCARD';
  readonly last4: string;
  readonly approveCode: string;
  readonly type: 'CREDIT' | 'DEBIT';
}

/** One transaction on a virtual terminal. */
export interface Txn {
  readonly id: string;
  readonly kind: TxnKind;
  readonly clientTxnId: string | null;
  /** The transaction a linked refund refunds. */
  readonly parentId: string | null;
  status: TxnStatus;
  amount: number;
  tip: number;
  method: PaymentMethodId | null;
  /** The payment method the request named (null: none; the customer picks). */
  readonly sentMethod: PaymentMethodId | null;
  readonly createdAt: number;
  completedAt: number;
  canceledAt: number;
  revertedAt: number;
  refundTotal: number;
  card: Card | null;
  /** Preauthorization: authorized amount (amount plus successful increments). */
  authorized: number;
  /** Preauthorization: a complete has succeeded. */
  completed: boolean;
  cancelRequested: boolean;
  step: ClockTimer | null;
  deadline: ClockTimer | null;
}

/** One operation (revert, preauth increment or complete). */
export interface Op {
  readonly id: string;
  readonly type: OpType;
  readonly txnId: string;
  /** Null for revert, which has no body. */
  readonly amount: number | null;
  status: OpStatus;
  step: ClockTimer | null;
}

/** Where an organization and point of sale are printed from. */
export interface Merchant {
  readonly organization: {
    readonly full_name: string;
    readonly country: string;
    readonly address: string;
    readonly postal_code: string;
    readonly city: string;
    readonly region: string | null;
  };
  readonly point_of_sale: { readonly full_name: string };
}

const FINAL = new Set<string>(['SUCCESS', 'CANCELED', 'DECLINED', 'REVERTED', 'EXPIRED', 'FAILED']);

/** True for a status the transaction or operation never leaves (under correct behaviour). */
export function isFinal(status: TxnStatus | OpStatus): boolean {
  return FINAL.has(status);
}

/** The outcome row of the sandbox table: the last two digits of the amount. */
export function row(amount: number): number {
  return ((amount % 100) + 100) % 100;
}

/** Outcome of the amount's last two digits, at the time the terminal finishes (sandbox#transactions). */
export function finishStatus(amount: number): TxnStatus {
  const r = row(amount);
  return r === 51 ? 'DECLINED' : r === 52 ? 'FAILED' : r === 53 ? 'EXPIRED' : 'SUCCESS';
}
