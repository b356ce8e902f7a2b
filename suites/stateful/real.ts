/**
 * The real side of a model run: one fresh pairing (a fresh virtual terminal) per command sequence,
 * a scope that records which checks failed, and the trace of what each command sent and got.
 */
import type { CheckId, CheckInput, OperationId, Pairing, PayConnectResponse } from '../../src/index.ts';
import { Scope } from '../../src/suite.ts';
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
  ) {}

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
