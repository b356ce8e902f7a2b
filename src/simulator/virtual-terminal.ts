/**
 * The virtual terminal: one per pairing, a timer-driven state machine for its transactions and
 * operations that follows the outcome table of sandbox.md. It knows nothing about HTTP; it reports
 * every status change (creation included) through `hooks`, and the webhook layer listens there.
 */
import type { FaultSet } from './faults.ts';
import type { Card, Merchant, Op, OpType, Txn, TxnKind, TxnStatus } from './model.ts';
import { finishStatus, isFinal, row } from './model.ts';
import type { Rng } from './rng.ts';

/** Timing and retention settings of a terminal. */
export interface TerminalSettings {
  readonly stepDelayMs: number;
  readonly deadlineMs: number;
  /** Final transactions (and, separately, final operations) kept per terminal; older ones are evicted. */
  readonly maxFinalPerTerminal: number;
}

/** Listeners of status changes. */
export interface TerminalHooks {
  onTransaction(t: Txn, terminal: VirtualTerminal): void;
  onOperation(o: Op, terminal: VirtualTerminal): void;
}

/** What a terminal needs from the simulator around it. */
export interface TerminalEnv {
  readonly settings: TerminalSettings;
  readonly faults: FaultSet;
  readonly rng: Rng;
  readonly hooks: TerminalHooks;
  readonly now: () => number;
}

/** The one terminal_id every new terminal gets under `pair.shared-terminal-id`. */
const SHARED_TERMINAL_ID = '80000000';

/** A virtual payment terminal with its merchant, transactions and operations. */
export class VirtualTerminal {
  readonly id: string;
  readonly cardTid: string;
  private readonly txns = new Map<string, Txn>();
  private readonly ops = new Map<string, Op>();
  /** Records holding a live timer, so dispose() can clear every one. */
  private readonly timed = new Set<Txn | Op>();
  private pending = 0;
  private finalTxns = 0;
  private finalOps = 0;
  private lastSuccess: string | null = null;
  private disposed = false;

  constructor(private readonly env: TerminalEnv, readonly merchant: Merchant) {
    const id = `8${env.rng.digits(7)}`; // drawn either way, so the fault leaves the seed's sequence alone
    this.id = env.faults.has('pair.shared-terminal-id') ? SHARED_TERMINAL_ID : id;
    this.cardTid = `T${env.rng.digits(7)}`;
  }

  /** True while a transaction of this terminal is INITIATED or IN_PROGRESS. */
  get busy(): boolean {
    return this.pending > 0;
  }

  transaction(id: string): Txn | undefined {
    return this.txns.get(id);
  }

  operation(id: string): Op | undefined {
    return this.ops.get(id);
  }

  /** True when `t` is the terminal's most recent SUCCESS transaction (the only revertable one). */
  isLastSuccess(t: Txn): boolean {
    return t.status === 'SUCCESS' && this.lastSuccess === t.id;
  }

  /** Starts a transaction; the caller has validated the request and checked `busy`. */
  start(kind: TxnKind, amount: number, clientTxnId: string | null, method: string | null, parentId: string | null = null): Txn {
    const t: Txn = {
      id: this.env.rng.uuid(), kind, clientTxnId, parentId, status: 'INITIATED', amount, tip: 0, method,
      createdAt: this.env.now(), completedAt: 0, canceledAt: 0, revertedAt: 0, refundTotal: 0, card: null,
      authorized: amount, completed: false, cancelRequested: false, step: null, deadline: null,
    };
    this.txns.set(t.id, t);
    this.pending++;
    this.emitTxn(t);
    const { stepDelayMs, deadlineMs } = this.env.settings;
    if (this.env.faults.has('transaction.never-converges')) {
      this.schedule(t, stepDelayMs, () => this.pickUp(t));
      return t;
    }
    t.deadline = setTimeout(() => this.finalize(t, 'EXPIRED'), deadlineMs);
    this.timed.add(t);
    // 55: the terminal is offline, the transaction stays INITIATED until canceled or expired
    // (under `terminal.offline-picks-up` it is picked up at once and waits like a 54).
    if (row(amount) !== 55) this.schedule(t, stepDelayMs, () => this.pickUp(t));
    else if (this.env.faults.has('terminal.offline-picks-up')) this.pickUp(t);
    return t;
  }

