/**
 * Credentials for CI from the environment: PAYCONNECT_VAULT_JSON (a vault file's content, kept as a CI
 * secret) becomes the vault when there is none, the run uses its pairing, and its text never shows in
 * any output; a malformed one, or one beside an existing vault file, stops the run (exit 2) first.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimulatorHandle, startSimulator } from '../src/index.ts';
import { runCli, tempDir } from './support/run-cli.ts';

let sim: SimulatorHandle;
beforeAll(async () => {
  sim = await startSimulator({ stepDelayMs: 20, deadlineMs: 1500 });
});
afterAll(() => sim.close());

const runArgs = (vault: string) => [
  'run',
  '--target',
  sim.url,
  '--integrator-id',
  sim.integratorId,
  '--profile',
  'sandbox',
  '--vault',
  vault,
  '--suite',
  'config',
  '--no-html',
  '--terminals',
  '1',
];

describe('PAYCONNECT_VAULT_JSON', () => {
  it('becomes the vault, its pairing is used, and its secrets appear in no output', async () => {
    const first = join(tempDir('pcc-ci-'), 'vault.json');
    const paired = await runCli([
      'pair',
      '--target',
      sim.url,
      '--integrator-id',
      sim.integratorId,
      '--otp',
      sim.mintOtp(),
      '--vault',
      first,
    ]);
    expect(paired.code, paired.stderr).toBe(0);
    const secretJson = readFileSync(first, 'utf8');
    const { client_id, client_secret } = (
      JSON.parse(secretJson) as { pairings: { credentials: { client_id: string; client_secret: string } }[] }
    ).pairings[0]!.credentials;

    const vault = join(tempDir('pcc-ci-'), '.payconnect', 'vault.json');
    const r = await runCli(runArgs(vault), { env: { PAYCONNECT_VAULT_JSON: secretJson, CI: 'true' } });
    expect(r.code, r.stderr).toBe(0);
    expect(statSync(vault).mode & 0o777).toBe(0o600);
    const kept = JSON.parse(readFileSync(vault, 'utf8')) as { pairings: { credentials: { client_id: string } }[] };
    expect(kept.pairings.map((p) => p.credentials.client_id)).toEqual([client_id]);
    expect(`${r.stdout}${r.stderr}`).not.toContain(client_secret);
    expect(readFileSync(join(r.reportsDir, 'summary.json'), 'utf8')).not.toContain(client_secret);
  });

  it('a malformed one, or one beside a vault file, is one line and exit 2, and echoes nothing of it', async () => {
    const vault = join(tempDir('pcc-ci-'), 'vault.json');
    const bad = await runCli(runArgs(vault), {
      env: { PAYCONNECT_VAULT_JSON: '{"version": 1, "pairings": [{"client_secret": "cs-do-not-print" x}]}' },
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^PCC_VAULT_INVALID: vault file from PAYCONNECT_VAULT_JSON: is not valid JSON/);
    expect(bad.stderr).not.toContain('cs-do-not-print');
    expect(existsSync(vault)).toBe(false);

    const paired = await runCli([
      'pair',
      '--target',
      sim.url,
      '--integrator-id',
      sim.integratorId,
      '--otp',
      sim.mintOtp(),
      '--vault',
      vault,
    ]);
    expect(paired.code, paired.stderr).toBe(0);
    const before = readFileSync(vault, 'utf8');
    const both = await runCli(runArgs(vault), { env: { PAYCONNECT_VAULT_JSON: before } });
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/^PCC_CONFIG_INVALID: PAYCONNECT_VAULT_JSON is set and the vault file .* exists too/);
    expect(readFileSync(vault, 'utf8')).toBe(before);
  });
});
