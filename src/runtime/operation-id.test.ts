/**
 * Operation ids are typed from the contract: a misspelt one is a compile error (`npm run typecheck`
 * fails on an unused @ts-expect-error), not a run that calls nothing.
 */
import { expect, test } from 'vitest';
import { type OperationId, operations } from '../generated/contract.ts';
import type { Scope } from './scope.ts';

test('a misspelt operation id does not compile, in a variable or in scope.call', () => {
  // @ts-expect-error 'generateTransacton' is not an operation of the contract
  const wrong: OperationId = 'generateTransacton';
  const right: OperationId = 'generateTransaction';
  const call = (scope: Scope) => scope.call(undefined as never, 'generateTransaction');
  // @ts-expect-error nor here
  const misspelt = (scope: Scope) => scope.call(undefined as never, 'getTransactonStatus');
  expect(operations.map((o) => o.operationId)).toContain(right);
  expect(operations.map((o) => o.operationId)).not.toContain(wrong);
  expect([typeof call, typeof misspelt]).toEqual(['function', 'function']);
});