  /** Cancel request: `final` when already final (the API answers 400), else `accepted`. */
  cancel(t: Txn): 'accepted' | 'final' {
    if (isFinal(t.status)) return 'final';
    if (t.cancelRequested) return 'accepted';
    t.cancelRequested = true;
    const r = row(t.amount);
    // 56 refuses cancellation and completes anyway; a never-converging terminal ignores everything.
    if (r === 56 || this.env.faults.has('transaction.never-converges')) return 'accepted';
    if (t.status === 'INITIATED') {
      this.finalize(t, 'CANCELED');
      return 'accepted';
    }
    // IN_PROGRESS: a cancel signal. The legal race: an approving payment may still complete.
    const approving = finishStatus(t.amount) === 'SUCCESS' && r !== 54;
    if (approving && this.env.faults.has('cancel.race-success')) return 'accepted';
    const end = approving && this.env.faults.has('cancel.in-progress-fails') ? 'FAILED' : 'CANCELED';
    this.schedule(t, this.env.settings.stepDelayMs, () => this.finalize(t, end));
    return 'accepted';
  }

  /** Starts an operation; the caller has checked that it is allowed now. */
  startOperation(type: OpType, t: Txn, amount: number | null): Op {
    const op: Op = { id: this.env.rng.uuid(), type, txnId: t.id, amount, status: 'INITIATED', step: null };
    this.ops.set(op.id, op);
    this.emitOp(op);
    const d = this.env.settings.stepDelayMs;
    this.schedule(op, d, () => {
      op.status = 'IN_PROGRESS';
      this.emitOp(op);
      this.schedule(op, d, () => this.resolve(op));
    });
    return op;
  }

  /** Sizes, for tests and benchmarks: stored records, pending transactions, live timers. */
  stats(): { transactions: number; operations: number; pending: number; timed: number } {
    return { transactions: this.txns.size, operations: this.ops.size, pending: this.pending, timed: this.timed.size };
  }

  /** Clears every timer; the terminal emits nothing afterwards. */
  dispose(): void {
    this.disposed = true;
    for (const r of this.timed) this.clearTimers(r);
    this.timed.clear();
  }

  private pickUp(t: Txn): void {
    t.status = 'IN_PROGRESS';
    t.method ??= 'CARD'; // the virtual customer picks CARD on the terminal's picker
    this.emitTxn(t);
    if (this.env.faults.has('transaction.never-converges')) return this.clearTimers(t);
    // 54 waits for a card until canceled or expired (and so does a 55 picked up by a fault).
    if (row(t.amount) !== 54 && row(t.amount) !== 55) this.schedule(t, this.env.settings.stepDelayMs, () => this.finalize(t, finishStatus(t.amount)));
  }

  private finalize(t: Txn, status: TxnStatus): void {
    if (isFinal(t.status)) return;
    this.clearTimers(t);
    const now = this.env.now();
    t.status = status;
    t.method ??= 'CARD'; // the print slip requires a method: a never-picked one is the terminal's default
    if (status === 'CANCELED') t.canceledAt = now;
    else if (status !== 'EXPIRED') t.completedAt = now;
    if (status === 'SUCCESS') this.approve(t);
    this.pending--;
    this.emitTxn(t);
    this.finalTxns++;
    this.evict();
    if (status === 'SUCCESS' && this.env.faults.has('transition.final-changes')) {
      this.schedule(t, this.env.settings.stepDelayMs, () => {
        this.clearTimers(t);
        t.status = 'FAILED';
        this.emitTxn(t);
      });
    }
  }

