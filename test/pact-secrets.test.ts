/**
 * The pact holds no secret: its credentials are the contract's fake examples (or matched by a regex
 * with a fake example), and none of the secrets a real verification run was handed (client secrets,
 * access tokens, webhook keys of a simulator) appears in the pact files or the command's output.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { EXAMPLE, PACT_FILE_NAME, PROBE, readPact } from '../src/pact/index.ts';
import { type SimulatorHandle, startSimulator } from '../src/simulator/index.ts';
import { ROOT, runCli, tempDir } from './support/run-cli.ts';

const pactFile = join(ROOT, 'contracts', 'pacts', PACT_FILE_NAME);
let sim: SimulatorHandle;
beforeAll(async () => {
  sim = await startSimulator({ stepDelayMs: 20, deadlineMs: 1500 });
});
afterAll(() => sim.close());

test('the credentials in the pact are the fake examples of the contract', () => {
  const pact = readPact(pactFile);
  const values = (key: string) =>
    pact.interactions
      .flatMap((i) => [i.request?.body?.content, i.response?.body?.content])
      .map((b) => (b as Record<string, unknown> | undefined)?.[key])
      .filter((v) => v !== undefined);
  // The auth probes' wrong secret and invalid token are the examples' fake values marked as such.
  expect(new Set(values('client_secret'))).toEqual(new Set([EXAMPLE.clientSecret, `${EXAMPLE.clientSecret}${PROBE.wrongSecretSuffix}`]));
  expect(new Set(values('access_token'))).toEqual(new Set([EXAMPLE.accessToken]));
  // null: a pairing without a webhook URL gets no key.
  expect(new Set(values('webhook_secret_key'))).toEqual(new Set([EXAMPLE.webhookKey, null]));
  const auth = pact.interactions.flatMap((i) => i.request?.headers?.Authorization ?? []);
  expect(auth.length).toBeGreaterThan(0);
  expect(new Set(auth)).toEqual(new Set([`Bearer ${EXAMPLE.accessToken}`, `Bearer ${PROBE.invalidTokenPrefix}example`]));
});

test('a verification against a simulator leaks none of the secrets it was handed into the pact or its output', async () => {
  const vault = join(tempDir(), 'vault.json');
  const otps = [sim.mintOtp(), sim.mintOtp(), sim.mintOtp(), sim.mintOtp(), sim.mintOtp()];
  const r = await runCli([
    'verify-pacts',
    '--target',
    sim.url,
    '--integrator-id',
    sim.integratorId,
    '--vault',
    vault,
    '--deadline',
    '1500',
    ...otps.flatMap((o) => ['--otp', o]),
  ]);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  const secrets = sim.issuedSecrets();
  // Five pairings (primary, the two pair interactions, the consumed OTP's, the unpair interaction), their tokens and webhook keys.
  expect(secrets.length).toBeGreaterThan(5);
  // ...and the verification really used them: the vault holds the pairings' secrets.
  expect(secrets.some((s) => readFileSync(vault, 'utf8').includes(s))).toBe(true);
  const searched: [string, string][] = [
    ['stdout', r.stdout],
    ['stderr', r.stderr],
    [pactFile, readFileSync(pactFile, 'utf8')],
  ];
  const leaks = searched.flatMap(([where, text]) => secrets.filter((s) => text.includes(s)).map((s) => `${where}: ${s.slice(0, 4)}…`));
  expect(leaks).toEqual([]);
}, 170_000);
