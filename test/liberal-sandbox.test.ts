/**
 * The liberal sandbox (simulator option `liberal`, `sim --liberal`) as a URL target: a service that
 * takes the liberties the documents leave open (src/simulator/liberties.ts) is not blamed, with --strict.
 * The flow suites here are the ones whose transactions repeat amounts: against a service whose
 * client_transaction_id is idempotent (the public profile: "whether `client_transaction_id` is
 * idempotent" is unknown) each started transaction must carry an id of its own.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type SimulatorHandle, startSimulator } from '../src/index.ts';
import { runCli, tempDir } from './support/run-cli.ts';

let sim: SimulatorHandle;
beforeAll(async () => {
  sim = await startSimulator({ liberal: true, stepDelayMs: 50, deadlineMs: 2000 });
});
afterAll(() => sim.close());

test('the flow suites pass with --strict against the liberal sandbox, on one terminal', async () => {
  const vault = join(tempDir(), 'vault.json');
  const r = await runCli([
    'run',
    '--target',
    sim.url,
    '--integrator-id',
    sim.integratorId,
    '--strict',
    '--vault',
    vault,
    '--quiet',
    // No HTML report: nothing here reads it (test/reports.test.ts renders and reads one); it costs a CPU-second.
    '--no-html',
    '--terminals',
    '1',
    '--suite',
    'preauth',
    '--suite',
    'payment',
    '--suite',
    'refund',
  ]);
  expect(r.stderr).toBe('');
  expect(r.summary?.findings.map((f) => `${f.check} ${f.test}: ${f.message}`)).toEqual([]);
  expect(r.summary?.verdict).toBe('pass');
  expect(r.summary!.counts.passed).toBeGreaterThan(15);
  expect(r.code).toBe(0);
}, 170_000);
