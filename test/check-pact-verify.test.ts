/**
 * `verify-pacts --pact`: an integrator's own pact verified against the embedded simulator. A small
 * pact the contract allows passes; one expecting what the simulator does not do fails, naming the
 * interaction, and a provider state the toolkit does not know is said, not a crash.
 */
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { ROOT, runCli } from './support/run-cli.ts';

const fixture = (name: string) => join(ROOT, 'test', 'fixtures', 'pacts', name);

test('verify-pacts --pact <an integrator pact> --target sim passes (HTTP and a webhook message)', async () => {
  const r = await runCli(['verify-pacts', '--pact', fixture('integrator-verify-passes.json'), '--target', 'sim']);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  expect(r.stdout).toContain('verifying 1 pact file(s)');
  expect(r.stdout).toContain('✓ acme reads the configuration (given a paired terminal)');
  expect(r.stdout).toContain('✓ acme starts a payment (given a paired terminal)');
  expect(r.stdout).toContain('✓ [message] acme is told a payment succeeded');
  expect(r.stdout).toMatch(/^PASS: 3 interactions verified/m);
  expect(r.stdout + r.stderr).not.toContain('acme-verify-token-Pq7w');
}, 120_000);

test('a pact expecting what the simulator does not do fails, naming the interactions; an unknown state is said', async () => {
  const r = await runCli([
    'verify-pacts',
    '--target',
    'sim',
    '--pact',
    fixture('integrator-verify-fails.json'),
    '--pact',
    fixture('integrator-verify-passes.json'),
  ]);
  expect(r.code, r.stdout + r.stderr).toBe(1);
  expect(r.stdout).toContain('verifying 2 pact file(s)');
  expect(r.stdout).toMatch(
    /✗ acme expects the configuration in dollars \(given a paired terminal\)\n\s+Expected 'EUR' \(String\) to be equal to 'USD'/,
  );
  expect(r.stdout).toMatch(
    /✗ acme polls its last order \(given acme's last order was paid\)\n\s+note: provider state "acme's last order was paid" is not one the toolkit sets up/,
  );
  expect(r.stdout).toContain('✓ acme starts a payment (given a paired terminal)');
  expect(r.stdout).toMatch(/^FAIL: 2 of 5 interactions failed: acme expects the configuration in dollars; acme polls its last order$/m);
  expect(r.stdout + r.stderr).not.toMatch(/acme-verify-token-(Pq7w|Zt4v)/);
}, 120_000);

test('verify-pacts --pact with a file that is no pact: a usage error, exit 2', async () => {
  const r = await runCli(['verify-pacts', '--target', 'sim', '--pact', join(ROOT, 'package.json')]);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/^PCC_USAGE: .*package\.json: is not a pact file/);
}, 60_000);