  private approve(t: Txn): void {
    const { rng, faults } = this.env;
    if (row(t.amount) === 57 && !faults.has('tip.ignored')) t.tip = 100;
    if (t.method === 'CARD') t.card = makeCard(rng);
    this.lastSuccess = t.id;
    if (t.parentId !== null) {
      const parent = this.txns.get(t.parentId);
      if (parent && !faults.has('refund.total-unchanged')) parent.refundTotal += t.amount;
    }
  }

  private resolve(op: Op): void {
    this.clearTimers(op);
    const r = op.amount === null ? 0 : row(op.amount);
    op.status = r === 51 ? 'FAILED' : r === 53 ? 'EXPIRED' : this.apply(op) ? 'SUCCESS' : 'FAILED';
    this.emitOp(op);
    this.finalOps++;
    this.evict();
  }

  /** The effect of a successful operation on its transaction; false when the rules make it fail. */
  private apply(op: Op): boolean {
    const t = this.txns.get(op.txnId);
    if (!t || t.status !== 'SUCCESS') return false;
    // Only reachable under `preauth.ops-on-any-transaction`: the operation fails, the charge is untouched.
    if (op.type !== 'transaction.revert' && t.kind !== 'preauth') return false;
    const amount = op.amount ?? 0;
    switch (op.type) {
      case 'transaction.revert':
        if (!this.isLastSuccess(t)) return false;
        t.status = 'REVERTED';
        if (!this.env.faults.has('revert.no-reverted-at')) t.revertedAt = this.env.now();
        this.emitTxn(t);
        return true;
      case 'transaction.preauth.increment':
        if (t.completed && !this.env.faults.has('preauth.increment-after-complete-succeeds')) return false;
        t.authorized += amount;
        return true;
      case 'transaction.preauth.complete':
        if (t.completed || amount > t.authorized) return false;
        if (!this.env.faults.has('preauth.complete-keeps-amount')) t.amount = amount;
        t.completed = true;
        return true;
    }
  }

  /** Keeps at most `maxFinalPerTerminal` final records of each kind, dropping the oldest. */
  private evict(): void {
    const max = this.env.settings.maxFinalPerTerminal;
    if (this.finalTxns > max) {
      for (const [id, t] of this.txns) {
        if (this.finalTxns <= max) break;
        if (isFinal(t.status) && t.step === null) {
          this.txns.delete(id);
          this.finalTxns--;
        }
      }
    }
    if (this.finalOps > max) {
      for (const [id, o] of this.ops) {
        if (this.finalOps <= max) break;
        if (isFinal(o.status)) {
          this.ops.delete(id);
          this.finalOps--;
        }
      }
    }
  }

  private schedule(r: Txn | Op, ms: number, fn: () => void): void {
    if (this.disposed) return;
    if (r.step) clearTimeout(r.step);
    r.step = setTimeout(() => {
      r.step = null;
      fn();
    }, ms);
    this.timed.add(r);
  }

  private clearTimers(r: Txn | Op): void {
    if (r.step) clearTimeout(r.step);
    r.step = null;
    if ('deadline' in r && r.deadline) {
      clearTimeout(r.deadline);
      r.deadline = null;
    }
    this.timed.delete(r);
  }

  // Listeners run inside timer callbacks: a throw there would take the whole process down.
  private emitTxn(t: Txn): void {
    if (this.disposed) return;
    try {
      this.env.hooks.onTransaction(t, this);
    } catch {
      // a failing listener must not stop the terminal
    }
  }

  private emitOp(o: Op): void {
    if (this.disposed) return;
    try {
      this.env.hooks.onOperation(o, this);
    } catch {
      // as above
    }
  }
}

function makeCard(rng: Rng): Card {
  return {
    option: rng.pick(['VISA', 'MASTERCARD'] as const),
    last4: rng.digits(4),
    approveCode: rng.digits(6),
    type: rng.pick(['CREDIT', 'DEBIT'] as const),
  };
}
