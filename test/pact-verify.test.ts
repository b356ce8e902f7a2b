/**
 * `verify-pacts`: the committed pact verifies against the embedded simulator; a fault that changes a
 * response shape fails the verification and the report names the interaction it broke.
 *
 * The tests share nothing (each its own pact file, vault, simulator or port) and mostly wait on their
 * child's verification: they run at once (vitest's five at a time), not one after the other.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest, createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { PACT_FILE_NAME } from '../src/pact/index.ts';
import { ROOT, runCli, tempDir } from './support/run-cli.ts';
import { startSimProcess } from './support/sim-process.ts';

interface PactInteraction {
  description: string;
  type: string;
}

/** The committed pact cut to the interactions `keep` selects, in a file of its own. */
function pactOf(keep: (i: PactInteraction) => boolean): { file: string; interactions: PactInteraction[] } {
  const pact = JSON.parse(readFileSync(join(ROOT, 'contracts', 'pacts', PACT_FILE_NAME), 'utf8')) as { interactions: PactInteraction[] };
  pact.interactions = pact.interactions.filter(keep);
  const file = join(tempDir(), 'pact.json');
  writeFileSync(file, JSON.stringify(pact));
  return { file, interactions: pact.interactions };
}

test.concurrent(
  'verify-pacts --target sim passes every interaction of the committed pact',
  async () => {
    const r = await runCli(['verify-pacts', '--target', 'sim']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/PASS: \d+ interactions verified/);
    expect(r.stdout).toContain('✓ generate a payment the terminal ends SUCCESS (given a paired terminal)');
    expect(r.stdout).toContain('✓ [message] a transaction.success webhook');
    // The Pact core's own report (it prints compared bodies) never reaches the terminal.
    expect(r.stdout).not.toContain('Verifying a pact between');
  },
  120_000,
);

