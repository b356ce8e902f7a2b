/**
 * Staging as a company network presents it, with the real parts (test/support/network-front.ts):
 * TLS from a private CA with a 1 s keep-alive, mTLS, a gateway under a path, a forward proxy that alone
 * resolves the host. What the way to the service gets wrong is exit 2 naming the cause and the fix;
 * with the right settings the run passes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type SimulatorHandle, startSimulator } from '../src/index.ts';
import { missingParts, type NetworkFront, PROXY_ONLY_HOST, startNetworkFront } from './support/network-front.ts';
import { runCli, tempDir } from './support/run-cli.ts';

let sim: SimulatorHandle;
let front: NetworkFront;
beforeAll(async () => {
  const missing = missingParts();
  if (missing.length > 0)
    throw new Error(`${missing.join(', ')} not installed: .ci/run installs them (apt-get install nginx tinyproxy openssl util-linux)`);
  sim = await startSimulator({ stepDelayMs: 20, deadlineMs: 1500 });
  front = await startNetworkFront(sim.url);
});
afterAll(async () => {
  await front?.close();
  await sim?.close();
});

/** A run of the config suite (quick) against `target`, with its own vault; no proxy from this machine's environment. */
function run(target: string, extra: string[] = [], env: NodeJS.ProcessEnv = {}, timeoutMs = 120_000) {
  return runCli(
    [
      'run',
      '--target',
      target,
      '--integrator-id',
      sim.integratorId,
      '--vault',
      join(tempDir(), 'vault.json'),
      '--no-html',
      '--deadline',
      '5s',
      '--settle',
      '100ms',
      '--terminals',
      '2',
      ...(extra.includes('--suite') ? [] : ['--suite', 'config']),
      ...extra,
    ],
    {
      env: {
        HTTPS_PROXY: undefined,
        HTTP_PROXY: undefined,
        https_proxy: undefined,
        http_proxy: undefined,
        NO_PROXY: undefined,
        no_proxy: undefined,
        NODE_EXTRA_CA_CERTS: undefined,
        ...env,
      },
      timeoutMs,
    },
  );
}

test.concurrent('TLS from a private CA, keep-alive 1 s: with --ca-file, config, payment and properties pass', async () => {
  const r = await run(
    front.tlsUrl,
    ['--ca-file', front.caFile, '--suite', 'config', '--suite', 'payment', '--suite', 'properties'],
    {},
    170_000,
  );
  expect(r.summary?.verdict, JSON.stringify(r.summary?.findings?.slice(0, 3), null, 1) + r.stderr).toBe('pass');
  expect(r.code).toBe(0);
  const connection = (r.summary as unknown as { connection: { trust: string; verification: string } }).connection;
  expect(connection).toMatchObject({ verification: 'on' });
  expect(connection.trust).toContain(front.caFile);
});

test.concurrent(
  'TLS from a private CA, keep-alive 1 s: without the CA: exit 2 naming the certificate problem and --ca-file, no report',
  async () => {
    const r = await run(front.tlsUrl);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^PCC_TARGET_TLS: the certificate of https:\/\/localhost:\d+ is not signed by a CA the toolkit trusts \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\)/,
    );
    expect(r.stderr).toContain('--ca-file');
    expect(r.summary).toBeUndefined();
  },
);

test.concurrent('TLS from a private CA, keep-alive 1 s: a host name the certificate does not list: exit 2 naming it', async () => {
  const r = await run(front.tlsUrl.replace('localhost', '127.0.0.1'), ['--ca-file', front.caFile]);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(
    /^PCC_TARGET_TLS: the certificate of https:\/\/127\.0\.0\.1:\d+ does not name that host \(ERR_TLS_CERT_ALTNAME_INVALID\)/,
  );
});

test.concurrent('TLS from a private CA, keep-alive 1 s: http:// sent to the https port: exit 2, not a finding', async () => {
  const r = await run(front.tlsUrl.replace('https:', 'http:'));
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/^PCC_TARGET_GATEWAY: .*"400 The plain HTTP request was sent to HTTPS port"/);
  expect(r.stderr).toContain('use https://');
  expect(r.summary).toBeUndefined();
});

