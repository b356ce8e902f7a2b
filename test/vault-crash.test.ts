/**
 * Pairing credentials cannot be recovered, so they are saved before anything else: a process killed
 * at its first step after the pairing answer leaves them complete in the vault, and the next run
 * reuses them without pairing again.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type SimulatorHandle, startSimulator } from '../src/index.ts';
import { runCli, tempDir } from './support/run-cli.ts';

let sim: SimulatorHandle;
const requests: string[] = [];
beforeAll(async () => {
  sim = await startSimulator({ stepDelayMs: 20, deadlineMs: 1500, onRequest: (line) => requests.push(line) });
});
afterAll(() => sim.close());

test('killed right after the pairing answer: the vault is complete, 0600, and the next run reuses it', async () => {
  const vault = join(tempDir(), 'vault.json');
  const common = [
    '--target',
    sim.url,
    '--integrator-id',
    'crash-test',
    '--profile',
    'public',
    '--terminal',
    'observe',
    '--vault',
    vault,
    '--suite',
    'payment',
    '--deadline',
    '5s',
    '--settle',
    '100ms',
    // No HTML report: nothing here reads it (test/reports.test.ts renders and reads one); it costs a CPU-second a run.
    '--no-html',
  ];

  const first = await runCli(['run', ...common, '--otp', sim.mintOtp()], { env: { PAYCONNECT_TEST_CRASH_AFTER_PAIRING: '1' } });
  expect(first.code, first.stdout + first.stderr).not.toBe(0);
  const pairs = () => requests.filter((l) => /POST \/v1\/pay-connect\/pair\//.test(l)).length;
  expect(pairs()).toBe(1);
  // Nothing but the pairing reached the service: the process died before its next request.
  expect(requests.filter((l) => /\/v1\/auth\/token\//.test(l))).toHaveLength(0);

  expect(statSync(vault).mode & 0o777).toBe(0o600);
  const saved = JSON.parse(readFileSync(vault, 'utf8'));
  expect(saved.pairings).toHaveLength(1);
  const c = saved.pairings[0].credentials;
  for (const k of ['pay_connect_id', 'terminal_id', 'client_id', 'client_secret', 'webhook_secret_key'])
    expect(typeof c[k], k).toBe('string');
  expect(c.client_secret.length).toBeGreaterThan(8);

  const second = await runCli(['run', ...common]);
  expect(second.summary?.verdict, second.stdout + second.stderr).toBe('pass');
  expect(second.summary!.counts.passed).toBeGreaterThan(0);
  expect(second.code).toBe(0);
  expect(pairs()).toBe(1);
  expect(requests.filter((l) => /\/v1\/auth\/token\//.test(l)).length).toBeGreaterThan(0);
});
