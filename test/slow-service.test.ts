/**
 * The time a legal service needs: a sandbox whose pairing answers slowly (no document sets a time
 * limit) is not failed for it. The request-body property of pairing runs as many of its runs as the
 * scenario's budget holds at the measured pace, says how many, and names the rest "not checked";
 * the run passes. Slowness is judged only when asked for, with --max-response-time.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type SimulatorHandle, startSimulator } from '../src/index.ts';
import { type DelayingProxy, startDelayingProxy } from './support/delaying-proxy.ts';
import { runCli, tempDir } from './support/run-cli.ts';

/** How late the pairing answers: the test's scale of a 3 s pairing. */
const PAIRING_MS = 1000;
const PAIRING = /^\/v1\/pay-connect\/pair\/?$/;

let sim: SimulatorHandle;
let slow: DelayingProxy;
beforeAll(async () => {
  sim = await startSimulator({ stepDelayMs: 20, deadlineMs: 1500 });
  slow = await startDelayingProxy(sim.url, PAIRING, PAIRING_MS);
});
afterAll(async () => {
  await slow?.close();
  await sim?.close();
});

const args = (runs: number) => [
  'run',
  '--target',
  slow.url,
  '--integrator-id',
  sim.integratorId,
  '--profile',
  'sandbox',
  '--vault',
  join(tempDir(), 'vault.json'),
  '--deadline',
  '5s',
  '--settle',
  '100ms',
  '--suite',
  'properties',
  '--grep',
  'pair: invalid bodies get a 4xx',
  '--runs',
  String(runs),
  // No HTML report: nothing here reads it (test/reports.test.ts renders and reads one); it costs a CPU-second a run.
  '--no-html',
];

interface NotChecked {
  test: string;
  what: string[];
}

test('a pairing that answers slowly passes: the property runs what its budget holds at the measured pace, says how many, and the rest is not checked', async () => {
  // A run budget the 300 runs at 1 s a pairing do not fit in, eight under way at once (the property's
  // bodies are judged each alone: properties/request-bodies.ts): the scenario's budget is cut to it.
  const r = await runCli([...args(300), '--max-duration', '25s']);
  const summary = r.summary as (typeof r.summary & { notChecked?: NotChecked[] }) | undefined;
  expect(r.stderr).toBe('');
  expect(summary?.findings, JSON.stringify(summary?.findings, null, 1)).toEqual([]);
  expect(summary?.incomplete).toBeUndefined();
  expect(summary?.verdict).toBe('pass');
  expect(r.code).toBe(0);
  const pair = summary?.notChecked?.find((n) => n.test.includes('pair: invalid bodies get a 4xx'));
  expect(pair?.what.join('\n')).toMatch(
    /^pair invalid: \d+ of 300 runs not run, the run's time budget \(--max-duration\) could not hold them at the service's pace \(ran \d+ of 300 runs in [\d.]+ s at [\d.]+ m?s a run \(pair 1\.\d s a request/m,
  );
  const ran = Number(/ran (\d+) of 300/.exec(pair!.what.join('\n'))![1]);
  expect(ran).toBeGreaterThan(3);
  expect(ran).toBeLessThan(300);
  expect(slow.delayed()).toBeGreaterThanOrEqual(ran);
  // The certification names what was not checked and why, rather than a failure.
  const certification = readFileSync(join(r.reportsDir, 'certification.md'), 'utf8');
  expect(certification).toMatch(/pair invalid: \d+ of 300 runs not run/);
  expect(certification).not.toMatch(/failed: properties > pair/);
});

test('--max-response-time judges the pace only when asked: a finding for every answer slower than the limit', async () => {
  const r = await runCli([...args(3), '--max-response-time', '500ms', '--strict']);
  const slowOnes = r.summary?.findings.filter((f) => f.check === 'response.time-within-limit') ?? [];
  expect(slowOnes.length, JSON.stringify(r.summary?.findings, null, 1)).toBeGreaterThan(0);
  for (const f of slowOnes) expect(f.message).toMatch(/^pair answered \d{3} after 1\d{3} ms; --max-response-time is 500 ms$/);
  expect(r.summary?.findings.filter((f) => f.check !== 'response.time-within-limit')).toEqual([]);
  expect(r.code).toBe(1);
});
