/**
 * A model of one virtual terminal of the sandbox, written from sandbox.md alone (never from the
 * simulator: an oracle that shares code with what it judges hides the bugs they share).
 *
 * The model is initialised from nothing for every command sequence (each sequence pairs a fresh
 * terminal), so "the terminal's most recent SUCCESS" is known exactly. It predicts answers as sets:
 * one code where sandbox.md fixes it, several where timing may legally decide (a transaction that
 * finishes within a step may be final or not when the next request arrives) or where sandbox.md
 * leaves a choice open (noted at each place). Preconditions of the commands keep the sequence itself
 * deterministic: only answers, never which commands run, depend on timing.
 */

/** Final transaction statuses (spec, States and transitions; public profile, transition graph). */
export type FinalStatus = 'SUCCESS' | 'CANCELED' | 'DECLINED' | 'REVERTED' | 'EXPIRED' | 'FAILED';
export type OpStatus = 'SUCCESS' | 'FAILED' | 'EXPIRED';
export const FINAL_STATUSES: readonly string[] = ['SUCCESS', 'CANCELED', 'DECLINED', 'REVERTED', 'EXPIRED', 'FAILED'];

/** What started a transaction. */
export type TxnKind = 'payment' | 'preauth' | 'refund';

/** The sandbox's documented tip for `amount % 100 == 57` (sandbox.md, Transactions). */
export const TIP = 100;

/** The last two digits, which pick the outcome (sandbox.md, Transactions). */
export const suffixOf = (amount: number): number => amount % 100;

/** One transaction as the model knows it. */
export interface MTxn {
  /** `T1`, `T2`...: creation order within the sequence. */
  readonly label: string;
  readonly id: string;
  readonly kind: TxnKind;
  /** The transaction a linked refund refunds. */
  readonly parent?: MTxn;
  /** The amount of the request that created it. */
  readonly requested: number;
  /** `PENDING` until a wait observes its final status. */
  status: 'PENDING' | FinalStatus;
  /** A cancel answered 200 while it was pending. */
  canceled: boolean;
  /** The record's `amount` (a successful complete replaces it). */
  amount: number;
  tip: number;
  /** Sum of the successful linked refunds of this transaction. */
  refundTotal: number;
  /** Preauthorization: amount plus successful increments. */
  authorized: number;
  /** Preauthorization: a complete has succeeded. */
  completed: boolean;
  /** Order in which it reached SUCCESS (for "most recent SUCCESS"). */
  successSeq?: number;
}

/** The fields of a transaction record the model predicts. */
export interface ExpectedRecord {
  status: string[];
  amount: number;
  /** Tip by final status: 100 for a 57 that ended SUCCESS, else 0. */
  tipBy: Record<string, number>;
  /** refund_total_amount: one value, or two while a linked refund of it may be finishing. */
  refundTotal: number[];
  /** Tagged `refund` (a refund transaction) or not. */
  refund: boolean;
}

/** An answer predicted as a set of status codes, with the reason (shown in findings). */
export interface Prediction {
  codes: number[];
  why: string;
  /** sandbox.md section the prediction rests on. */
  clause: string;
}

const P = (codes: number[], why: string, clause: string): Prediction => ({ codes, why, clause });

/** The largest amount <= `limit` ending in `suffix` (at least 1); past the limit when none exists. */
export function amountAtMost(limit: number, suffix: number): number {
  const a = Math.floor((limit - suffix) / 100) * 100 + suffix;
  if (a >= 1 && limit >= a) return a;
  return suffix === 0 ? 100 : suffix;
}

/** The smallest amount > `limit` ending in `suffix`. */
export function amountAbove(limit: number, suffix: number): number {
  const a = Math.floor(limit / 100) * 100 + suffix;
  return a > limit ? a : a + 100;
}

export class TerminalModel {
  /** The sequence's transactions, in creation order. */
  readonly txns: MTxn[] = [];
  /** The transaction that is (or may still be) INITIATED or IN_PROGRESS: the terminal is busy. */
  pending?: MTxn;
  /** Commands run so far. */
  executed = 0;
  /** Convergences so far (waits and operations: what makes a sequence take time). */
  converged = 0;
  private successes = 0;

  /** At most `cap` convergences and `3 * cap` commands per sequence. */
  constructor(readonly cap = Number.POSITIVE_INFINITY) {}

  /** Whether the sequence may run one more command. */
  get open(): boolean {
    return this.converged < this.cap && this.executed < 3 * this.cap;
  }

  /**
   * True when the pending transaction is one that waits for a cancel or the deadline (54 in
   * IN_PROGRESS, 55 in INITIATED) and no cancel was accepted: it is certainly still pending a
   * moment later, so answers that depend on it are exact.
   */
  pendingIsWaiting(): boolean {
    const p = this.pending;
    return p !== undefined && !p.canceled && (suffixOf(p.requested) === 54 || suffixOf(p.requested) === 55);
  }

