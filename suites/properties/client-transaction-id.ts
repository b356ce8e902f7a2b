/**
 * `client_transaction_id` is echoed back (sandbox#transactions): random strings, unicode included
 * (astral planes, combining marks, joiners, right-to-left text, quotes), come back intact in the
 * transaction status record, byte for byte: not trimmed, not normalised, not re-encoded.
 */
import fc from 'fast-check';
import { operations } from '../../src/generated/contract.ts';
import { scenario } from '../../src/suite.ts';
import { bodyEnv, mapAmount, validGate } from './bodies.ts';
import { holds, verdict } from './property.ts';

/** Strings a naive service mangles: decomposed accents, ZWJ emoji, flags, RTL, astral, escapes, spaces. */
const TRICKY = [
  'e\u0301t\u00e9',
  '\u{1F469}\u200D\u{1F469}\u200D\u{1F467}',
  '\u{1F1F8}\u{1F1EE}',
  '\u05E9\u05DC\u05D5\u05DD-42',
  '\u{1D11E}\u{20000}',
  'q"u\\o/te',
  '  padded  ',
  '\u00C5ngstr\u00F6m',
  '\uFEFFbom',
  '<tag>&amp;',
];

const ids = fc.oneof(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }), fc.constantFrom(...TRICKY));

/**
 * Declares the echo property: one test, ten transactions one after another on one terminal. It is
 * declared among the valid request bodies (request-bodies.suite.ts), whose worker runs it beside them:
 * a file of its own held a worker's second terminal idle through it (10 s at 300 ms an answer).
 */
export function declareClientTransactionIdEcho(): void {
  scenario(
    'client_transaction_id is echoed intact in the status record',
    { capability: 'properties', clause: 'sandbox#transactions' },
    async (t) => {
      const generate = operations.find((o) => o.operationId === 'generateTransaction')!;
      const gate = validGate(t, generate);
      if (gate) t.skip(gate);
      const p = await t.harness.primary(t.scope);
      const env = await bodyEnv(t, p);
      const amount = mapAmount(1000 + ((t.harness.ctx.seed >>> 0) % 50) * 100, env.cap, env.hold);
      t.param('amount', amount);
      await holds(t, 'client_transaction_id echo', ids, Math.max(1, Math.min(t.harness.ctx.runs, 10)), async (sent) => {
        const res = await t.scope.call(p, 'generateTransaction', { body: { amount, client_transaction_id: sent } });
        const id = (res.body as { transaction_id?: unknown } | undefined)?.transaction_id;
        if (res.status !== 200 || typeof id !== 'string') return verdict(t, 'request.valid-accepted', res.exchange, { sent });
        await t.scope.call(p, 'cancelTransaction', { params: { transaction_id: id } });
        // The echo is judged on the record read at the first final status; the settle window runs on
        // behind the next run (its own checks judged before the test ends).
        const obs = await t.scope.converge(p, 'transaction', id, { background: true });
        if (!obs.last) return true; // no status record to compare with; convergence reported why
        return verdict(t, 'sandbox.client-transaction-id', { sent, record: obs.last }, { transaction_id: id });
      });
    },
  );
}
