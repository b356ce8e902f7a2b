/**
 * Registered checks of the flow suites (payment, cancel, preauth, print-slip, refund). Every exported
 * value with an `id` and a `run` is registered. Probes take the probe's exchange; the others take a
 * small observation the scenario assembles. None re-checks what the automatic checks already judge
 * (schema, enums, invariants); none makes a spec requirement of what the spec leaves "not shown".
 */
import type { Exchange, RuleSource } from '../core/index.ts';
import { defineCheck, fail, pass, skip } from './check.ts';
import { answered as answeredWithDetail } from './guards.ts';

type Rec = Record<string, unknown>;

/** How an answer is described here: with the problem's `detail`. */
const answered = (ex: Exchange) => answeredWithDetail(ex, true);

/**
 * A refusal probe whose rule has two layers: the profile (or spec) says the request must not succeed,
 * the sandbox adds the exact status 400. A 2xx breaks the first layer, any other refusal only the second.
 */
function layeredRefusal<const Id extends string>(id: Id, rule: { clause: string; source: RuleSource }, title: string, what: string) {
  return defineCheck<Exchange, Id>({
    id,
    clause: 'sandbox#revert-and-refund',
    source: 'sandbox',
    title,
    run(ex) {
      const s = ex.response?.status;
      if (s === undefined) return skip(`no response (${ex.error?.code ?? 'unknown error'})`);
      if (s === 400) return pass();
      if (s >= 200 && s < 300)
        return fail({
          source: rule.source,
          clause: rule.clause,
          message: `${what}: ${answered(ex)}; it must be refused (400)`,
          evidence: { status: s },
        });
      return fail({ message: `${what}: ${answered(ex)}; expected 400`, evidence: { status: s } });
    },
  });
}

// ---------------------------------------------------------------- payment

