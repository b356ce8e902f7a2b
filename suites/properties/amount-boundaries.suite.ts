/**
 * Amounts at and around every boundary of the contract's `Amount` (sandbox: an integer from 1 to
 * 99,999,999 cents; missing, zero, negative, a fraction or a string answers 400), on every operation
 * that starts a transaction from a body with an amount.
 */
import { describe } from 'vitest';
import { AMOUNT_BASIS, deref, schemaByName } from '../../src/arbitraries/index.ts';
import { scenario } from '../../src/suite.ts';
import { bodyOperations, pathParams, release, requestSchemaOf, show, validGate } from './bodies.ts';

const amount = deref(schemaByName('Amount'));
const lo = amount.minimum ?? 1;
const hi = amount.maximum ?? 99_999_999;

/** The boundary values and whether the sandbox accepts them. */
const BOUNDARIES: readonly { value: unknown; valid: boolean }[] = [
  { value: lo - 1, valid: false },
  { value: lo, valid: true },
  { value: hi, valid: true },
  { value: hi + 1, valid: false },
  { value: -1, valid: false },
  { value: 1.5, valid: false },
  { value: '100', valid: false },
  { value: null, valid: false },
].filter((b, i, all) => all.findIndex((c) => c.value === b.value) === i);

const starters = bodyOperations().filter(
  (op) => pathParams(op).length === 0 && requestSchemaOf(op).properties?.amount?.$ref === 'Amount.json',
);

describe('amount boundaries', () => {
  for (const op of starters) {
    scenario(
      `${op.operationId}: amounts at the boundaries (${BOUNDARIES.map((b) => show(b.value)).join(', ')})`,
      { capability: 'properties', clause: 'sandbox#transactions' },
      async (t) => {
        const p = await t.harness.primary(t.scope);
        const { sandbox, maxAmount } = t.harness.ctx;
        const gate = validGate(t, op);
        const sent: string[] = [];
        const notSent: string[] = [];
        for (const b of BOUNDARIES) {
          if (typeof b.value === 'number' && op.stateChanging && !sandbox && b.value > maxAmount) {
            notSent.push(`${show(b.value)} (above --max-amount on a target that is not a sandbox)`);
            continue;
          }
          if (b.valid && gate) {
            notSent.push(`${show(b.value)} (${gate})`);
            continue;
          }
          const res = await t.scope.call(p, op.operationId, { body: { amount: b.value } });
          sent.push(`${show(b.value)} -> ${res.status}`);
          if (b.valid) t.scope.check('request.valid-accepted', res.exchange, { amount: b.value });
          // sandbox.md, Transactions calls each of these amounts invalid: the finding quotes it.
          else t.scope.check('request.invalid-rejected', { exchange: res.exchange, because: AMOUNT_BASIS }, { amount: b.value });
          await release(t, p, op, res);
        }
        t.param('sent', sent.join('; '));
        if (notSent.length > 0) t.param('not sent', notSent.join('; '));
      },
    );
  }
});
