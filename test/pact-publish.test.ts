/**
 * `publish-pacts` against a loopback Pact Broker: the requests it makes (PUT of the pact, the branch
 * version), with the broker credentials in the Authorization header and nowhere else.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { PACT_FILE_NAME } from '../src/pact/index.ts';
import { main } from '../src/cli/main.ts';
import { ROOT } from './support/run-cli.ts';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}
const seen: Seen[] = [];
let answer = 201;
let broker: ReturnType<typeof createServer>;
let url: string;
const pactFile = join(ROOT, 'contracts', 'pacts', PACT_FILE_NAME);

beforeAll(async () => {
  broker = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(answer, { 'content-type': 'application/hal+json' });
      res.end(JSON.stringify(answer < 300 ? { _links: {} } : { error: `refused, you sent ${req.headers.authorization}` }));
    });
  });
  await new Promise<void>((r) => broker.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(broker.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => broker.close(() => r())));
beforeEach(() => {
  seen.length = 0;
  answer = 201;
});

async function cli(argv: string[], env: NodeJS.ProcessEnv) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, env, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), interactive: false });
  return { code, stdout, stderr };
}

test('PUTs the pact to /pacts/provider/{p}/consumer/{c}/version/{v} and the branch version, with the bearer token', async () => {
  const token = 'broker-token-do-not-print-0123456789';
  const r = await cli(['publish-pacts', '--broker-url', `${url}/`, '--consumer-version', '1.2.3+abc', '--branch', 'feat/pacts'], {
    PACT_BROKER_TOKEN: token,
  });
  expect(r.code, r.stderr).toBe(0);
  expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([
    'PUT /pacticipants/payconnect-conformance/branches/feat%2Fpacts/versions/1.2.3%2Babc',
    'PUT /pacts/provider/pay-connect/consumer/payconnect-conformance/version/1.2.3%2Babc',
  ]);
  for (const s of seen) {
    expect(s.headers.authorization).toBe(`Bearer ${token}`);
    expect(s.headers['content-type']).toBe('application/json');
  }
  expect(seen[1]!.body).toBe(readFileSync(pactFile, 'utf8'));
  expect(r.stdout + r.stderr).not.toContain(token);
  expect(r.stdout).toContain('published payconnect-conformance -> pay-connect version 1.2.3+abc');
});

test('basic auth from PACT_BROKER_USERNAME / PACT_BROKER_PASSWORD; no branch request without --branch', async () => {
  const r = await cli(['publish-pacts', '--broker-url', url, '--consumer-version', '7', '--pact', pactFile], {
    PACT_BROKER_USERNAME: 'ci',
    PACT_BROKER_PASSWORD: 'pw-not-to-print-42',
  });
  expect(r.code, r.stderr).toBe(0);
  expect(seen).toHaveLength(1);
  expect(seen[0]!.headers.authorization).toBe(`Basic ${Buffer.from('ci:pw-not-to-print-42').toString('base64')}`);
  expect(r.stdout + r.stderr).not.toContain('pw-not-to-print-42');
});

test('a refusal names the status and never repeats the credentials, even when the broker echoes them', async () => {
  answer = 401;
  const token = 'echoed-token-0123456789abcdef';
  const r = await cli(['publish-pacts', '--broker-url', url, '--consumer-version', '1'], { PACT_BROKER_TOKEN: token });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('PCC_PACT: the broker answered 401');
  expect(r.stderr).toContain('PACT_BROKER_TOKEN');
  expect(r.stderr).not.toContain(token);
});

test('credentials in --broker-url are refused', async () => {
  const r = await cli(['publish-pacts', '--broker-url', 'https://u:secret-in-url@broker.example', '--consumer-version', '1'], {});
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('--broker-url carries credentials');
  expect(r.stderr).not.toContain('secret-in-url');
  expect(seen).toHaveLength(0);
});
