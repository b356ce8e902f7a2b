/** certifyClientCommand in process: usage errors, a recording judged, a command killed at its timeout, --tls. */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { jsonLinesSink, startSimulator } from '../../simulator/index.ts';
import { CERTIFY_CLIENT_USAGE, certifyClientCommand } from './certify-client.ts';

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'pcc-cc-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function run(argv: string[], env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await certifyClientCommand(argv, env, {
    stdout: (s) => void out.push(s),
    stderr: (s) => void err.push(s),
    interactive: false,
  });
  return { code, out: out.join(''), err: err.join('') };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const POS_CLIENT = fileURLToPath(new URL('../../../examples/pos-client/', import.meta.url));
const node = (file: string) => [process.execPath, '--import', 'tsx', join(POS_CLIENT, file)];

describe('certify-client usage', () => {
  it.each([
    [['--'], /^PCC_USAGE: no command after --\n {2}fix: certify-client \[options\] -- <command>/],
    [[], /^PCC_USAGE: no command to certify\n {2}fix: /],
    [
      ['--bogus', '--', 'x'],
      /^PCC_USAGE: unknown flag --bogus\n {2}fix: run "payconnect-conformance certify-client --help" to list every flag/,
    ],
    [['--timout', '2s', '--', 'x'], /^PCC_USAGE: unknown flag --timout; did you mean --timeout\?\n {2}fix: /],
    [['--timeout', 'soon', '--', 'x'], /^PCC_USAGE: invalid --timeout "soon": not a duration\n {2}fix: write a duration/],
    [['--recording', '/nonexistent/rec.jsonl'], /^PCC_USAGE: --recording \/nonexistent\/rec.jsonl cannot be read \(ENOENT\)\n {2}fix: /],
    [['--recording', 'x', '--', 'y'], /^PCC_USAGE: both --recording and a command after -- are given\n {2}fix: /],
    [['stray'], /^PCC_USAGE: unexpected argument stray\n {2}fix: put the command after --/],
    [
      ['--tls', '--recording', 'rec.jsonl'],
      /^PCC_USAGE: --tls is given with --recording\n {2}fix: drop --tls: a recording is judged as it was made/,
    ],
    [['--disable-check', 'client.pol-rate', '--', 'x'], /^PCC_USAGE: .*client\.pol-rate.*did you mean client\.poll-rate/],
    [['--disable-check', 'response.schema', '--', 'x'], /^PCC_USAGE: .*response\.schema.*\brun\b/],
  ])('%j: one PCC_USAGE line and its fix, exit 2', async (argv, message) => {
    const r = await run(argv as string[]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
    expect(r.err.trim().split('\n')).toHaveLength(2);
    expect(r.out).toBe('');
  });

  it('--help prints the usage, exit 0', async () => {
    const r = await run(['--help']);
    expect(r).toMatchObject({ code: 0, out: `${CERTIFY_CLIENT_USAGE}\n` });
  });

  it('a recording that is not one is a usage error', async () => {
    const f = join(tmp(), 'x.jsonl');
    writeFileSync(f, '{"type":"request"}\nnot json\n');
    expect((await run(['--recording', f])).err).toMatch(/^PCC_USAGE: --recording .* line 2 is not a recording entry\n/);
  });

  it('a command that does not exist is a usage error, exit 2', async () => {
    const r = await run(['--reports', tmp(), '--no-html', '--', '/nonexistent/pos-client']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^PCC_USAGE: the command \/nonexistent\/pos-client could not be started \(ENOENT\)\n {2}fix: /);
  });
});

describe('certify-client', () => {
  it('kills a command that outlives --timeout; the run is not certified (exit 1)', async () => {
    const dir = tmp();
    const started = Date.now();
    const r = await run(['--reports', dir, '--no-html', '--timeout', '400ms', '--', process.execPath, '-e', 'setInterval(() => {}, 1000)']);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/did not finish within 0.4 s and was killed/);
    expect(r.out).toMatch(/NOT CERTIFIED/);
    expect(readFileSync(join(dir, 'certification.md'), 'utf8')).toMatch(/killed/);
  });

  it('judges a recording of a client run by hand (sim --record): a polling client without webhooks is certified', async () => {
    const dir = tmp();
    const file = join(dir, 'rec.jsonl');
    const sim = await startSimulator({ record: jsonLinesSink(file), forgeWebhook: true, stepDelayMs: 20, seed: 3 });
    const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
      const res = await fetch(`${sim.url}${path}`, {
        method,
        headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: res.status, json: (await res.json().catch(() => null)) as Record<string, string> };
    };
    const ih = { 'x-pay-connect-integrator-id': 'acme' };
    try {
      const pair = await call('POST', '/v1/pay-connect/pair/', { name: 'by hand', otp: sim.mintOtp() }, ih);
      const tok = await call('POST', '/v1/auth/token/', {
        grant_type: 'client_credentials',
        client_id: pair.json.client_id,
        client_secret: pair.json.client_secret,
      });
      const auth = { ...ih, authorization: `Bearer ${tok.json.access_token}` };
      const gen = await call('POST', '/v1/pay-connect/transactions/generate/', { amount: 1000 }, auth);
      let status = '';
      for (let wait = 250; !['SUCCESS', 'DECLINED', 'FAILED', 'EXPIRED', 'CANCELED'].includes(status); wait *= 1.5) {
        await sleep(wait);
        status = (await call('GET', `/v1/pay-connect/transactions/${gen.json.transaction_id}/status/`, undefined, auth)).json.status!;
      }
      expect((await call('GET', `/v1/pay-connect/transactions/${gen.json.transaction_id}/print-slip/`, undefined, auth)).status).toBe(200);
    } finally {
      await sim.close();
    }
    const r = await run(['--recording', file, '--reports', join(dir, 'reports'), '--no-html']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^5 requests and 0 webhook deliveries recorded$/m);
    expect(r.out).toMatch(/- client > .*\[receiver.wrong-signature-refused\]: skipped, the client gave no webhook_url at pairing/);
    expect(r.out).toMatch(/CERTIFIED: reports in /);
    const summary = JSON.parse(readFileSync(join(dir, 'reports', 'summary.json'), 'utf8'));
    expect(summary.verdict).toBe('pass');
    expect(summary.counts).toMatchObject({ tests: 9, failed: 0 });
    for (const f of ['junit.xml', 'certification.md', 'certification.html']) expect(existsSync(join(dir, 'reports', f))).toBe(true);
    const all =
      ['summary.json', 'junit.xml', 'certification.md'].map((f) => readFileSync(join(dir, 'reports', f), 'utf8')).join('\n') +
      readFileSync(file, 'utf8') +
      r.out;
    for (const s of sim.issuedSecrets()) expect(all).not.toContain(s);
  });
});

