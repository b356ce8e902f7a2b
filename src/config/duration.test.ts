import { describe, expect, it } from 'vitest';
import { isToolkitError } from '../core/errors.ts';
import { formatDuration, parseDuration, tryParseDuration } from './duration.ts';

describe('parseDuration', () => {
  it.each([
    ['500ms', 500],
    ['30s', 30_000],
    ['2m', 120_000],
    ['1.5s', 1500],
    ['1500', 1500],
    [' 10s ', 10_000],
    ['0', 0],
    [250, 250],
  ] as const)('%j is %d ms', (input, ms) => {
    expect(parseDuration(input)).toBe(ms);
  });

  it.each(['', 'abc', '10x', '-5s', '1h', '1.5ms', '0.0001s', 's', '5 5s'])('rejects %j with PCC_CONFIG_INVALID', (input) => {
    let error: unknown;
    try {
      parseDuration(input);
    } catch (e) {
      error = e;
    }
    expect(isToolkitError(error)).toBe(true);
    expect((error as { code: string }).code).toBe('PCC_CONFIG_INVALID');
    expect((error as Error).message).toContain(JSON.stringify(input));
  });

  it('rejects fractional, negative and non-finite numbers', () => {
    for (const n of [1.5, -1, Number.NaN, Number.POSITIVE_INFINITY]) expect(tryParseDuration(n).ok).toBe(false);
  });

  it('names the type of a non-duration value', () => {
    expect(tryParseDuration(true)).toEqual({ ok: false, reason: 'expected a duration string or a number, got a boolean' });
  });

  it('formats the short way round', () => {
    expect([formatDuration(10_000), formatDuration(120_000), formatDuration(1500), formatDuration(0)]).toEqual([
      '10s',
      '2m',
      '1500ms',
      '0ms',
    ]);
  });
});
