/**
 * The arbitraries derived from the schemas agree with the compiled validators: every valid instance
 * passes, every invalid variant fails (at least 1,000 runs per schema each way).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { allSchemas, invalidArbitrary, validArbitrary } from '../src/arbitraries/index.ts';
import { validators } from '../src/generated/contract.ts';

const RUNS = 1000;
const names = [...allSchemas().keys()];

describe.each(names)('schema %s', (name) => {
  const validate = validators[name]!;

  test(`valid arbitrary passes the compiled validator (${RUNS} runs)`, () => {
    fc.assert(
      fc.property(validArbitrary(name), (value) => {
        if (!validate(value)) throw new Error(`valid instance rejected: ${JSON.stringify(validate.errors)}`);
      }),
      { numRuns: RUNS },
    );
  });

  test(`invalid variants fail the compiled validator (${RUNS} runs)`, () => {
    const reasons = new Set<string>();
    fc.assert(
      fc.property(invalidArbitrary(name), ({ value, reason }) => {
        reasons.add(reason.replace(/ at .*/, ''));
        if (validate(value)) throw new Error(`invalid variant (${reason}) accepted: ${JSON.stringify(value)}`);
      }),
      { numRuns: RUNS },
    );
    expect(reasons.size).toBeGreaterThan(0);
  });
});

test('the invalid variants cover every kind the contract needs', () => {
  const kinds = (name: string) => {
    const seen = new Set<string>();
    fc.sample(invalidArbitrary(name), 3000).forEach((v) => seen.add(v.reason.replace(/ at .*| required .*/, '')));
    return seen;
  };
  expect(kinds('GenerateRequest')).toEqual(new Set(['missing', 'wrong type', 'fractional number', 'below minimum', 'above maximum']));
  const slip = kinds('PrintSlip');
  for (const k of ['missing', 'wrong type', 'outside enum', 'bad date-time', 'bad uri', 'pattern mismatch']) expect(slip).toContain(k);
});
