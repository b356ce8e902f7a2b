/**
 * `run --target pact`: the suites that fit a stateless mock run against the Pact mock, pass, and the
 * run writes the very pact file the consumer suite commits.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { PACT_FILE_NAME } from '../src/pact/index.ts';
import { ROOT, runCli, tempDir } from './support/run-cli.ts';

test('run --target pact passes and writes the committed pact byte for byte', async () => {
  const r = await runCli(['run', '--target', 'pact', '--no-html']);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  expect(r.summary?.counts.passed).toBeGreaterThan(0);
  expect(r.summary?.counts.failed).toBe(0);
  // Every suite of the issue is in junit.xml with tests that ran; each skip says why.
  const junit = readFileSync(join(r.reportsDir, 'junit.xml'), 'utf8');
  const suites = new Map(
    [...junit.matchAll(/<testsuite name="([^"]+)" tests="(\d+)" failures="(\d+)" errors="(\d+)" skipped="(\d+)"/g)].map((m) => [
      m[1]!,
      { tests: Number(m[2]), failures: Number(m[3]), errors: Number(m[4]), skipped: Number(m[5]) },
    ]),
  );
  for (const suite of ['pairing', 'auth', 'config', 'payment', 'cancel', 'preauth', 'print-slip', 'refund', 'isolation', 'webhooks']) {
    const s = suites.get(suite);
    expect(s, `${suite} in junit.xml`).toBeDefined();
    expect(s!.tests - s!.skipped, `${suite}: tests that ran`).toBeGreaterThan(0);
    expect(s!.failures + s!.errors, `${suite}: failures`).toBe(0);
  }
  const skips = [...junit.matchAll(/<skipped( message="([^"]*)")?\s*\/?>/g)];
  expect(skips.length).toBe(r.summary?.counts.skipped);
  for (const m of skips) expect((m[2] ?? '').trim().length, `a skip gives its reason: ${m[0]}`).toBeGreaterThan(20);
  expect(r.stdout).toMatch(/- cancel > cancel while INITIATED .* not against the Pact mock: .*sequence of states/);
  expect(r.stdout).toMatch(/- pairing > the OTP is one-time: .* not against the Pact mock: one-time use spans two calls/);
  expect(r.stdout).toMatch(/✓ auth > getConfig: with an invalid bearer token/);
  expect(r.stdout).toMatch(/✓ pairing > a malformed or never-valid OTP is refused: never valid: 000000/);
  // The payment suite's schema-breaking bodies each meet a 400 interaction of their own.
  for (const what of ['amount 0', 'amount -1', 'amount 1.5', 'an amount given as a string', 'a missing amount']) {
    expect(r.stdout).toContain(`✓ payment > generate refuses ${what} with 400 and starts nothing`);
  }
  // Webhooks: the message pact's contents, posted signed by the mock's front, judged by the webhook checks.
  expect(r.stdout).toMatch(/✓ webhooks > signed deliveries post every status change: decline/);
  expect(r.stdout).toMatch(/✓ webhooks > operation status changes are posted/);
  expect(r.stdout).toMatch(/- webhooks > a delivery answered 500 is retried .* not against the Pact mock: retries/);
  const evidence = readFileSync(join(r.reportsDir, 'summary.json'), 'utf8');
  expect(evidence).not.toContain('example-webhook-key');
  const written = readFileSync(join(r.reportsDir, 'pacts', PACT_FILE_NAME), 'utf8');
  expect(written).toBe(readFileSync(join(ROOT, 'contracts', 'pacts', PACT_FILE_NAME), 'utf8'));
}, 170_000);

test('run --target pact refuses a suite a stateless mock cannot serve, saying why', async () => {
  const r = await runCli(['run', '--target', 'pact', '--suite', 'stateful', '--no-html']);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/PCC_USAGE: suite stateful cannot run against the Pact mock: .*sequences of states/);
}, 60_000);

test('a busy --webhook-listen port is one usage error, before anything runs, and writes nothing (pact and sim)', async () => {
  const holder = createServer();
  await new Promise<void>((r) => holder.listen(0, '127.0.0.1', () => r()));
  const port = (holder.address() as AddressInfo).port;
  try {
    for (const target of ['pact', 'sim']) {
      const reports = join(tempDir(), 'reports');
      const r = await runCli([
        'run',
        '--target',
        target,
        '--suite',
        'config',
        '--no-html',
        '--reports',
        reports,
        '--webhook-listen',
        `127.0.0.1:${port}`,
      ]);
      expect(r.code, `${target}: ${r.stdout}${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(
        new RegExp(
          `^PCC_WEBHOOK_LISTEN: the webhook receiver cannot listen on 127\\.0\\.0\\.1:${port} \\(EADDRINUSE\\)\\n  fix: pass another --webhook-listen`,
        ),
      );
      expect(r.stdout).not.toMatch(/[✓✗]/);
      expect(readdirSync(reports), `${target}: nothing written`).toEqual([]);
    }
  } finally {
    await new Promise<void>((r) => holder.close(() => r()));
  }
}, 60_000);
