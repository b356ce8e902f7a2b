/**
 * The real side of a model run: one fresh pairing (a fresh virtual terminal) per command sequence,
 * a scope that records which checks failed, and the trace of what each command sent and got.
 */
import type { CheckId, CheckInput, Exchange, OperationId, Pairing, PayConnectResponse } from '../../src/index.ts';
import { Scope } from '../../src/suite.ts';
import type { SkipAhead } from '../_setup/steps/clock.ts';
import type { Prediction } from './model.ts';
import { FINAL_STATUSES } from './model.ts';

/** One failed check of a run: enough to run it again on the test's own scope. */
export interface FailedCheck {
  id: string;
  input: unknown;
  extra?: Record<string, unknown>;
  message: string;
}

/**
 * A scope whose checks are remembered instead of reported: fast-check runs (and shrinks) many
 * sequences, and only the shrunk counterexample's findings belong in the report.
 */
export class RecordingScope extends Scope {
  readonly failed: FailedCheck[] = [];

  /** Its findings are re-run on the test's own scope when they matter: they are not reported from here. */
  override get reported(): boolean {
    return false;
  }

  override check<K extends CheckId>(id: K, input: CheckInput<K>, extraEvidence?: Record<string, unknown>): boolean {
    const before = this.findings.length;
    const ok = super.check(id, input, extraEvidence);
    if (!ok) {
      const added = this.findings.slice(before).map((f) => f.message);
      this.failed.push({ id, input, extra: extraEvidence, message: added[0] ?? id });
    }
    return ok;
  }
}

/**
 * The exchanges a test's report keeps whole (src/suite/scenario-evidence.ts): its first 50, its last
 * 10, and every one a finding names. The others are in the transcript already (written when each
 * sequence's pairing is forgotten).
 */
const REPORT_KEEPS_FIRST = 50;
const REPORT_KEEPS_LAST = 10;

/**
 * What a test still needs of an exchange the report will not keep: its place, operation, status and
 * duration (the request count, the service's pace and time, the time box's pace); not its headers and bodies.
 */
function slim(ex: Exchange): Exchange {
  const { seq, operationId, request, response, error, startedAt, durationMs } = ex;
  return {
    seq,
    ...(operationId === undefined ? {} : { operationId }),
    request: { method: request.method, url: request.url, path: request.path, headers: {} },
    ...(response ? { response: { status: response.status, headers: {} } } : {}),
    ...(error ? { error } : {}),
    startedAt,
    durationMs,
  };
}

/**
 * Keeps a model-based part's memory flat in the number of sequences: every sequence's exchanges stay
 * in the test's scope (they are counted and timed), and a thorough run's 50 sequences a part held
 * some 1,900 whole exchanges each, 60 MB of a worker's heap. Once a sequence passed, the exchanges
 * the report will not keep whole (see above: not among the first or the last, named by no finding)
 * are slimmed, up to `to` (where a sequence not judged yet begins). A sequence that failed keeps its
 * own whole: its checks are run again on the test's scope.
 */
export function slimPassedExchanges(scope: Pick<Scope, 'exchanges' | 'findings'>, from: number, to = Infinity): void {
  const all = scope.exchanges;
  const named = new Set(scope.findings.map((f) => (f.evidence as { exchange?: { seq?: number } } | undefined)?.exchange?.seq));
  const end = Math.min(to, all.length - REPORT_KEEPS_LAST);
  for (let i = Math.max(from, REPORT_KEEPS_FIRST); i < end; i++) {
    const ex = all[i]!;
    if (!named.has(ex.seq)) all[i] = slim(ex);
  }
}

/** Thrown when a check of the model failed: fast-check records the run as failing and shrinks. */
export class ModelDeviation extends Error {
  override readonly name = 'ModelDeviation';
}

/** The real system of a model run. */
export class Real {
  readonly trace: string[] = [];
  constructor(
    readonly pairing: Pairing,
    readonly scope: RecordingScope,
    private readonly skipAhead?: SkipAhead,
  ) {}

  /**
   * Before a wait for `id` to be final: the terminal's clock skipped ahead, where the target allows
   * it. Returns the wait's options: no settle window left to wait when the skip went through it.
   */
  async hurry(id: string): Promise<{ settleMs?: number }> {
    if (!this.skipAhead) return {};
    const s = await this.skipAhead(id);
    this.trace.push(`  ${s.line}`);
    return s.settled ? { settleMs: 0 } : {};
  }

  /**
   * The options of a wait for `id` to be final ({@link hurry}), its settle window left running behind
   * the sequence: the next commands go on meanwhile (a request that changes `id`, another wait for it
   * and the unpair wait for the watch first: Scope.converge `background`). What the watch finds, and
   * the final state the command judges once it is over (`onSettled`), fail the sequence then, at the
   * latest at its end ({@link Real.settled}).
   */
  async watch(id: string): Promise<{ settleMs?: number; background: true }> {
    return { ...(await this.hurry(id)), background: true };
  }

  /**
   * Waits for the watches still running behind the sequence, judged: their findings are the sequence's
   * failed checks; what one could not watch to its end is not checked, on the test's own scope.
   */
  async settled(testScope: Pick<Scope, 'notChecked'>): Promise<void> {
    try {
      await this.scope.settled();
    } finally {
      for (const item of this.scope.notChecked) testScope.notChecked.add(item);
    }
  }

  /** Calls an operation; a network error or timeout stops the run (not a model finding). */
  call(op: OperationId, opts: { params?: Record<string, string>; body?: unknown } = {}): Promise<PayConnectResponse> {
    return this.scope.call(this.pairing, op, opts);
  }

  /** Runs a registered check; a failure ends the sequence here. */
  judge<K extends CheckId>(id: K, input: CheckInput<K>): void {
    if (!this.scope.check(id, input)) throw new ModelDeviation(this.scope.failed.at(-1)?.message ?? id);
  }

  /** Checks an answer against the model's prediction (`model.answer`). */
  answer(command: string, res: PayConnectResponse, p: Prediction, note?: string): void {
    const ex = res.exchange;
    this.trace.push(
      `${command}: ${ex.request.method} ${ex.request.path}${bodyText(ex.request.body)} -> ${res.status} (model: ${p.codes.join('|')})`,
    );
    this.judge('model.answer', {
      command,
      request: `${ex.request.method} ${ex.request.path}`,
      expected: p.codes,
      actual: res.status,
      why: p.why,
      clause: p.clause,
      note,
      body: res.body,
    });
  }

  /** The current status record of a transaction (undefined when it cannot be read). */
  async record(id: string): Promise<Record<string, unknown> | undefined> {
    const res = await this.call('getTransactionStatus', { params: { transaction_id: id } });
    return res.status === 200 && typeof res.body === 'object' && res.body !== null ? (res.body as Record<string, unknown>) : undefined;
  }

  note(line: string): void {
    this.trace.push(line);
  }
}

/** True for a final transaction status. */
export const isFinal = (s: unknown): boolean => typeof s === 'string' && FINAL_STATUSES.includes(s);

/** The id field of a 200 answer. */
export function idIn(res: PayConnectResponse, field: 'transaction_id' | 'operation_id'): string | undefined {
  const v = (res.body as Record<string, unknown> | undefined)?.[field];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

function bodyText(body: unknown): string {
  if (body === undefined || body === null) return '';
  const s = typeof body === 'string' ? body : JSON.stringify(body);
  return ` ${s.length > 80 ? `${s.slice(0, 80)}…` : s}`;
}
