/**
 * No secret reaches an output: after a whole conformance run, stdout, stderr, every file under the
 * reports folder (the transcript unzipped, the signed certificate's payload decoded) and the pact files are searched for
 * every client secret, access token and webhook key the service handed out during the run, and for the signing key. None
 * may be found.
 */
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type SimulatorHandle, startSimulator } from '../src/index.ts';
import { ROOT, runCli, tempDir } from './support/run-cli.ts';

let sim: SimulatorHandle;
beforeAll(async () => {
  sim = await startSimulator({ stepDelayMs: 20, deadlineMs: 1500 });
});
afterAll(() => sim.close());

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

test('a whole run leaks no client secret, access token or webhook key', async () => {
  const dir = tempDir();
  const vault = join(dir, 'vault.json');
  const signing = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  writeFileSync(join(dir, 'signing.pem'), signing, { mode: 0o600 });
  const r = await runCli(
    [
      'run',
      '--target',
      sim.url,
      '--integrator-id',
      sim.integratorId,
      '--profile',
      'sandbox',
      '--vault',
      vault,
      '--deadline',
      '5s',
      '--settle',
      '100ms',
      '--runs',
      '5',
      '--sign-key',
      join(dir, 'signing.pem'),
    ],
    { timeoutMs: 300_000 },
  );
  expect(r.summary, r.stderr).toBeDefined();
  // The service's secrets, and the signing key's PEM body.
  const secrets = [...sim.issuedSecrets(), signing.split('\n')[1]!];
  // The run paired, took tokens and received webhook keys: there is something to look for.
  expect(secrets.length).toBeGreaterThan(3);
  const outputs: [string, string][] = [
    ['stdout', r.stdout],
    ['stderr', r.stderr],
  ];
  const searched = [...files(r.reportsDir), ...files(join(ROOT, 'contracts', 'pacts')).filter((f) => f.endsWith('.json'))];
  // The transcript is gzip'd: searched as the text it holds.
  for (const f of searched) outputs.push([f, f.endsWith('.gz') ? gunzipSync(readFileSync(f)).toString('utf8') : readFileSync(f, 'latin1')]);
  // The certificate's statement is base64 in its envelope: searched decoded.
  const certificate = searched.find((f) => f.endsWith('certificate.intoto.json'));
  expect(certificate).toBeDefined();
  outputs.push([
    'certificate payload',
    Buffer.from((JSON.parse(readFileSync(certificate!, 'utf8')) as { payload: string }).payload, 'base64').toString('utf8'),
  ]);
  expect(searched.some((f) => f.endsWith('summary.json'))).toBe(true);
  expect(searched.some((f) => f.endsWith('transcript.jsonl.gz'))).toBe(true);
  const leaks = outputs.flatMap(([where, text]) => secrets.filter((s) => text.includes(s)).map((s) => `${where}: ${s.slice(0, 4)}…`));
  expect(leaks).toEqual([]);
}, 320_000);
