/**
 * `run --target <url>` against a simulator started separately passes, like the embedded target.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type SimulatorHandle, startSimulator } from '../src/index.ts';
import { runCli, tempDir } from './support/run-cli.ts';

let sim: SimulatorHandle;
beforeAll(async () => {
  sim = await startSimulator({ stepDelayMs: 20, deadlineMs: 1500 });
});
afterAll(() => sim.close());

test('a URL target (a simulator started on its own) passes with the sandbox profile', async () => {
  const vault = join(tempDir(), 'vault.json');
  const r = await runCli([
    'run',
    '--target',
    sim.url,
    '--integrator-id',
    sim.integratorId,
    '--profile',
    'sandbox',
    '--vault',
    vault,
    // No HTML report: nothing here reads it (test/reports.test.ts renders and reads one); it costs a CPU-second.
    '--no-html',
    '--deadline',
    '5s',
    '--settle',
    '100ms',
    '--suite',
    'payment',
    '--suite',
    'config',
  ]);
  expect(r.stderr).toBe('');
  expect(r.summary?.target).toEqual({ kind: 'url', baseUrl: sim.url });
  expect(r.summary?.verdict, JSON.stringify(r.summary?.findings, null, 1)).toBe('pass');
  expect(r.summary!.counts.passed).toBeGreaterThan(0);
  expect(r.code).toBe(0);
});

test('an unreachable URL target is one clear message and exit 2, with no report written', async () => {
  const reports = tempDir();
  const r = await runCli(['run', '--target', 'http://127.0.0.1:9', '--integrator-id', 'x', '--reports', reports]);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/^PCC_TARGET_UNREACHABLE: http:\/\/127\.0\.0\.1:9 did not answer/);
  expect(r.stderr).toMatch(/fix: /);
  expect(r.summary).toBeUndefined();
});

test('the production host is refused without --allow-production', async () => {
  const r = await runCli(['run', '--target', 'https://api-payment.lab4pay.com', '--integrator-id', 'x']);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/^PCC_TARGET_PRODUCTION: /);
});

test('a wrong flag is one clear message and exit 2', async () => {
  const r = await runCli(['run', '--tagret', 'sim']);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/PCC_USAGE: .*--tagret.*did you mean --target/);
});