/** Code points of a string, for evidence that shows what changed in an echo. */
function codePoints(s: unknown): string[] | undefined {
  return typeof s === 'string' ? [...s].map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`) : undefined;
}

/** `client_transaction_id` comes back exactly as sent (sandbox: "optional and echoed back"). */
export const clientTransactionIdEchoed = defineCheck<{ sent: string; record?: Rec }, 'sandbox.client-transaction-id'>({
  id: 'sandbox.client-transaction-id',
  clause: 'sandbox#transactions',
  source: 'sandbox',
  title: 'client_transaction_id is echoed intact in the transaction status record',
  run({ sent, record }) {
    if (!record) return skip('no status record was read');
    const got = record.client_transaction_id;
    if (got === sent) return pass();
    const cps = (s: unknown) => ((codePoints(s)?.length ?? 99) <= 16 ? ` (${codePoints(s)!.join(' ')})` : '');
    const how =
      typeof got === 'string' && got.normalize('NFC') === sent.normalize('NFC')
        ? ': normalised to another Unicode form'
        : typeof got === 'string' && got === sent.trim()
          ? ': trimmed'
          : '';
    const gotText = got === undefined ? 'nothing' : `${JSON.stringify(got)}${cps(got)}`;
    return fail({
      message: `client_transaction_id ${JSON.stringify(sent)}${cps(sent)} came back as ${gotText}${how}`,
      evidence: { sent, got, sentCodePoints: codePoints(sent), gotCodePoints: codePoints(got) },
    });
  },
});

/**
 * The record's `payment_method` is the method sent with generate, or, when none was sent, the one the
 * sandbox's virtual customer picks: CARD (sandbox#configuration).
 */
export const paymentMethodRecorded = defineCheck<{ sent?: string; expectedPick?: string; record?: Rec }, 'sandbox.payment-method'>({
  id: 'sandbox.payment-method',
  clause: 'sandbox#configuration',
  source: 'sandbox',
  title: 'payment_method is the one sent, or CARD when the virtual customer picks',
  run({ sent, expectedPick, record }) {
    if (!record) return skip('no status record was read');
    const want = sent ?? expectedPick;
    if (want === undefined) return skip('no method sent and no pick expected in this terminal mode');
    const got = record.payment_method;
    if (got === want) return pass();
    const how =
      sent !== undefined
        ? `payment_method ${JSON.stringify(sent)} was sent`
        : `no payment_method was sent, so the virtual customer picks ${want}`;
    return fail({
      message: `status record of ${String(record.transaction_id)} (${String(record.status)}) has payment_method ${JSON.stringify(got)}; ${how}`,
      evidence: { sent, expectedPick, got },
    });
  },
});

// ---------------------------------------------------------------- cancel

/** A refused cancel of a final transaction changes nothing (sandbox#transactions). */
export const cancelFinalUnchanged = defineCheck<{ before: Rec; after?: Rec; cancelStatus: number }, 'sandbox.cancel-final-unchanged'>({
  id: 'sandbox.cancel-final-unchanged',
  clause: 'sandbox#transactions',
  source: 'sandbox',
  title: 'Cancel of a final transaction changes nothing',
  run({ before, after, cancelStatus }) {
    if (!after) return skip('the status was not read after the cancel');
    const changed = ['status', 'canceled_at', 'completed_at', 'amount', 'tip_amount'].filter(
      (k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]),
    );
    if (changed.length === 0) return pass();
    return fail({
      message:
        `cancel of final transaction ${String(before.transaction_id)} (answered ${cancelStatus}) changed ` +
        `${changed.map((k) => `${k} ${JSON.stringify(before[k])} -> ${JSON.stringify(after[k])}`).join(', ')}`,
      evidence: { before, after },
    });
  },
});

/** A normal transaction canceled while IN_PROGRESS ends CANCELED or SUCCESS: the legal race (sandbox#transactions). */
export const cancelRaceOutcome = defineCheck<{ amount: number; actual?: string }, 'sandbox.cancel-race'>({
  id: 'sandbox.cancel-race',
  clause: 'sandbox#transactions',
  source: 'sandbox',
  title: 'A normal transaction canceled while IN_PROGRESS ends CANCELED or SUCCESS',
  run({ amount, actual }) {
    if (actual === undefined) return skip('no final status observed');
    if (actual === 'CANCELED' || actual === 'SUCCESS') return pass();
    return fail({
      message: `amount ${amount} canceled while IN_PROGRESS ended ${actual}; the sandbox allows only CANCELED or SUCCESS`,
      evidence: { amount, actual },
    });
  },
});

// ---------------------------------------------------------------- print slip

/**
 * The print slip of a final transaction answers 200. For SUCCESS this is the spec's own rule (a print
 * slip is retrieved for a completed transaction); for the other final statuses it is the sandbox's.
 */
export const slipOfFinal = defineCheck<{ status: string; exchange: Exchange }, 'print-slip.final-available'>({
  id: 'print-slip.final-available',
  clause: 'sandbox#status-and-print-slip',
  source: 'sandbox',
  title: 'The print slip of a final transaction answers 200',
  run({ status, exchange }) {
    const s = exchange.response?.status;
    if (s === undefined) return skip(`no response (${exchange.error?.code ?? 'unknown error'})`);
    if (s === 200) return pass();
    const spec = status === 'SUCCESS';
    return fail({
      ...(spec ? { source: 'spec' as const, clause: 'spec#states-and-transitions' } : {}),
      message: `print slip of a ${status} transaction: ${answered(exchange)}; expected 200`,
      evidence: { status, httpStatus: s },
    });
  },
});

/**
 * A rule of the spec on whose answer it is: the answer's `field` is the id it is expected to carry (the
 * path's transaction, the paired terminal). Skipped when the answer or the expected id is missing, or the
 * answer lacks the field (the schema check judges that).
 */
function answerNames<const Id extends string>(id: Id, clause: string, title: string, field: string, what: string) {
  return defineCheck<{ expected: unknown; answer?: Rec }, Id>({
    id,
    clause,
    source: 'spec',
    title,
    run({ expected, answer }) {
      if (!answer) return skip(`no ${what} was read`);
      if (typeof expected !== 'string' || expected === '') return skip(`no ${field} to expect`);
      if (!(field in answer)) return skip(`the ${what} has no ${field} (judged by the schema check)`);
      if (answer[field] === expected) return pass();
      return fail({
        message: `the ${what} says ${field} ${JSON.stringify(answer[field])}, expected ${JSON.stringify(expected)}`,
        evidence: { field, expected, got: answer[field] },
      });
    },
  });
}

/**
 * The print slip is the slip of the transaction its path names (spec: GET .../{transaction_id}/print-slip/
 * "Returns print slip details for a completed transaction"): its `transaction_id` is the path's.
 */
export const slipTransactionId = answerNames(
  'print-slip.transaction-id',
  'spec#get-v1pay-connecttransactionstransaction_idprint-slip',
  "The print slip's transaction_id is the transaction_id of its path",
  'transaction_id',
  'print slip',
);

/**
 * The print slip's `terminal_id` is the paired terminal's (spec: the integrator pairs with a terminal,
 * and a transaction it starts "is sent to the terminal"), the `terminal_id` of the pairing result.
 */
export const slipTerminalId = answerNames(
  'print-slip.terminal-id',
  'spec#what-the-service-does',
  "The print slip's terminal_id is the paired terminal's",
  'terminal_id',
  'print slip',
);

/**
 * The print slip describes the same transaction as the status record (sandbox#status-and-print-slip).
 * `exchange`: the slip's, the evidence a finding rests on (a wrong slip total found on it is its root: follow-ups.ts).
 */
export const slipAgreesWithStatus = defineCheck<{ slip: Rec; record?: Rec; exchange?: Exchange }, 'print-slip.agrees-with-status'>({
  id: 'print-slip.agrees-with-status',
  clause: 'sandbox#status-and-print-slip',
  source: 'sandbox',
  title: 'The print slip agrees with the status record (status, amounts, tags)',
  run({ slip, record }) {
    if (!record) return skip('no status record was read');
    // Its transaction_id is judged against the path (print-slip.transaction-id, a rule of the spec).
    const keys = ['status', 'amount', 'tip_amount', 'total_amount', 'tags'].filter((k) => k in record && record[k] !== null);
    const bad = keys.filter((k) => JSON.stringify(slip[k]) !== JSON.stringify(record[k]));
    if (bad.length === 0) return pass();
    const differences = bad.map((k) => `${k} ${JSON.stringify(slip[k])} vs ${JSON.stringify(record[k])}`).join('; ');
    return fail({
      message: `print slip of ${String(record.transaction_id)} disagrees with its status record: ${differences}`,
      evidence: { slip: Object.fromEntries(bad.map((k) => [k, slip[k]])), record: Object.fromEntries(bad.map((k) => [k, record[k]])) },
    });
  },
});

// ---------------------------------------------------------------- preauthorization

/**
 * The outcome of a preauthorization operation (sandbox#preauthorization): by the operation's
 * `amount % 100` (51 FAILED, 53 EXPIRED, else SUCCESS) and the rules on top (complete above the
 * authorized amount fails; after completion every operation fails). `expected` lists the statuses
 * allowed; `why` says which row or rule applies.
 */
export const operationOutcome = defineCheck<
  { type: string; amount?: number; expected: readonly string[]; actual?: string; why: string },
  'sandbox.operation-outcome'
>({
  id: 'sandbox.operation-outcome',
  clause: 'sandbox#preauthorization',
  source: 'sandbox',
  title: 'A preauthorization operation ends as the outcome table and rules say',
  run(o) {
    if (o.actual === undefined) return skip('no final operation status observed');
    if (o.expected.includes(o.actual)) return pass();
    return fail({
      message: `${o.type}${o.amount === undefined ? '' : ` of ${o.amount}`} ended ${o.actual}, expected ${o.expected.join(' or ')} (${o.why})`,
      evidence: o,
    });
  },
});

/** After a successful complete, the transaction's amount is the completed amount (sandbox#preauthorization). */
export const completedAmount = defineCheck<{ completed: number; record?: Rec; slip?: Rec }, 'preauth.completed-amount'>({
  id: 'preauth.completed-amount',
  clause: 'sandbox#preauthorization',
  source: 'sandbox',
  title: "A successful complete sets the transaction's amount to the completed amount",
  run({ completed, record, slip }) {
    const seen = [
      ['status record', record],
      ['print slip', slip],
    ] as const;
    const bad = seen
      .filter(([, r]) => r !== undefined && r.amount !== completed)
      .map(([w, r]) => `${w} amount ${JSON.stringify(r!.amount)}`);
    if (!record && !slip) return skip('neither the status record nor the print slip was read');
    if (bad.length === 0) return pass();
    return fail({
      message: `after completing ${completed}: ${bad.join(', ')}; expected ${completed}`,
      evidence: { completed, record: record?.amount, slip: slip?.amount },
    });
  },
});

/** Increment and complete answer 400 on anything but a successful preauthorization (sandbox#preauthorization). */
export const authorizedOnly = defineCheck<Exchange, 'preauth.authorized-only'>({
  id: 'preauth.authorized-only',
  clause: 'sandbox#preauthorization',
  source: 'sandbox',
  title: 'Increment and complete of a transaction that is not a successful preauthorization answer 400',
  run(ex) {
    const s = ex.response?.status;
    if (s === undefined) return skip(`no response (${ex.error?.code ?? 'unknown error'})`);
    return s === 400
      ? pass()
      : fail({
          message: `${answered(ex)} for a transaction that is not a successful preauthorization; expected 400`,
          evidence: { status: s },
        });
  },
});

// ---------------------------------------------------------------- revert and refund

/** Revert of a SUCCESS transaction that is not the terminal's most recent one is refused (profile), with 400 (sandbox). */
export const revertLatestOnly = layeredRefusal(
  'revert.latest-only',
  { clause: 'profile#rules-of-behaviour', source: 'profile' },
  "Only the terminal's most recent SUCCESS transaction can be reverted",
  'revert of an older SUCCESS transaction',
);

/** A linked refund of a transaction that is not SUCCESS is refused (profile), with 400 (sandbox). */
export const refundSuccessOnly = layeredRefusal(
  'refund.success-only',
  { clause: 'profile#rules-of-behaviour', source: 'profile' },
  'A linked refund needs a SUCCESS transaction',
  'linked refund of a transaction that is not SUCCESS',
);

/** A linked refund of more than the unrefunded remainder answers 400 (sandbox). */
export const refundWithinRemainder = defineCheck<{ remainder: number; exchange: Exchange }, 'refund.within-remainder'>({
  id: 'refund.within-remainder',
  clause: 'sandbox#revert-and-refund',
  source: 'sandbox',
  title: 'A linked refund above the unrefunded remainder answers 400',
  run({ remainder, exchange }) {
    const s = exchange.response?.status;
    if (s === undefined) return skip(`no response (${exchange.error?.code ?? 'unknown error'})`);
    if (s === 400) return pass();
    const amount = (exchange.request.body as { amount?: unknown } | undefined)?.amount;
    return fail({
      message: `linked refund of ${String(amount)} with ${remainder} left unrefunded: ${answered(exchange)}; expected 400`,
      evidence: { remainder, amount, status: s },
    });
  },
});

/** A successful revert turns the transaction REVERTED and sets reverted_at (sandbox#revert-and-refund). */
export const revertedRecord = defineCheck<{ record?: Rec; slip?: Rec }, 'revert.reverted'>({
  id: 'revert.reverted',
  clause: 'sandbox#revert-and-refund',
  source: 'sandbox',
  title: 'A successful revert makes the transaction REVERTED with reverted_at',
  run({ record, slip }) {
    if (!record && !slip) return skip('neither the status record nor the print slip was read');
    const problems: string[] = [];
    for (const [w, r] of [
      ['status record', record],
      ['print slip', slip],
    ] as const) {
      if (!r) continue;
      if (r.status !== 'REVERTED') problems.push(`${w} status ${JSON.stringify(r.status)}`);
      if (typeof r.reverted_at !== 'string' || r.reverted_at === '') problems.push(`${w} reverted_at ${JSON.stringify(r.reverted_at)}`);
    }
    if (problems.length === 0) return pass();
    return fail({
      message: `after a SUCCESS revert of ${String((record ?? slip)!.transaction_id)}: ${problems.join(', ')}; expected REVERTED with reverted_at`,
      evidence: { record, slip },
    });
  },
});

/**
 * A refund transaction is tagged `refund`: a linked refund by the public profile's rules, an
 * independent refund by the sandbox's.
 */
export const refundTagged = defineCheck<{ linked: boolean; where: string; record?: Rec }, 'refund.tagged'>({
  id: 'refund.tagged',
  clause: 'profile#rules-of-behaviour',
  source: 'profile',
  title: 'A refund transaction is tagged refund',
  run({ linked, where, record }) {
    if (!record) return skip(`no ${where} was read`);
    const tags = record.tags;
    if (Array.isArray(tags) && tags.includes('refund')) return pass();
    return fail({
      ...(linked ? {} : { source: 'sandbox' as const, clause: 'sandbox#revert-and-refund' }),
      message: `${linked ? 'linked' : 'independent'} refund ${String(record.transaction_id)}: ${where} tags ${JSON.stringify(tags)} lack "refund"`,
      evidence: { tags },
    });
  },
});

/** On a SUCCESS linked refund, the original's refund_total_amount grows by the refund's amount, else stays (sandbox). */
export const refundTotalGrows = defineCheck<
  { before: unknown; after: unknown; refundAmount: number; refundStatus?: string },
  'refund.total-grows'
>({
  id: 'refund.total-grows',
  clause: 'sandbox#revert-and-refund',
  source: 'sandbox',
  title: "A SUCCESS linked refund grows the original's refund_total_amount by its amount",
  run({ before, after, refundAmount, refundStatus }) {
    if (refundStatus === undefined) return skip('the refund reached no final status');
    const b = before === null || before === undefined ? 0 : before;
    if (typeof b !== 'number' || (after !== null && after !== undefined && typeof after !== 'number'))
      return skip('refund_total_amount is not a number');
    const a = after ?? 0;
    const want = refundStatus === 'SUCCESS' ? b + refundAmount : b;
    if (a === want) return pass();
    return fail({
      message:
        `refund of ${refundAmount} ended ${refundStatus}: the original's refund_total_amount went ${JSON.stringify(before)} ` +
        `-> ${JSON.stringify(after)}, expected ${want}`,
      evidence: { before, after, refundAmount, refundStatus },
    });
  },
});