describe('certify-client --tls', () => {
  it('certifies the reference client, which trusts the CA of PAYCONNECT_CA_FILE over https://localhost', async () => {
    const dir = tmp();
    const r = await run(['--tls', '--reports', dir, '--no-html', '--', ...node('pos-client.ts')], process.env);
    expect(r.err).toBe('');
    expect(r.out).toMatch(/against the simulator at https:\/\/localhost:\d+ \(integrator id pos-client, PAYCONNECT_CA_FILE \S+\/ca\.pem,/);
    expect(r.out).toMatch(/^✓ client > connected over TLS, trusting the CA of PAYCONNECT_CA_FILE$/m);
    expect(r.out).toMatch(/^CERTIFIED: /m);
    expect(r.code).toBe(0);
    const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
    expect(summary.verdict).toBe('pass');
    expect(summary.findings).toEqual([]);
  });

  it('does not certify a client that does not trust the CA, and says the TLS handshake is why', async () => {
    const dir = tmp();
    const r = await run(['--tls', '--reports', dir, '--no-html', '--', ...node('broken/ignores-ca-file.ts')], process.env);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/client \| pos-client: unable to verify the first certificate/);
    expect(r.out).toMatch(/^0 requests and 0 webhook deliveries recorded; \d+ connections? ended in the TLS handshake$/m);
    expect(r.out).toMatch(
      new RegExp(
        String.raw`^✗ client > connected over TLS, trusting the CA of PAYCONNECT_CA_FILE\n {4}` +
          String.raw`the client made no request: .* ended in the TLS handshake: .*it must trust the CA in PAYCONNECT_CA_FILE$`,
        'm',
      ),
    );
    expect(r.out).toMatch(/^NOT CERTIFIED: /m);
    expect(readFileSync(join(dir, 'certification.md'), 'utf8')).toMatch(/TLS handshake/);
  });

  it('gives the command the https URL and PAYCONNECT_CA_FILE, and never NODE_EXTRA_CA_CERTS; a client that never connects is not certified', async () => {
    const show =
      'console.log(JSON.stringify([process.env.PAYCONNECT_BASE_URL, process.env.PAYCONNECT_CA_FILE, process.env.NODE_EXTRA_CA_CERTS ?? null]))';
    const r = await run(['--tls', '--reports', tmp(), '--no-html', '--', process.execPath, '-e', show]);
    const [url, ca, extra] = JSON.parse(/^client \| (.*)$/m.exec(r.out)![1]!) as [string, string, string | null];
    expect(url).toMatch(/^https:\/\/localhost:\d+$/);
    expect(ca).toMatch(/ca\.pem$/);
    expect(extra).toBeNull();
    expect(existsSync(ca)).toBe(false); // the throw-away CA's folder is gone with the simulator
    expect(r.code).toBe(1);
    expect(r.out).toMatch(
      /^✗ client > connected over TLS[^\n]*\n {4}the client made no request and no TLS connection reached the simulator/m,
    );
  });

  it('judges the recording of a TLS client run by hand (sim --tls --record): certified', async () => {
    const dir = tmp();
    const file = join(dir, 'rec.jsonl');
    const sim = await startSimulator({ tls: true, record: jsonLinesSink(file), forgeWebhook: true, stepDelayMs: 20 });
    try {
      await promisify(execFile)(node('pos-client.ts')[0]!, node('pos-client.ts').slice(1), {
        env: {
          ...process.env,
          PAYCONNECT_BASE_URL: sim.url,
          PAYCONNECT_INTEGRATOR_ID: 'acme',
          PAYCONNECT_OTP: sim.mintOtp(),
          PAYCONNECT_CA_FILE: sim.caFile!,
        },
      });
    } finally {
      await sim.close();
    }
    const r = await run(['--recording', file, '--reports', join(dir, 'reports'), '--no-html']);
    expect(r.err).toBe('');
    expect(r.out).toMatch(/^CERTIFIED: /m);
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'reports', 'summary.json'), 'utf8')).target).toEqual({ kind: 'recording', baseUrl: sim.url });
  });
});
