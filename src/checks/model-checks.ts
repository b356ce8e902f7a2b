/**
 * Registered checks of the model-based (stateful) suite: the real answer and the real final state
 * against what a model of sandbox.md predicts. The model is the suite's; these checks only compare,
 * so their findings carry the model's reason and the clause it rests on. Source `sandbox`: the
 * predictions come from sandbox.md.
 */
import { defineCheck, fail, pass, skip } from './check.ts';

/** An answer's status code against the set the model predicts. */
export interface ModelAnswerInput {
  /** The command, as fast-check prints it. */
  command: string;
  /** `METHOD path` of the request. */
  request: string;
  expected: number[];
  /** The status code, or undefined when there was no answer. */
  actual?: number;
  /** Why the model expects it. */
  why: string;
  /** The sandbox.md section of the prediction. */
  clause: string;
  /** What followed, when the model verified a timing-dependent answer (e.g. the status polled after it). */
  note?: string;
  body?: unknown;
}

/** Each answer is a status code the model of the sandbox predicts (200, 400, 404, 409). */
export const modelAnswer = defineCheck<ModelAnswerInput, 'model.answer'>({
  id: 'model.answer',
  clause: 'sandbox#transactions',
  source: 'sandbox',
  title: 'Each answer is the status code the sandbox model predicts',
  run(o) {
    if (o.actual === undefined) return skip('no answer');
    if (o.expected.includes(o.actual) && o.note === undefined) return pass();
    const msg = o.note ?? `expected ${o.expected.join(' or ')} (${o.why})`;
    return fail({
      clause: o.clause,
      message: `${o.command}: ${o.request} answered ${o.actual}; ${msg}`,
      evidence: { expected: o.expected, actual: o.actual, why: o.why, body: o.body },
    });
  },
});

/** A transaction record (status poll or print slip) against the model. */
export interface ModelStateInput {
  command: string;
  /** `T1`... and the transaction id. */
  label: string;
  /** `status record` or `print slip`. */
  what: string;
  /** refundTotal: the accepted values (two while a linked refund of it may be finishing). */
  expected: { status: string[]; amount: number; tipBy: Record<string, number>; refundTotal: number[]; refund: boolean };
  actual?: Record<string, unknown>;
  clause: string;
}

/**
 * The final status and the amounts of a transaction are those the model predicts: status, amount
 * (a completed preauthorization carries the completed amount), tip_amount (100 for a 57 that
 * approved), refund_total_amount (the sum of its successful linked refunds; null reads as 0), the
 * `refund` tag of refund transactions, and reverted_at once REVERTED.
 */
export const modelFinalState = defineCheck<ModelStateInput, 'model.final-state'>({
  id: 'model.final-state',
  clause: 'sandbox#transactions',
  source: 'sandbox',
  title: 'Final status and amounts of a transaction are those the sandbox model predicts',
  run(o) {
    const r = o.actual;
    if (!r) return skip('no record');
    const problems: string[] = [];
    const status = r.status;
    if (typeof status !== 'string' || !o.expected.status.includes(status))
      problems.push(`status ${String(status)}, expected ${o.expected.status.join(' or ')}`);
    if (r.amount !== o.expected.amount) problems.push(`amount ${String(r.amount)}, expected ${o.expected.amount}`);
    const tip = typeof status === 'string' ? o.expected.tipBy[status] : undefined;
    if (tip !== undefined && r.tip_amount !== tip) problems.push(`tip_amount ${String(r.tip_amount)}, expected ${tip}`);
    const refunded = r.refund_total_amount ?? 0;
    if ('refund_total_amount' in r && !o.expected.refundTotal.includes(refunded as number))
      problems.push(`refund_total_amount ${String(r.refund_total_amount)}, expected ${o.expected.refundTotal.join(' or ')}`);
    if (o.expected.refund && Array.isArray(r.tags) && !r.tags.includes('refund'))
      problems.push(`tags ${JSON.stringify(r.tags)} without "refund"`);
    if (status === 'REVERTED' && 'reverted_at' in r && (r.reverted_at === null || r.reverted_at === undefined))
      problems.push('REVERTED without reverted_at');
    if (problems.length === 0) return pass();
    return fail({
      clause: o.clause,
      message: `${o.command}: ${o.what} of ${o.label}: ${problems.join('; ')}`,
      evidence: { expected: o.expected, actual: pick(r) },
    });
  },
});

/** An operation's final status against the model. */
export interface ModelOperationInput {
  command: string;
  /** The transaction label and the operation id. */
  label: string;
  operationType: string;
  transactionId: string;
  expected: string[];
  why: string;
  /** The final status seen by polling (undefined when it never ended). */
  actual?: string;
  record?: Record<string, unknown>;
  clause: string;
}

/**
 * An increment, complete or revert ends as the model predicts (operation outcome by amount % 100,
 * the authorized amount, "once completed, any further increment or complete ends FAILED"), and its
 * record names its type and transaction.
 */
export const modelOperationOutcome = defineCheck<ModelOperationInput, 'model.operation-outcome'>({
  id: 'model.operation-outcome',
  clause: 'sandbox#preauthorization',
  source: 'sandbox',
  title: 'An operation ends as the sandbox model predicts',
  run(o) {
    if (o.actual === undefined) return skip('the operation did not reach a final status');
    const problems: string[] = [];
    if (!o.expected.includes(o.actual)) problems.push(`ended ${o.actual}, expected ${o.expected.join(' or ')} (${o.why})`);
    const rec = o.record ?? {};
    if ('operation_type' in rec && rec.operation_type !== o.operationType)
      problems.push(`operation_type ${String(rec.operation_type)}, expected ${o.operationType}`);
    if ('transaction_id' in rec && rec.transaction_id !== o.transactionId)
      problems.push(`transaction_id ${String(rec.transaction_id)}, expected ${o.transactionId}`);
    if (problems.length === 0) return pass();
    return fail({
      clause: o.clause,
      message: `${o.command}: ${o.operationType} on ${o.label} ${problems.join('; ')}`,
      evidence: { expected: o.expected, actual: o.actual, why: o.why, record: o.record },
    });
  },
});

/** The shrunk counterexample of a failed model run. */
export interface ModelCounterexampleInput {
  /** fast-check's `toString` of the shrunk commands (with its replayPath comment). */
  sequence: string;
  commands: number;
  seed: number;
  /** fast-check's counterexample path. */
  path: string;
  replay: string;
  /** `[check] message` of each finding of the shrunk run. */
  failures: string[];
  /** What each command sent and got, in order. */
  trace: string[];
  numShrinks: number;
}

/**
 * Reports the shortest command sequence that fast-check found to break the model, with the seed,
 * the path and the command that replays it. Fails whenever it is given a counterexample.
 */
export const modelCounterexample = defineCheck<ModelCounterexampleInput, 'model.counterexample'>({
  id: 'model.counterexample',
  clause: 'sandbox#transactions',
  source: 'sandbox',
  title: 'No command sequence breaks the sandbox model (the shrunk counterexample, with its replay)',
  run(o) {
    if (o.failures.length === 0) return pass();
    return fail({
      message: `${o.commands} command(s) break the model: ${o.sequence} | seed ${o.seed} | path ${o.path} | first: ${o.failures[0]} | replay: ${o.replay}`,
      evidence: o,
    });
  },
});

function pick(r: Record<string, unknown>): Record<string, unknown> {
  const keys = ['transaction_id', 'status', 'amount', 'tip_amount', 'total_amount', 'refund_total_amount', 'tags', 'reverted_at'];
  return Object.fromEntries(keys.filter((k) => k in r).map((k) => [k, r[k]]));
}