test.concurrent(
  'TLS from a private CA, keep-alive 1 s: verification switched off is said in summary.json and the run is not certified',
  async () => {
    const r = await run(front.tlsUrl, [], { NODE_TLS_REJECT_UNAUTHORIZED: '0' });
    expect(r.code).toBe(0);
    expect((r.summary as unknown as { connection: { verification: string } }).connection.verification).toBe('off');
    expect(readFileSync(join(r.reportsDir, 'certification.md'), 'utf8')).toMatch(
      /TLS certificates were not verified \(NODE_TLS_REJECT_UNAUTHORIZED=0\)/,
    );
  },
);

test.concurrent('mTLS: passes with --client-cert and --client-key', async () => {
  const r = await run(front.mtlsUrl, ['--ca-file', front.caFile, '--client-cert', front.clientCert, '--client-key', front.clientKey]);
  expect(r.summary?.verdict, r.stderr).toBe('pass');
  expect(r.code).toBe(0);
  // The key's file is named nowhere in the reports; the certificate's is.
  expect(JSON.stringify(r.summary)).not.toContain(front.clientKey);
  expect(JSON.stringify(r.summary)).toContain(front.clientCert);
});

test.concurrent("mTLS: without a client certificate: exit 2 (the front's page), not two service failures", async () => {
  const r = await run(front.mtlsUrl, ['--ca-file', front.caFile]);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/^PCC_TARGET_GATEWAY: .*"400 No required SSL certificate was sent"/);
  expect(r.stderr).toContain('--client-cert');
});

test.concurrent('a gateway that mounts the API under a path: --target https://host:port/paycon passes', async () => {
  const r = await run(front.gatewayUrl, ['--ca-file', front.caFile, '--suite', 'config', '--suite', 'payment']);
  expect(r.summary?.verdict, JSON.stringify(r.summary?.findings?.slice(0, 3), null, 1) + r.stderr).toBe('pass');
  expect(r.summary?.target.baseUrl).toBe(front.gatewayUrl);
  expect(r.code).toBe(0);
});

test.concurrent(
  'a gateway path does not switch the contract off: a spec defect under /paycon fails as at the root, with the same coverage',
  async () => {
    const faulty = await startSimulator({ stepDelayMs: 20, deadlineMs: 1500, faults: ['slip.amount-as-string'] });
    const gateway = await startNetworkFront(faulty.url);
    try {
      const common = [
        '--integrator-id',
        faulty.integratorId,
        '--no-html',
        '--deadline',
        '5s',
        '--settle',
        '100ms',
        '--terminals',
        '2',
        '--seed',
        '7',
        '--suite',
        'print-slip',
      ];
      const [under, root] = await Promise.all([
        runCli(['run', '--target', gateway.gatewayUrl, '--ca-file', gateway.caFile, '--vault', join(tempDir(), 'vault.json'), ...common], {
          env: { HTTPS_PROXY: undefined, https_proxy: undefined },
          timeoutMs: 120_000,
        }),
        runCli(['run', '--target', faulty.url, '--vault', join(tempDir(), 'vault.json'), ...common], { timeoutMs: 120_000 }),
      ]);
      for (const [where, r] of [
        ['under /paycon', under],
        ['at the root', root],
      ] as const) {
        expect(r.code, `${where}: ${r.stderr}`).toBe(1);
        expect(
          r.summary?.findings.map((f) => f.check),
          where,
        ).toContain('response.schema');
      }
      const coverage = (dir: string) =>
        (JSON.parse(readFileSync(join(dir, 'coverage.json'), 'utf8')) as { summary: Record<string, { covered: number }> }).summary;
      expect(coverage(under.reportsDir).operations!.covered).toBeGreaterThan(0);
      expect(coverage(under.reportsDir).operations).toEqual(coverage(root.reportsDir).operations);
      expect(coverage(under.reportsDir).statuses2xx).toEqual(coverage(root.reportsDir).statuses2xx);
    } finally {
      await gateway.close();
      await faulty.close();
    }
  },
);

test.concurrent(
  `a forward proxy: a host only the proxy resolves (${PROXY_ONLY_HOST}) passes with HTTPS_PROXY, and the proxy saw the CONNECTs`,
  async () => {
    const r = await run(front.proxyOnlyUrl, ['--ca-file', front.caFile], { HTTPS_PROXY: front.proxyUrl });
    expect(r.summary?.verdict, r.stderr).toBe('pass');
    expect(r.code).toBe(0);
    expect(front.proxyLog()).toMatch(new RegExp(`CONNECT ${PROXY_ONLY_HOST.replaceAll('.', '\\.')}:\\d+`));
    expect(r.summary?.connection?.proxy?.https).toBe(front.proxyUrl);
  },
);