/**
 * The waiting rows of the outcome table: `amount % 100` 55 stays INITIATED (the terminal is offline)
 * and 54 waits IN_PROGRESS for a card, each until canceled or expired (sandbox#transactions).
 */
export const waitingStatus = defineCheck<
  { amount: number; expected: 'INITIATED' | 'IN_PROGRESS'; actual?: string },
  'sandbox.waiting-status'
>({
  id: 'sandbox.waiting-status',
  clause: 'sandbox#transactions',
  source: 'sandbox',
  title: 'Amounts ending in 55 stay INITIATED, 54 wait IN_PROGRESS, until canceled or expired',
  run({ amount, expected, actual }) {
    if (actual === undefined) return skip('no status read');
    if (actual === expected) return pass();
    // The wait ends at the sandbox's deadline, which is not published (at most 10 s): a transaction
    // read EXPIRED already waited as long as that service lets it.
    if (actual === 'EXPIRED') return skip('the transaction had expired by the time its status was read');
    return fail({
      message: `amount ${amount}: status ${actual} while it should wait ${expected} until canceled or expired`,
      evidence: { amount, expected, actual },
    });
  },
});

/**
 * The operation reference of a preauthorization operation names the transaction of its path (spec:
 * "Run preauthorization operations on a transaction"; the reference is the operation's result).
 */