test.concurrent(
  'generate.missing-transaction-id fails verification and names the generate interactions',
  async () => {
    // The generate interactions alone: the others' verdicts under this fault are not what is shown here.
    const { file } = pactOf((i) => i.description.startsWith('generate '));
    const r = await runCli(['verify-pacts', '--target', 'sim', '--pact', file, '--sim-fault', 'generate.missing-transaction-id']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(
      /✗ generate a payment the terminal ends SUCCESS \(given a paired terminal\)\n\s+Actual map is missing the following keys: transaction_id/,
    );
    expect(r.stdout).toMatch(/^FAIL: \d+ of \d+ interactions failed: .*generate a payment the terminal ends SUCCESS/m);
  },
  120_000,
);

test.concurrent(
  'faults the flow scenarios meet fail the interactions that depend on them, and only them',
  async () => {
    const r = await runCli([
      'verify-pacts',
      '--target',
      'sim',
      '--sim-fault',
      'cancel.final-accepted',
      '--sim-fault',
      'generate.accepts-zero-amount',
    ]);
    expect(r.code, r.stderr).toBe(1);
    const failed = [...r.stdout.matchAll(/^ {2}✗ (.+?) \(given/gm)].map((m) => m[1]).sort();
    // The payment suite's probes are interactions too: the two amounts the fault accepts fail, 1.5 and the rest hold.
    expect(failed).toEqual([
      'cancel of a declined transaction is refused',
      'cancel of a successful transaction is refused',
      'generate with amount -1 is refused',
      'generate with amount 0 is refused',
    ]);
  },
  120_000,
);

/**
 * Faults in three areas at once (one verification run instead of three): each fails the interactions
 * that depend on it, and every failed interaction is one of those.
 */
test.concurrent(
  'slip, auth and pairing faults each fail the interactions that depend on them, and only them',
  async () => {
    const r = await runCli([
      'verify-pacts',
      '--target',
      'sim',
      '--sim-fault',
      'slip.missing-digital-slip',
      '--sim-fault',
      'auth.invalid-token-accepted',
      '--sim-fault',
      'auth.any-secret-accepted',
      '--sim-fault',
      'pair.bad-otp-401',
      '--sim-fault',
      'pair.name-not-echoed',
      '--sim-fault',
      'pair.otp-reuse',
    ]);
    expect(r.code, r.stderr).toBe(1);
    const failed = [...r.stdout.matchAll(/^ {2}✗ (.+?) \(given/gm)].map((m) => m[1]!);
    const slip = failed.filter((d) => d.startsWith('fetch the print slip'));
    const auth = failed.filter(
      (d) =>
        / with an invalid bearer token is refused$/.test(d) || d === 'exchange client credentials with a wrong client_secret is refused',
    );
    const pairing = failed.filter(
      (d) =>
        d.startsWith('pair with a malformed or never-valid OTP is refused: ') ||
        d.startsWith('pair without a webhook URL: the name') ||
        d === 'pair with a one-time password already used is refused',
    );
    expect(slip.length + auth.length + pairing.length, failed.join('\n')).toBe(failed.length);
    // slip.missing-digital-slip: the print slip interactions, named by the field they miss.
    expect(slip.length).toBeGreaterThan(0);
    expect(r.stdout).toContain('digital_slip');
    // The auth faults: the invalid-token probes and the wrong secret.
    expect(auth).toContain('getConfig with an invalid bearer token is refused');
    expect(auth).toContain('exchange client credentials with a wrong client_secret is refused');
    // The probe token reached the simulator as the probe's own, never as the pairing's.
    expect(r.stdout).not.toMatch(/[✗~-] getConfig without a bearer token/);
    // The pairing faults: the six OTP probes, the echoed name, and the OTP used twice.
    expect(pairing.filter((d) => d.startsWith('pair with a malformed or never-valid OTP is refused: '))).toHaveLength(6);
    expect(pairing).toContain('pair without a webhook URL: the name, of spaces, punctuation and non-ASCII letters, is echoed exactly');
    expect(pairing).toContain('pair with a one-time password already used is refused');
  },
  120_000,
);

test.concurrent(
  '--webhook-public-url: the receivers are slots of one hub on --webhook-listen, reached through that URL',
  async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    // A loopback "tunnel": the public URL is the hub's own address. The interactions that need a
    // delivery (the webhook messages) are the ones the hub's routing decides; the rest pass above.
    const { file, interactions } = pactOf((i) => i.type === 'Asynchronous/Messages');
    expect(interactions.length).toBeGreaterThan(10);
    const r = await runCli([
      'verify-pacts',
      '--target',
      'sim',
      '--pact',
      file,
      '--webhook-listen',
      `127.0.0.1:${port}`,
      '--webhook-public-url',
      `http://localhost:${port}`,
    ]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain(`PASS: ${interactions.length} interactions verified`);
    expect(r.stdout).toContain('✓ [message] a transaction.success webhook');
    const alone = await runCli(['verify-pacts', '--target', 'sim', '--webhook-public-url', 'https://tunnel.example']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(/PCC_USAGE: --webhook-public-url needs the port its tunnel forwards to/);
  },
  120_000,
);

test.concurrent(
  'verify-pacts refuses --sim-fault with a URL target and an unknown fault',
  async () => {
    const url = await runCli(['verify-pacts', '--target', 'http://127.0.0.1:9', '--integrator-id', 'x', '--sim-fault', 'slow']);
    expect(url.code).toBe(2);
    // Resolved as run resolves it: the conflict names both flags and the fix.
    expect(url.stderr).toMatch(
      /^PCC_USAGE: sim.faults \["slow"\] \(from flag --sim-fault\) and target .*: simulator settings apply to --target sim only\n  fix: /,
    );
    const unknown = await runCli(['verify-pacts', '--sim-fault', 'no.such-fault']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('PCC_CONFIG_INVALID');
  },
  60_000,
);

test.concurrent(
  'verify-pacts against a URL says at once how many OTPs it needs, and loses nothing',
  async () => {
    const sim = await startSimProcess(['--step-delay', '20']);
    try {
      const dir = tempDir();
      const vault = join(dir, 'vault.json');
      const none = await runCli(['verify-pacts', '--target', sim.url, '--integrator-id', sim.integratorId, '--vault', vault]);
      expect(none.code, none.stdout + none.stderr).toBe(2);
      expect(none.stderr).toMatch(
        /PCC_USAGE: verify-pacts against \S+ needs 5 unused OTPs \(1 for its own pairing .*, 4 for the interactions that pair or unpair afresh\); 0 given/,
      );
      expect(none.stderr).toContain('pass --otp <six digits> once per OTP');
      expect(none.stdout).not.toContain('✗');
      expect(existsSync(vault)).toBe(false);
      // Three given still fall short; the message counts them.
      const three = await runCli([
        'verify-pacts',
        '--target',
        sim.url,
        '--integrator-id',
        sim.integratorId,
        '--vault',
        vault,
        '--otp',
        '234561',
        '--otp',
        '345612',
        '--otp',
        '456123',
      ]);
      expect(three.code).toBe(2);
      expect(three.stderr).toMatch(/needs 5 unused OTPs .*; 3 given/);
    } finally {
      await sim.stop();
    }
  },
  60_000,
);

/**
 * The documents leave the status of a wrong client_secret open (400 or 401): the pact's interaction
 * passes a provider answering either, and fails one answering 200 or 500. The simulator answers 401
 * and has no fault that answers 400, so a loopback provider in front of a `sim` process answers the
 * wrong secret itself and passes everything else through.
 */
test.concurrent(
  'the wrong client_secret interaction passes a provider answering 400 or 401, and fails 200 or 500',
  async () => {
    const description = 'exchange client credentials with a wrong client_secret is refused';
    const dir = tempDir();
    const { file, interactions } = pactOf((i) => i.description === description);
    expect(interactions).toHaveLength(1);

    const answers: Record<string, [number, unknown] | undefined> = {
      // RFC 6749 5.2's error code beside the sandbox's detail.
      400: [400, { error: 'invalid_client', detail: 'Client authentication failed.' }],
      401: undefined, // the simulator's own answer
      200: [200, { access_token: 'pcc-wrongly-issued', expires_in: '3600', token_type: 'Bearer', scope: 'default' }],
      500: [500, { detail: 'Internal server error.' }],
    };
    let mode = '401';
    const sim = await startSimProcess(['--step-delay', '20']);
    const proxy = createHttpServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const answer = answers[mode];
        if (answer && req.method === 'POST' && req.url === '/v1/auth/token/' && body.toString().includes('-not-the-secret"')) {
          res.writeHead(answer[0], { 'content-type': 'application/json' }).end(JSON.stringify(answer[1]));
          return;
        }
        const up = httpRequest(new URL(req.url ?? '/', sim.url), { method: req.method, headers: req.headers }, (r) => {
          res.writeHead(r.statusCode ?? 502, r.headers);
          r.pipe(res);
        });
        up.on('error', (e) => res.writeHead(502).end(String(e)));
        up.end(body);
      });
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    try {
      const verify = (status: string, otp: string) => {
        mode = status;
        return runCli([
          'verify-pacts',
          '--target',
          url,
          '--integrator-id',
          sim.integratorId,
          '--pact',
          file,
          '--otp',
          otp,
          '--vault',
          join(dir, `vault-${status}.json`),
        ]);
      };
      for (const [status, otp] of [
        ['400', '243561'],
        ['401', '243562'],
      ] as const) {
        const r = await verify(status, otp);
        expect(r.code, `${status}: ${r.stdout}${r.stderr}`).toBe(0);
        expect(r.stdout).toContain(`✓ ${description} (given a paired terminal)`);
      }
      for (const [status, otp] of [
        ['200', '243563'],
        ['500', '243564'],
      ] as const) {
        const r = await verify(status, otp);
        expect(r.code, `${status}: ${r.stdout}${r.stderr}`).toBe(1);
        expect(r.stdout).toMatch(
          new RegExp(`✗ ${description} \\(given a paired terminal\\)\\n(?:\\s+.*\\n)*?\\s+Expected status code ${status} to be a 400, 401`),
        );
      }
    } finally {
      await new Promise<void>((r) => proxy.close(() => r()));
      await sim.stop();
    }
  },
  120_000,
);
