/**
 * No silent pass from the vault: a run against a sandbox URL that mints OTPs pairs afresh instead of
 * reusing a pairing whose webhook_url is another run's receiver (so the webhooks suite runs, not
 * skipped), unpairs what it made on its own receiver at its end (the vault and the service do not fill
 * up), and where it must use such a pairing (a target that does not mint OTPs) every test whose
 * webhook half went unobserved says "not checked" in all four reports.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type SimulatorHandle, startSimulator } from '../src/index.ts';
import { runCli, tempDir } from './support/run-cli.ts';

let sim: SimulatorHandle;
beforeAll(async () => {
  sim = await startSimulator({ stepDelayMs: 20, deadlineMs: 1500 });
});
afterAll(() => sim.close());

interface StoredPairing {
  webhookUrl: string | null;
  ephemeralRun?: string;
  credentials: { client_id: string };
}
const pairingsIn = (vault: string): StoredPairing[] => (JSON.parse(readFileSync(vault, 'utf8')) as { pairings: StoredPairing[] }).pairings;

/** A pairing as an earlier run left it: made on that run's receiver, long gone. */
async function staleVault(dir: string): Promise<string> {
  const vault = join(dir, 'vault.json');
  const r = await runCli([
    'pair',
    '--target',
    sim.url,
    '--integrator-id',
    sim.integratorId,
    '--otp',
    sim.mintOtp(),
    '--vault',
    vault,
    '--webhook-url',
    'http://127.0.0.1:9/webhooks/1-gone',
  ]);
  expect(r.code, r.stderr).toBe(0);
  expect(pairingsIn(vault)).toHaveLength(1);
  return vault;
}

const common = () => [
  '--target',
  sim.url,
  '--integrator-id',
  sim.integratorId,
  '--deadline',
  '5s',
  '--settle',
  '100ms',
  '--terminals',
  '2',
  // No HTML report: nothing here reads it (test/reports.test.ts renders and reads one); it costs a CPU-second a run.
  '--no-html',
];

test('against a sandbox that mints OTPs, a stale vault pairing is passed over, and the run releases what it made', async () => {
  const dir = tempDir();
  const vault = await staleVault(dir);
  const r = await runCli(['run', ...common(), '--profile', 'sandbox', '--vault', vault, '--suite', 'webhooks']);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  // The webhooks suite ran (its retry scenario alone may not fit a 5 s deadline against a URL).
  const skipped = (r.summary as unknown as { skipped: { test: string; reason: string }[] }).skipped;
  expect(skipped.filter((s) => /not observable/.test(s.reason))).toEqual([]);
  expect(r.summary!.counts.passed).toBeGreaterThanOrEqual(4);
  expect(r.summary!.counts.failed).toBe(0);
  expect(r.stdout).toMatch(/pairings this run made on its own receiver: \d+ unpaired and removed from the vault/);
  // Only the earlier pairing is left: this run's own are unpaired and gone.
  expect(pairingsIn(vault).map((p) => p.webhookUrl)).toEqual(['http://127.0.0.1:9/webhooks/1-gone']);
  const again = await runCli(['run', ...common(), '--profile', 'sandbox', '--vault', vault, '--suite', 'webhooks']);
  expect(again.summary!.counts.passed).toBe(r.summary!.counts.passed);
  expect(pairingsIn(vault)).toHaveLength(1);
});

test('where the vault pairing must be used, a test whose webhooks went unobserved is "not checked" in every report', async () => {
  const dir = tempDir();
  const vault = await staleVault(dir);
  const reports = join(dir, 'reports');
  // Not a sandbox: no OTP is minted, the vault's pairing is the one to use, and a person would drive the terminal.
  const r = await runCli([
    'run',
    ...common(),
    '--profile',
    'public',
    '--terminal',
    'observe',
    '--vault',
    vault,
    '--suite',
    'payment',
    '--grep',
    'approve',
    '--reports',
    reports,
  ]);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  const summary = JSON.parse(readFileSync(join(reports, 'summary.json'), 'utf8')) as {
    counts: { notChecked?: number };
    notChecked?: { test: string; what: string[] }[];
  };
  expect(summary.counts.notChecked).toBeGreaterThan(0);
  const first = summary.notChecked![0]!;
  expect(first.what[0]).toMatch(
    /^webhooks: the vault pairing's webhook_url http:\/\/127\.0\.0\.1:9\/webhooks\/1-gone is not this run's receiver/,
  );
  expect(r.stdout).toMatch(/NOT CHECKED in \d+ tests? \(first: /);
  expect(r.stdout).toContain(`✓ ${first.test}`);
  expect(readFileSync(join(reports, 'junit.xml'), 'utf8')).toContain('name="not-checked"');
  const cert = readFileSync(join(reports, 'certification.md'), 'utf8');
  expect(cert).toContain('## Not checked');
  expect(cert).toMatch(/could not observe part of what they judge/);
  expect(cert).toContain('NOT CERTIFIED');
  const results = readdirSync(join(reports, 'allure-results'))
    .filter((f) => f.endsWith('-result.json'))
    .map(
      (f) =>
        JSON.parse(readFileSync(join(reports, 'allure-results', f), 'utf8')) as {
          labels: { name: string; value: string }[];
          description?: string;
        },
    );
  const unseen = results.filter((x) => x.labels.some((l) => l.name === 'conformance' && l.value === 'not-checked'));
  expect(unseen.length).toBe(summary.counts.notChecked);
  expect(unseen[0]!.description).toContain('**Not checked**');
  // The stale pairing is the user's to keep here: nothing released, nothing lost.
  expect(pairingsIn(vault)).toHaveLength(1);
});
