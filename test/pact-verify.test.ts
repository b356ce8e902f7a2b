/**
 * `verify-pacts`: the committed pact verifies against the embedded simulator; a fault that changes a
 * response shape fails the verification and the report names the interaction it broke.
 */
import { expect, test } from 'vitest';
import { runCli } from './support/run-cli.ts';

test('verify-pacts --target sim passes every interaction of the committed pact', async () => {
  const r = await runCli(['verify-pacts', '--target', 'sim']);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  expect(r.stdout).toMatch(/PASS: \d+ interactions verified/);
  expect(r.stdout).toContain('✓ generate a payment the terminal ends SUCCESS (given a paired terminal)');
  expect(r.stdout).toContain('✓ [message] a transaction.success webhook');
  // The Pact core's own report (it prints compared bodies) never reaches the terminal.
  expect(r.stdout).not.toContain('Verifying a pact between');
}, 120_000);

test('generate.missing-transaction-id fails verification and names the generate interactions', async () => {
  const r = await runCli(['verify-pacts', '--target', 'sim', '--sim-fault', 'generate.missing-transaction-id']);
  expect(r.code, r.stderr).toBe(1);
  expect(r.stdout).toMatch(/✗ generate a payment the terminal ends SUCCESS \(given a paired terminal\)\n\s+Actual map is missing the following keys: transaction_id/);
  expect(r.stdout).toMatch(/^FAIL: \d+ of \d+ interactions failed: .*generate a payment the terminal ends SUCCESS/m);
}, 120_000);

test('a slip fault fails the print slip interactions only', async () => {
  const r = await runCli(['verify-pacts', '--target', 'sim', '--sim-fault', 'slip.missing-digital-slip']);
  expect(r.code, r.stderr).toBe(1);
  const failed = [...r.stdout.matchAll(/^ {2}✗ (.+?) \(given/gm)].map((m) => m[1]);
  expect(failed.length).toBeGreaterThan(0);
  expect(failed.every((d) => d!.startsWith('fetch the print slip'))).toBe(true);
  expect(r.stdout).toContain('digital_slip');
}, 120_000);

test('a fault the flow scenarios meet fails the interactions that depend on it', async () => {
  const r = await runCli(['verify-pacts', '--target', 'sim', '--sim-fault', 'cancel.final-accepted']);
  expect(r.code, r.stderr).toBe(1);
  const failed = [...r.stdout.matchAll(/^ {2}✗ (.+?) \(given/gm)].map((m) => m[1]).sort();
  expect(failed).toEqual(['cancel of a declined transaction is refused', 'cancel of a successful transaction is refused']);
}, 120_000);

test('verify-pacts refuses --sim-fault with a URL target and an unknown fault', async () => {
  const url = await runCli(['verify-pacts', '--target', 'http://127.0.0.1:9', '--integrator-id', 'x', '--sim-fault', 'slow']);
  expect(url.code).toBe(2);
  expect(url.stderr).toContain('--sim-fault applies to --target sim only');
  const unknown = await runCli(['verify-pacts', '--sim-fault', 'no.such-fault']);
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toContain('PCC_CONFIG_INVALID');
}, 60_000);
