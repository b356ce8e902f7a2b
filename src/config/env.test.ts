import { describe, expect, it } from 'vitest';
import type { ToolkitError } from '../core/errors.ts';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KNOWN_VARIABLES, readEnv } from './env.ts';

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

  it('refuses an empty PAYCONNECT_ variable, naming it: an undefined CI variable must not fall back to the simulator', () => {
    for (const env of [{ PAYCONNECT_TARGET: '' }, { PAYCONNECT_STRICT: ' ' }, { PAYCONNECT_VAULT_JSON: '' }]) {
      const error = envError(env);
      expect(error.code).toBe('PCC_CONFIG_INVALID');
      expect(error.message).toBe(`environment variable ${Object.keys(env)[0]} is set but empty`);
    }
    expect(readEnv({ OTHER: '' })).toEqual({});
  });

  it('refuses an unknown PAYCONNECT_ variable with the nearest known name', () => {
    const error = envError({ PAYCONNECT_TARGT: 'http://x' });
    expect(error.code).toBe('PCC_CONFIG_INVALID');
    expect(error.message).toBe('unknown environment variable PAYCONNECT_TARGT; did you mean PAYCONNECT_TARGET?');
  });

  it('knows every PAYCONNECT_ variable the toolkit reads or names', () => {
    const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
    const names = new Set<string>();
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (/\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name)) {
          for (const m of readFileSync(path, 'utf8').matchAll(/\bPAYCONNECT_[A-Z][A-Z0-9_]*[A-Z0-9]\b/g)) names.add(m[0]);
        }
      }
    };
    for (const dir of ['src', 'suites']) walk(join(root, dir));
    expect(names.size).toBeGreaterThan(20);
    expect([...names].filter((name) => !KNOWN_VARIABLES.includes(name))).toEqual([]);
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