  /** generate, preauth, independent refund: 409 while busy (One transaction at a time), else 200. */
  predictStart(): Prediction {
    if (this.pending)
      return P(
        [409],
        `${this.pending.label} is still ${suffixOf(this.pending.requested) === 55 ? 'INITIATED' : 'IN_PROGRESS'} (amount ${this.pending.requested}): one transaction at a time`,
        'sandbox#transactions',
      );
    return P([200], 'the terminal is idle', 'sandbox#transactions');
  }

  /** Records a transaction the service accepted. */
  add(id: string, kind: TxnKind, requested: number, parent?: MTxn): MTxn {
    const t: MTxn = {
      label: `T${this.txns.length + 1}`,
      id,
      kind,
      parent,
      requested,
      status: 'PENDING',
      canceled: false,
      amount: requested,
      tip: 0,
      refundTotal: 0,
      authorized: requested,
      completed: false,
    };
    this.txns.push(t);
    this.pending = t;
    return t;
  }

  /** The final statuses a pending transaction may reach (outcome table, cancel rules). */
  finals(t: MTxn): FinalStatus[] {
    if (t.status !== 'PENDING') return [t.status];
    const s = suffixOf(t.requested);
    if (t.canceled) {
      // 56 refuses cancellation; an approving payment canceled while IN_PROGRESS may still complete
      // (the legal race); everything else reaches CANCELED.
      if (s === 56) return ['SUCCESS'];
      if (s === 51 || s === 52 || s === 53 || s === 54 || s === 55) return ['CANCELED'];
      return ['CANCELED', 'SUCCESS'];
    }
    if (s === 51) return ['DECLINED'];
    if (s === 52) return ['FAILED'];
    if (s === 53 || s === 54 || s === 55) return ['EXPIRED'];
    return ['SUCCESS'];
  }

  /** The record the model expects for `t` (its status given as the possible set). */
  expected(t: MTxn): ExpectedRecord {
    const status = this.finals(t);
    const tipBy: Record<string, number> = {};
    for (const s of status) tipBy[s] = t.status === 'PENDING' ? (s === 'SUCCESS' && suffixOf(t.requested) === 57 ? TIP : 0) : t.tip;
    const child = this.pending?.parent === t ? this.pending : undefined;
    const refundTotal = child && this.finals(child).includes('SUCCESS') ? [t.refundTotal, t.refundTotal + child.amount] : [t.refundTotal];
    return { status, amount: t.amount, tipBy, refundTotal, refund: t.kind === 'refund' };
  }

  /** A wait observed `status` (already judged against `finals`): the model follows it. */
  settle(t: MTxn, status: FinalStatus): void {
    t.status = status;
    if (status === 'SUCCESS') {
      t.tip = suffixOf(t.requested) === 57 ? TIP : 0;
      t.successSeq = ++this.successes;
      // A linked refund that succeeds grows the original's refund_total_amount.
      if (t.parent) t.parent.refundTotal += t.amount;
    }
    if (this.pending === t) this.pending = undefined;
  }

  /** Cancel: 200 while pending, 400 once final. */
  predictCancel(t: MTxn): Prediction {
    if (t.status !== 'PENDING') return P([400], `${t.label} is already ${t.status}`, 'sandbox#transactions');
    if (t === this.pending && this.pendingIsWaiting())
      return P([200], `${t.label} (amount ${t.requested}) waits until canceled or expired`, 'sandbox#transactions');
    return P([200, 400], `${t.label} (amount ${t.requested}) may or may not have finished yet`, 'sandbox#transactions');
  }

  /** Print slip: 200 once final, 400 while INITIATED or IN_PROGRESS. */
  predictSlip(t: MTxn): Prediction {
    if (t.status !== 'PENDING') return P([200], `${t.label} is final (${t.status})`, 'sandbox#status-and-print-slip');
    if (t === this.pending && this.pendingIsWaiting())
      return P([400], `${t.label} (amount ${t.requested}) is still waiting`, 'sandbox#status-and-print-slip');
    return P([200, 400], `${t.label} (amount ${t.requested}) may or may not have finished yet`, 'sandbox#status-and-print-slip');
  }

  /** Increment and complete: 200 for a successful preauthorization, else 400. */
  predictPreauthOp(t: MTxn): Prediction {
    if (t.kind === 'preauth' && t.status === 'SUCCESS')
      return P([200], `${t.label} is a successful preauthorization`, 'sandbox#preauthorization');
    return P(
      [400],
      `${t.label} is ${t.kind === 'preauth' ? `a preauthorization in ${t.status}` : `a ${t.kind} transaction (${t.status})`}, not a successful preauthorization`,
      'sandbox#preauthorization',
    );
  }

  /** The table's outcome of an operation amount: 51 FAILED, 53 EXPIRED, else SUCCESS. */
  private static opBase(amount: number | null): OpStatus {
    const s = amount === null ? 0 : suffixOf(amount);
    return s === 51 ? 'FAILED' : s === 53 ? 'EXPIRED' : 'SUCCESS';
  }

