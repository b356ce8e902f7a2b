/**
 * The virtual terminal: one per pairing, a timer-driven state machine for its transactions and
 * operations that follows the outcome table of sandbox.md. It knows nothing about HTTP; it reports
 * every status change (creation included) through `hooks`, and the webhook layer listens there.
 *
 * In manual mode (`settings.terminal === 'manual'`) the amount decides nothing: a transaction is
 * picked up and then waits for an operator action (`act`), or expires at `manualDeadlineMs`.
 * Operations are host-side and proceed on their own in both modes.
 */
import type { FaultSet } from './faults.ts';
import type { Card, Merchant, Op, OpType, PaymentMethodId, Txn, TxnKind, TxnStatus } from './model.ts';
import { finishStatus, isFinal, row } from './model.ts';
import { SIMULATOR_DEFAULTS, type TerminalMode } from './options.ts';
import type { Liberal } from './liberal.ts';
import type { Rng } from './rng.ts';
import { type Skipped, TerminalClock } from './terminal-clock.ts';

/** Timing, retention and mode settings of a terminal. */
export interface TerminalSettings {
  readonly stepDelayMs: number;
  readonly deadlineMs: number;
  /** Final transactions (and, separately, final operations) kept per terminal; older ones are evicted. */
  readonly maxFinalPerTerminal: number;
  /** @default 'auto' */
  readonly terminal?: TerminalMode;
  /** The deadline of a transaction in manual mode. @default 120000 */
  readonly manualDeadlineMs?: number;
}

/** Listeners of status changes. */
export interface TerminalHooks {
  onTransaction(t: Txn, terminal: VirtualTerminal): void;
  onOperation(o: Op, terminal: VirtualTerminal): void;
  /** Manual mode: `t` (just created) waits for an operator action. */
  onWaiting?(t: Txn, terminal: VirtualTerminal): void;
}

/** The operator actions of a manual terminal. */
export const TERMINAL_ACTIONS = ['present-card', 'decline', 'fail', 'remove-card', 'timeout', 'add-tip'] as const;
/** One operator action of a manual terminal. */
export type TerminalAction = (typeof TERMINAL_ACTIONS)[number];

/** The tip `add-tip` sets when no amount is given, minor units. */
export const DEFAULT_MANUAL_TIP = 100;

/** The final status each finishing action leads to (after one step; `timeout` at once). */
const ACTION_END: Readonly<Record<Exclude<TerminalAction, 'add-tip'>, TxnStatus>> = {
  'present-card': 'SUCCESS',
  decline: 'DECLINED',
  fail: 'FAILED',
  'remove-card': 'FAILED',
  timeout: 'EXPIRED',
};

/** What a manual terminal keeps about a pending transaction. */
interface ManualState {
  /** The pending tip (`add-tip`), applied on SUCCESS. */
  tip: number;
  /** The status a finishing action leads to; null while the transaction still waits. */
  end: TxnStatus | null;
  /** An effective cancel is under way: the transaction no longer waits for an action. */
  canceling: boolean;
}

/** The result of `act`: the transaction acted on, or why nothing was done. */
export type ActOutcome =
  { readonly kind: 'ok'; readonly t: Txn } | { readonly kind: 'nothing-waits' } | { readonly kind: 'no-tip-on-refund'; readonly t: Txn };

/** What a terminal needs from the simulator around it. */
export interface TerminalEnv {
  readonly settings: TerminalSettings;
  readonly faults: FaultSet;
  readonly rng: Rng;
  readonly hooks: TerminalHooks;
  readonly now: () => number;
  /** The liberal sandbox's liberties (ids, timestamps, step delays, the cancel race), or null/absent: the default. */
  readonly liberal?: Liberal | null;
}

