import { describe, expect, it } from 'vitest';
import type { ToolkitError } from '../core/errors.ts';
import { readEnv } from './env.ts';

function envError(env: NodeJS.ProcessEnv): ToolkitError {
  try {
    readEnv(env);
  } catch (e) {
    return e as ToolkitError;
  }
  throw new Error('expected the environment to be rejected');
}

describe('readEnv', () => {
  it('reads PAYCONNECT_ + upper snake of each flag, saying which variable', () => {
    const env = readEnv({ PAYCONNECT_TARGET: 'pact', PAYCONNECT_INTEGRATOR_ID: 'abc', PAYCONNECT_SIM_STEP_DELAY: '5ms', OTHER: 'x' });
    expect(env.target).toEqual({ value: 'pact', source: 'env', where: 'environment variable PAYCONNECT_TARGET' });
    expect(env.integratorId?.value).toBe('abc');
    expect(env['sim.stepDelay']?.value).toBe('5ms');
    expect(Object.keys(env).sort()).toEqual(['integratorId', 'sim.stepDelay', 'target']);
  });

  it.each([
    ['1', true],
    ['true', true],
    ['TRUE', true],
    ['0', false],
    ['false', false],
  ])('reads PAYCONNECT_STRICT=%s as %s', (raw, value) => {
    expect(readEnv({ PAYCONNECT_STRICT: raw }).strict?.value).toBe(value);
  });

  it('rejects other boolean words with PCC_CONFIG_INVALID naming the variable', () => {
    const error = envError({ PAYCONNECT_ALLOW_PRODUCTION: 'yes' });
    expect(error.code).toBe('PCC_CONFIG_INVALID');
    expect(error.message).toContain('allowProduction');
    expect(error.message).toContain('environment variable PAYCONNECT_ALLOW_PRODUCTION');
    expect(error.hint).toContain('PAYCONNECT_ALLOW_PRODUCTION=1');
  });

  it('treats an empty variable as unset', () => {
    expect(readEnv({ PAYCONNECT_TARGET: '', PAYCONNECT_STRICT: ' ' })).toEqual({});
  });

  it('accepts PAYCONNECT_NO_HTML as the negation of PAYCONNECT_HTML, and rejects a contradiction', () => {
    expect(readEnv({ PAYCONNECT_NO_HTML: '1' }).html?.value).toBe(false);
    expect(readEnv({ PAYCONNECT_HTML: '0' }).html?.value).toBe(false);
    expect(readEnv({ PAYCONNECT_HTML: '0', PAYCONNECT_NO_HTML: 'true' }).html?.value).toBe(false);
    const error = envError({ PAYCONNECT_HTML: '1', PAYCONNECT_NO_HTML: '1' });
    expect(error.code).toBe('PCC_CONFIG_INVALID');
    expect(error.message).toContain('PAYCONNECT_NO_HTML');
  });
});
