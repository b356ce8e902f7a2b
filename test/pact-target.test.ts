/**
 * `run --target pact`: the suites that fit a stateless mock run against the Pact mock, pass, and the
 * run writes the very pact file the consumer suite commits.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { PACT_FILE_NAME } from '../src/pact/index.ts';
import { ROOT, runCli } from './support/run-cli.ts';

test('run --target pact passes and writes the committed pact byte for byte', async () => {
  const r = await runCli(['run', '--target', 'pact', '--no-html']);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  expect(r.summary?.counts.passed).toBeGreaterThan(0);
  expect(r.summary?.counts.failed).toBe(0);
  // The flow suites run against the mock; what needs a service keeping state skips, saying why.
  for (const suite of ['config', 'payment', 'cancel', 'preauth', 'print-slip', 'refund', 'isolation', 'auth', 'pairing']) expect(r.stdout).toMatch(new RegExp(`✓ ${suite} > `));
  expect(r.summary?.counts.skipped).toBeGreaterThan(0);
  expect(r.stdout).toMatch(/- cancel > cancel while INITIATED .* not against the Pact mock: .*sequence of states/);
  expect(r.stdout).toMatch(/- pairing > the OTP is one-time: .* not against the Pact mock: one-time use spans two calls/);
  expect(r.stdout).toMatch(/✓ auth > getConfig: with an invalid bearer token/);
  expect(r.stdout).toMatch(/✓ pairing > a malformed or never-valid OTP is refused: never valid: 000000/);
  const written = readFileSync(join(r.reportsDir, 'pacts', PACT_FILE_NAME), 'utf8');
  expect(written).toBe(readFileSync(join(ROOT, 'contracts', 'pacts', PACT_FILE_NAME), 'utf8'));
}, 170_000);

test('run --target pact refuses a suite a stateless mock cannot serve, saying why', async () => {
  const r = await runCli(['run', '--target', 'pact', '--suite', 'stateful', '--no-html']);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/PCC_USAGE: suite stateful cannot run against the Pact mock: .*sequences of states/);
}, 60_000);