export const operationReferenceTransaction = answerNames(
  'operation.reference-transaction-id',
  'spec#what-the-service-does',
  "A preauthorization operation's reference names the transaction_id of its path",
  'transaction_id',
  'operation reference',
);

/**
 * The operation reference and the operation record name the operation that was started: its
 * transaction and its `operation_type` (public profile, operation details).
 */
export const operationRecordMatches = defineCheck<
  { transactionId: string; type: string; reference?: Rec; record?: Rec },
  'operation.record-matches'
>({
  id: 'operation.record-matches',
  clause: 'profile#endpoints-the-spec-refers-to-but-does-not-show',
  source: 'profile',
  title: 'The operation reference and record name the transaction and the type of the operation started',
  run({ transactionId, type, reference, record }) {
    if (!reference && !record) return skip('neither the reference nor the record was read');
    const bad: string[] = [];
    if (reference && reference.transaction_id !== transactionId)
      bad.push(`reference transaction_id ${JSON.stringify(reference.transaction_id)}`);
    if (record && record.transaction_id !== transactionId) bad.push(`record transaction_id ${JSON.stringify(record.transaction_id)}`);
    if (record && record.operation_type !== type) bad.push(`record operation_type ${JSON.stringify(record.operation_type)}`);
    if (bad.length === 0) return pass();
    return fail({
      message: `${type} on ${transactionId}: ${bad.join(', ')}; expected transaction ${transactionId} and type ${type}`,
      evidence: { reference, record },
    });
  },
});