  /**
   * An operation whose rules make it fail: FAILED. When the table already says EXPIRED (53),
   * sandbox.md does not say which wins ("with these rules on top"), so either is accepted.
   */
  private static ruled(base: OpStatus, fails: boolean): OpStatus[] {
    if (!fails) return [base];
    return base === 'EXPIRED' ? ['EXPIRED', 'FAILED'] : ['FAILED'];
  }

  predictIncrement(t: MTxn, amount: number): { status: OpStatus[]; why: string } {
    const base = TerminalModel.opBase(amount);
    return {
      status: TerminalModel.ruled(base, t.completed),
      why: t.completed
        ? `${t.label} is already completed: any further increment ends FAILED`
        : `amount ${amount} (% 100 = ${suffixOf(amount)})`,
    };
  }

  predictComplete(t: MTxn, amount: number): { status: OpStatus[]; why: string } {
    const base = TerminalModel.opBase(amount);
    if (t.completed)
      return { status: TerminalModel.ruled(base, true), why: `${t.label} is already completed: any further complete ends FAILED` };
    if (amount <= t.authorized)
      return { status: [base], why: `amount ${amount} (% 100 = ${suffixOf(amount)}) within the authorized ${t.authorized}` };
    // Whether a tip counts as authorized is not said: within amount + tip either outcome is accepted.
    if (amount <= t.authorized + t.tip)
      return {
        status: [...new Set([base, 'FAILED' as const])],
        why: `amount ${amount} is above the authorized ${t.authorized} but within it plus the tip`,
      };
    return { status: TerminalModel.ruled(base, true), why: `amount ${amount} is above the authorized ${t.authorized}` };
  }

  /** The operation ended `status`: its effect on the preauthorization. */
  applyIncrement(t: MTxn, amount: number, status: string): void {
    if (status === 'SUCCESS') t.authorized += amount;
  }

  applyComplete(t: MTxn, amount: number, status: string): void {
    if (status !== 'SUCCESS') return;
    t.amount = amount;
    t.completed = true;
  }

  /**
   * Revert: only the terminal's most recent SUCCESS transaction. When every later SUCCESS has since
   * been reverted, sandbox.md can be read two ways (the most recent transaction that reached
   * SUCCESS, or the most recent one whose status is SUCCESS now), so both answers are accepted.
   */
  predictRevert(t: MTxn): Prediction {
    if (t.status !== 'SUCCESS') return P([400], `${t.label} is ${t.status}, not SUCCESS`, 'sandbox#revert-and-refund');
    const later = this.txns.filter((o) => o.successSeq !== undefined && o.successSeq > t.successSeq!);
    if (later.length === 0) return P([200], `${t.label} is the terminal's most recent SUCCESS`, 'sandbox#revert-and-refund');
    if (later.every((o) => o.status === 'REVERTED'))
      return P(
        [200, 400],
        `${t.label} is the most recent transaction still in SUCCESS, but ${later.map((o) => o.label).join(', ')} reached SUCCESS later (reverted since): sandbox.md allows both readings`,
        'sandbox#revert-and-refund',
      );
    return P([400], `${later.at(-1)!.label} is the terminal's most recent SUCCESS, not ${t.label}`, 'sandbox#revert-and-refund');
  }

  /** A successful revert operation: REVERTED. */
  applyRevert(t: MTxn, status: string): void {
    if (status === 'SUCCESS') t.status = 'REVERTED';
  }

  /**
   * Linked refund: only for a SUCCESS transaction, amount at most what is left unrefunded (400),
   * and a new transaction, so 409 while busy. What is left is `amount - refund total` or, counting
   * the tip, `amount + tip - refund total`: amounts between the two are accepted either way.
   * When more than one refusal applies, any of them is accepted.
   */
  predictLinkedRefund(t: MTxn, amount: number): Prediction {
    const refusals: number[] = [];
    const why: string[] = [];
    const lo = t.amount - t.refundTotal;
    const hi = t.amount + t.tip - t.refundTotal;
    let maybe = false;
    if (t.status !== 'SUCCESS') {
      refusals.push(400);
      why.push(`${t.label} is ${t.status === 'PENDING' ? 'not final' : t.status}, not SUCCESS`);
    } else if (amount > hi) {
      refusals.push(400);
      why.push(`amount ${amount} is above what is left unrefunded of ${t.label} (${hi})`);
    } else if (amount > lo) {
      maybe = true;
      why.push(`amount ${amount} is above ${t.label}'s amount left (${lo}) but within amount + tip left (${hi})`);
    }
    if (this.pending) {
      refusals.push(409);
      why.push(`${this.pending.label} is still pending: one transaction at a time`);
    }
    if (refusals.length === 0)
      return P(
        maybe ? [200, 400] : [200],
        why.length ? why.join('; ') : `${t.label} is SUCCESS and ${amount} <= ${lo} left`,
        'sandbox#revert-and-refund',
      );
    return P(maybe ? [...refusals, 400] : refusals, why.join('; '), 'sandbox#revert-and-refund');
  }

  /** Amount bounds of what is left to refund: [without tip, with tip]. */
  static refundable(t: MTxn): [number, number] {
    return [t.amount - t.refundTotal, t.amount + t.tip - t.refundTotal];
  }
}