test.concurrent('a forward proxy in the environment that a loopback target does not go through is not named in the reports', async () => {
  const r = await run(front.tlsUrl, ['--ca-file', front.caFile], { HTTPS_PROXY: front.proxyUrl });
  expect(r.code, r.stderr).toBe(0);
  expect(r.summary?.connection?.trust).toContain(front.caFile);
  expect(r.summary?.connection?.proxy).toBeUndefined();
  expect(readFileSync(join(r.reportsDir, 'certification.md'), 'utf8')).not.toContain('proxy');
});

test.concurrent('a forward proxy: without the proxy the host does not resolve: exit 2 with the hint to set HTTPS_PROXY', async () => {
  const r = await run(front.proxyOnlyUrl, ['--ca-file', front.caFile]);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/^PCC_TARGET_UNREACHABLE: .* did not answer \((ENOTFOUND|EAI_AGAIN)\)/);
  expect(r.stderr).toContain('HTTPS_PROXY');
});

test.concurrent('a forward proxy: a proxy that is not there: exit 2 naming the proxy', async () => {
  const r = await run(front.proxyOnlyUrl, ['--ca-file', front.caFile, '--proxy', 'http://127.0.0.1:9']);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/^PCC_PROXY: the proxy http:\/\/127\.0\.0\.1:9 could not be reached \(ECONNREFUSED\)/);
});

test.concurrent("a forward proxy: a port the proxy does not tunnel to: exit 2 naming the proxy's refusal", async () => {
  const port = new URL(sim.url).port;
  const r = await run(`https://${PROXY_ONLY_HOST}:${port}`, ['--ca-file', front.caFile, '--proxy', front.proxyUrl]);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/^PCC_PROXY: the proxy http:\/\/127\.0\.0\.1:\d+ refused to connect to it \(403/);
});

/** Another command of the toolkit, with no proxy or CA from this machine's environment. */
function cli(args: string[], env: NodeJS.ProcessEnv = {}) {
  return runCli(args, {
    env: {
      HTTPS_PROXY: undefined,
      HTTP_PROXY: undefined,
      https_proxy: undefined,
      http_proxy: undefined,
      NO_PROXY: undefined,
      no_proxy: undefined,
      NODE_EXTRA_CA_CERTS: undefined,
      ...env,
    },
    timeoutMs: 120_000,
  });
}

test.concurrent('the other commands: verify-pacts through the mTLS front (the Pact core goes through the loopback forwarder)', async () => {
  const otps = ['204101', '204102', '204103', '204104', '204105'].flatMap((o) => ['--otp', o]);
  const r = await cli([
    'verify-pacts',
    '--target',
    front.mtlsUrl,
    '--integrator-id',
    sim.integratorId,
    '--vault',
    join(tempDir(), 'vault.json'),
    '--deadline',
    '5s',
    '--ca-file',
    front.caFile,
    '--client-cert',
    front.clientCert,
    '--client-key',
    front.clientKey,
    ...otps,
  ]);
  expect(r.stdout + r.stderr).toMatch(/^PASS: \d+ interactions verified/m);
  expect(r.code).toBe(0);
});

test.concurrent(
  'the other commands: pair warns without --webhook-url; check-receiver names an untrusted CA (exit 2), not the receiver',
  async () => {
    const paired = await cli([
      'pair',
      '--target',
      front.tlsUrl,
      '--integrator-id',
      sim.integratorId,
      '--otp',
      '204201',
      '--vault',
      join(tempDir(), 'vault.json'),
      '--ca-file',
      front.caFile,
    ]);
    expect(paired.code, paired.stderr).toBe(0);
    expect(paired.stdout).toMatch(/^paired terminal /);
    expect(paired.stderr).toMatch(/^warning: paired without --webhook-url: .*not checked/);
    const receiver = await cli(['check-receiver', '--url', `${front.tlsUrl}/hook`, '--no-html', '--reports', tempDir()], {
      PAYCONNECT_WEBHOOK_SECRET: 'k'.repeat(32),
    });
    expect(receiver.code).toBe(2);
    expect(receiver.stderr).toMatch(
      /^PCC_TARGET_TLS: the certificate of https:\/\/localhost:\d+ is not signed by a CA the toolkit trusts/m,
    );
  },
);