/** ISO 8601 UTC with second precision (`2026-11-22T05:31:56Z`): the default simulator's timestamps. */
function utcSeconds(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
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
  /** Manual mode: pending transactions, oldest first, with what the operator did to them. */
  private readonly manual = new Map<Txn, ManualState>();
  /** This terminal's time and timers: real time unless skipped ahead (`skipAhead`). */
  private readonly clock: TerminalClock;

  constructor(
    private readonly env: TerminalEnv,
    readonly merchant: Merchant,
  ) {
    this.clock = new TerminalClock(env.now);
    const id = `8${env.rng.digits(7)}`; // drawn either way, so the fault leaves the seed's sequence alone
    this.id = env.faults.has('pair.shared-terminal-id') ? SHARED_TERMINAL_ID : env.liberal ? env.liberal.id('terminal') : id;
    this.cardTid = `T${env.rng.digits(7)}`;
  }

  /** A timestamp as this terminal's records write it (clock.local-time in the liberal sandbox). */
  stamp(ms: number): string {
    return this.env.liberal ? this.env.liberal.stamp(ms) : utcSeconds(ms);
  }

  /** How this terminal decides transactions. */
  get mode(): TerminalMode {
    return this.env.settings.terminal ?? 'auto';
  }

  /**
   * Manual mode: the oldest transaction that waits for an operator action (INITIATED or IN_PROGRESS,
   * given no finishing action, no cancel under way); null when none (always null in auto mode).
   */
  waiting(): Txn | null {
    for (const [t, st] of this.manual) if (st.end === null && !st.canceling && !isFinal(t.status)) return t;
    return null;
  }

  /** The pending tip of a manual transaction (0 when none or not manual). */
  pendingTip(t: Txn): number {
    return this.manual.get(t)?.tip ?? 0;
  }

  /**
   * Manual mode: an operator action on the transaction that waits. `present-card`, `decline`, `fail`
   * and `remove-card` finish it after one step (an INITIATED one is picked up at once first);
   * `timeout` expires it at once; `add-tip` sets the pending tip and keeps it waiting. Under
   * `transaction.never-converges` the action is accepted and ignored.
   */
  act(action: TerminalAction, tip = DEFAULT_MANUAL_TIP): ActOutcome {
    const t = this.waiting();
    if (!t) return { kind: 'nothing-waits' };
    const st = this.manual.get(t) as ManualState;
    if (action === 'add-tip' && t.kind === 'refund') return { kind: 'no-tip-on-refund', t };
    if (this.env.faults.has('transaction.never-converges')) return { kind: 'ok', t };
    if (action === 'add-tip') {
      st.tip = tip;
      return { kind: 'ok', t };
    }
    const end = ACTION_END[action];
    if (action === 'timeout') {
      this.finalize(t, end); // the terminal gives up
      return { kind: 'ok', t };
    }
    st.end = end;
    if (t.deadline) {
      this.clock.clear(t.deadline); // decided: the deadline no longer applies
      t.deadline = null;
    }
    if (t.status === 'INITIATED') this.enterInProgress(t);
    this.schedule(t, this.env.settings.stepDelayMs, () => this.finalize(t, end));
    return { kind: 'ok', t };
  }

  /**
   * The liberal sandbox's idempotency: the most recent transaction this terminal started for the same
   * request (kind, amount, client_transaction_id, payment method as sent), or null. A linked refund
   * (with a parent) never matches.
   */
  sameRequest(kind: TxnKind, amount: number, clientTxnId: string, method: PaymentMethodId | null): Txn | null {
    let found: Txn | null = null;
    for (const t of this.txns.values()) {
      if (t.parentId === null && t.kind === kind && t.amount === amount && t.clientTxnId === clientTxnId && t.sentMethod === method)
        found = t;
    }
    return found;
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
  start(kind: TxnKind, amount: number, clientTxnId: string | null, method: PaymentMethodId | null, parentId: string | null = null): Txn {
    const t: Txn = {
      id: this.env.liberal ? this.env.liberal.id('transaction') : this.env.rng.uuid(),
      kind,
      clientTxnId,
      parentId,
      status: 'INITIATED',
      amount,
      tip: 0,
      method,
      createdAt: this.clock.now(),
      completedAt: 0,
      canceledAt: 0,
      revertedAt: 0,
      refundTotal: 0,
      card: null,
      authorized: amount,
      completed: false,
      cancelRequested: false,
      step: null,
      deadline: null,
      sentMethod: method,
    };
    this.txns.set(t.id, t);
    this.pending++;
    const manual = this.mode === 'manual';
    if (manual) this.manual.set(t, { tip: 0, end: null, canceling: false });
    this.emitTxn(t);
    if (manual) this.emitWaiting(t);
    const { stepDelayMs, deadlineMs } = this.env.settings;
    if (this.env.faults.has('transaction.never-converges')) {
      this.schedule(t, stepDelayMs, () => this.pickUp(t));
      return t;
    }
    const deadline = manual ? (this.env.settings.manualDeadlineMs ?? SIMULATOR_DEFAULTS.manualDeadlineMs) : deadlineMs;
    t.deadline = this.clock.set(() => this.finalize(t, 'EXPIRED'), deadline);
    this.timed.add(t);
    // Manual: picked up after one step, then it waits for the operator (no outcome row applies).
    if (manual) {
      this.schedule(t, stepDelayMs, () => this.pickUp(t));
      return t;
    }
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
    const st = this.manual.get(t);
    if (st) return this.cancelManual(t, st);
    const r = row(t.amount);
    // 56 refuses cancellation and completes anyway; a never-converging terminal ignores everything.
    if (r === 56 || this.env.faults.has('transaction.never-converges')) return 'accepted';
    if (t.status === 'INITIATED') {
      this.finalize(t, 'CANCELED');
      return 'accepted';
    }
    // IN_PROGRESS: a cancel signal. The legal race: an approving payment may still complete.
    const approving = finishStatus(t.amount) === 'SUCCESS' && r !== 54;
    if (approving && (this.env.faults.has('cancel.race-success') || this.env.liberal?.cancelRacesToSuccess())) return 'accepted';
    const end = approving && this.env.faults.has('cancel.in-progress-fails') ? 'FAILED' : 'CANCELED';
    this.schedule(t, this.env.settings.stepDelayMs, () => this.finalize(t, end));
    return 'accepted';
  }

  /** Cancel in manual mode: no row refuses it; a finishing action that came first wins. */
  private cancelManual(t: Txn, st: ManualState): 'accepted' {
    if (this.env.faults.has('transaction.never-converges')) return 'accepted';
    if (t.status === 'INITIATED') {
      this.finalize(t, 'CANCELED');
      return 'accepted';
    }
    if (st.end !== null) {
      // Too late: the operator's action decides. A card already presented may still be bent by the fault.
      if (st.end === 'SUCCESS' && this.env.faults.has('cancel.in-progress-fails')) {
        this.schedule(t, this.env.settings.stepDelayMs, () => this.finalize(t, 'FAILED'));
      }
      return 'accepted';
    }
    st.canceling = true;
    this.schedule(t, this.env.settings.stepDelayMs, () => this.finalize(t, 'CANCELED'));
    return 'accepted';
  }

  /** Starts an operation; the caller has checked that it is allowed now. */
  startOperation(type: OpType, t: Txn, amount: number | null): Op {
    const op: Op = {
      id: this.env.liberal ? this.env.liberal.id('operation') : this.env.rng.uuid(),
      type,
      txnId: t.id,
      amount,
      status: 'INITIATED',
      step: null,
    };
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

  /**
   * Skips this terminal's clock ahead (the control surface's `POST /_sim/clock`): its pending steps and
   * deadlines happen now, in the order and with the outcomes they would have had in real time, until
   * the transaction or operation `id` of this terminal is final, or `maxMs` later; once it is final,
   * `thenMs` more (what a watcher of the final status would have waited to see). What is still
   * scheduled after that runs on in real time. Its records' timestamps move with its clock.
   */
  skipAhead(id: string, maxMs: number, thenMs = 0): Skipped & { status: string | null; final: boolean } {
    const record = (): Txn | Op | undefined => this.txns.get(id) ?? this.ops.get(id);
    const final = () => isFinal(record()?.status ?? 'SUCCESS');
    let s: Skipped = { skippedMs: 0, fired: 0 };
    if (!this.disposed) {
      s = this.clock.skip(maxMs, final);
      if (final() && thenMs > 0) {
        const then = this.clock.skip(thenMs);
        s = { skippedMs: s.skippedMs + then.skippedMs, fired: s.fired + then.fired };
      }
    }
    return { ...s, status: record()?.status ?? null, final: final() };
  }

  /** Clears every timer; the terminal emits nothing afterwards. */
  dispose(): void {
    this.disposed = true;
    for (const r of this.timed) this.clearTimers(r);
    this.clock.clearAll();
    this.timed.clear();
    this.manual.clear();
  }

  private enterInProgress(t: Txn): void {
    t.status = 'IN_PROGRESS';
    // The virtual customer picks CARD on the terminal's picker; in the liberal sandbox only as the payment ends (payment.method-chosen-late).
    if (!this.env.liberal) t.method ??= 'CARD';
    this.emitTxn(t);
  }

  private pickUp(t: Txn): void {
    this.enterInProgress(t);
    if (this.env.faults.has('transaction.never-converges')) return this.clearTimers(t);
    if (this.manual.has(t)) return; // waits for the operator, or its deadline
    // 54 waits for a card until canceled or expired (and so does a 55 picked up by a fault).
    if (row(t.amount) !== 54 && row(t.amount) !== 55)
      this.schedule(t, this.env.settings.stepDelayMs, () => this.finalize(t, finishStatus(t.amount)));
  }

  private finalize(t: Txn, status: TxnStatus): void {
    if (isFinal(t.status)) return;
    this.clearTimers(t);
    const now = this.clock.now();
    t.status = status;
    t.method ??= 'CARD'; // the print slip requires a method: a never-picked one is the terminal's default
    if (status === 'CANCELED') t.canceledAt = now;
    else if (status !== 'EXPIRED') t.completedAt = now;
    const manual = this.manual.get(t);
    this.manual.delete(t);
    if (status === 'SUCCESS') this.approve(t, manual);
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

  private approve(t: Txn, manual: ManualState | undefined): void {
    const { rng, faults } = this.env;
    const tip = manual ? manual.tip : row(t.amount) === 57 ? 100 : 0;
    if (tip > 0 && !faults.has('tip.ignored')) t.tip = tip;
    if (t.method === 'CARD') t.card = makeCard(rng);
    this.lastSuccess = t.id;
    if (t.parentId !== null) {
      const parent = this.txns.get(t.parentId);
      if (parent && !faults.has('refund.total-unchanged')) parent.refundTotal += t.amount;
    }
  }

  private resolve(op: Op): void {
    this.clearTimers(op);
    // Manual mode: operations are host-side, no outcome row applies; only the rules of apply().
    const r = op.amount === null || this.mode === 'manual' ? 0 : row(op.amount);
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
        if (!this.env.faults.has('revert.no-reverted-at')) t.revertedAt = this.clock.now();
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
    this.clock.clear(r.step);
    r.step = this.clock.set(
      () => {
        r.step = null;
        fn();
      },
      this.env.liberal ? this.env.liberal.stepMs(ms) : ms,
    );
    this.timed.add(r);
  }

  private clearTimers(r: Txn | Op): void {
    this.clock.clear(r.step);
    r.step = null;
    if ('deadline' in r && r.deadline) {
      this.clock.clear(r.deadline);
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

  private emitWaiting(t: Txn): void {
    if (this.disposed) return;
    try {
      this.env.hooks.onWaiting?.(t, this);
    } catch {
      // as above
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
