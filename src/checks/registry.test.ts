/** The registry: ids unique and stable in shape, and every registered check has a unit test beside it. */
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as flow from './flow-checks.ts';
import * as invariants from './invariants.ts';
import * as model from './model-checks.ts';
import * as observations from './observations.ts';
import * as pairing from './pairing-checks.ts';
import * as probes from './probes.ts';
import { AUTO_CHECKS, CHECKS, getCheck } from './registry.ts';
import * as response from './response-checks.ts';
import * as service from './service-checks.ts';
import * as webhook from './webhook-checks.ts';

const modules = { flow, invariants, model, observations, pairing, probes, response, service, webhook };

describe('the check registry', () => {
  it('holds every check of the check modules, with ids of the form area.rule', () => {
    const exported = Object.values(modules)
      .flatMap((m) => Object.values(m))
      .filter((v) => typeof v === 'object' && v !== null && 'run' in v);
    expect(CHECKS.size).toBe(exported.length);
    for (const id of CHECKS.keys()) expect(id).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/);
    expect(AUTO_CHECKS.map((c) => c.id)).toContain('response.schema');
    expect(() => getCheck('no.such-check')).toThrow(/unknown check id/);
  });

  it('every registered check is exercised by a unit test beside it (by its export name or its id)', () => {
    const dir = new URL('./', import.meta.url);
    const tests = readdirSync(dir)
      .filter((f) => f.endsWith('.test.ts') && f !== 'registry.test.ts')
      .map((f) => readFileSync(new URL(f, dir), 'utf8'))
      .join('\n');
    const untested: string[] = [];
    for (const m of Object.values(modules)) {
      for (const [name, v] of Object.entries(m)) {
        if (typeof v !== 'object' || v === null || !('run' in v)) continue;
        const id = (v as { id: string }).id;
        if (!new RegExp(`\\b${name}\\b`).test(tests) && !tests.includes(`'${id}'`)) untested.push(`${id} (${name})`);
      }
    }
    expect(untested).toEqual([]);
  });
});
