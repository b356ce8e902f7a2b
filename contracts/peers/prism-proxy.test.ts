/**
 * The contract read by a tool the toolkit does not own: Stoplight Prism's validating proxy stands in
 * front of the embedded simulator, and real exchanges pass through it (pairing, token, configuration,
 * a payment polled to its end and its print slip, a preauthorization with an increment polled to its
 * end, and requests the sandbox refuses). Prism checks every request and answer against
 * contracts/pay-connect.openapi.yaml with its own validator; it must report no violation.
 *
 * Where the contract says string, a null is off the contract: Prism refuses such a request itself
 * (422, not forwarded), and the simulator, asked directly, refuses it too (400 naming the field).
 *
 * The detector is shown to work on every run: the same proxy, with the simulator switched to a fault
 * that breaks a response schema (`token.expires-in-number`), must report a violation.
 *
 * Plain undici requests, not the toolkit's client: nothing of the harness sits between the two.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type SimulatorHandle, startSimulator } from '../../src/simulator/index.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CONTRACT = 'contracts/pay-connect.openapi.yaml';
const PRISM = `${ROOT}node_modules/@stoplight/prism-cli/dist/index.js`;
/** The contract's example integrator id: the simulator pairs with any non-empty id. */
const INTEGRATOR = 'integrator-0042';

interface Seen {
  label: string;
  method: string;
  path: string;
  status: number;
  violations: string | undefined;
  body: unknown;
}

let sim: SimulatorHandle;
let prism: ChildProcess;
let proxyUrl: string;
let output = '';

/** A port nothing listens on now (Prism takes a port number; it cannot report the one it got for 0). */
async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

async function startPrism(upstream: string): Promise<void> {
  const port = await freePort();
  proxyUrl = `http://127.0.0.1:${port}`;
  prism = spawn(process.execPath, [PRISM, 'proxy', CONTRACT, upstream, '--errors', '--host', '127.0.0.1', '--port', String(port)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  prism.stdout!.setEncoding('utf8').on('data', (s: string) => (output += s));
  prism.stderr!.setEncoding('utf8').on('data', (s: string) => (output += s));
  const deadline = Date.now() + 20_000;
  while (!output.includes('Prism is listening')) {
    if (prism.exitCode !== null) throw new Error(`Prism exited (${prism.exitCode}):\n${output}`);
    if (Date.now() > deadline) throw new Error(`Prism did not start within 20 s:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** One exchange through the proxy. */
async function send(
  label: string,
  method: 'GET' | 'POST',
  path: string,
  opts: { token?: string; integrator?: string | null; body?: unknown } = {},
): Promise<Seen> {
  const headers: Record<string, string> = {};
  if (opts.integrator !== null) headers['x-pay-connect-integrator-id'] = opts.integrator ?? INTEGRATOR;
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await request(`${proxyUrl}${path}`, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.body.text();
  let body: unknown = text;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    // left as text: the assertions show it
  }
  const violations = res.headers['sl-violations'];
  return { label, method, path, status: res.statusCode, violations: Array.isArray(violations) ? violations.join() : violations, body };
}

const field = (s: Seen, key: string) => String((s.body as Record<string, unknown>)[key]);

/** Polls a record through the proxy until its status is final (a handful of polls at the simulator's pace). */
async function pollFinal(seen: Seen[], label: string, path: string, token: string, final: readonly string[]): Promise<Seen> {
  for (let i = 0; i < 100; i++) {
    const s = await send(`${label} (poll ${i + 1})`, 'GET', path, { token });
    seen.push(s);
    if (s.status !== 200 || final.includes(field(s, 'status'))) return s;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`${path} did not reach ${final.join('/')} in 100 polls`);
}

/** Prism's log lines that report a violation or a request it refused. */
const complaints = (log: string) => log.split('\n').filter((l) => /violation|✖|\berror\b/i.test(l));

beforeAll(async () => {
  sim = await startSimulator({ port: 0, host: '127.0.0.1', seed: 24, stepDelayMs: 5 });
  await startPrism(sim.url);
}, 30_000);

afterAll(async () => {
  if (prism && prism.exitCode === null) {
    prism.kill('SIGTERM');
    await once(prism, 'exit');
  }
  await sim?.close();
});

describe("Prism's validating proxy in front of the simulator", () => {
  test('a run of real exchanges: Prism reports 0 violations', async () => {
    const seen: Seen[] = [];
    const add = async (p: Promise<Seen>) => {
      const s = await p;
      seen.push(s);
      return s;
    };
    const otp = sim.mintOtp();
    const paired = await add(send('pair', 'POST', '/v1/pay-connect/pair/', { body: { name: 'prism proxy', otp } }));
    expect(paired.status, JSON.stringify(paired.body)).toBe(200);
    const token = field(
      await add(
        send('token', 'POST', '/v1/auth/token/', {
          integrator: null,
          body: { grant_type: 'client_credentials', client_id: field(paired, 'client_id'), client_secret: field(paired, 'client_secret') },
        }),
      ),
      'access_token',
    );
    await add(send('configuration', 'GET', '/v1/pay-connect/config/', { token }));

    const created = await add(
      send('generate', 'POST', '/v1/pay-connect/transactions/generate/', {
        token,
        body: { amount: 1250, client_transaction_id: 'prism-1', payment_method: 'CARD' },
      }),
    );
    const tx = field(created, 'transaction_id');
    const done = await pollFinal(seen, 'status', `/v1/pay-connect/transactions/${tx}/status/`, token, [
      'SUCCESS',
      'DECLINED',
      'FAILED',
      'EXPIRED',
      'CANCELED',
    ]);
    expect(field(done, 'status')).toBe('SUCCESS');
    await add(send('print slip', 'GET', `/v1/pay-connect/transactions/${tx}/print-slip/`, { token }));

    const preauth = field(
      await add(send('preauth', 'POST', '/v1/pay-connect/transactions/preauth/', { token, body: { amount: 10000 } })),
      'transaction_id',
    );
    await pollFinal(seen, 'preauth status', `/v1/pay-connect/transactions/${preauth}/status/`, token, [
      'SUCCESS',
      'DECLINED',
      'FAILED',
      'EXPIRED',
      'CANCELED',
    ]);
    const op = field(
      await add(
        send('increment', 'POST', `/v1/pay-connect/transaction-operations/${preauth}/preauth-increment/`, {
          token,
          body: { amount: 2000 },
        }),
      ),
      'operation_id',
    );
    const opDone = await pollFinal(seen, 'operation', `/v1/pay-connect/transaction-operations/${op}/`, token, [
      'SUCCESS',
      'FAILED',
      'EXPIRED',
    ]);
    expect((opDone.body as { metadata?: unknown }).metadata).toEqual({ amount: 2000 });

    // Requests the schema allows and the sandbox refuses: each gets a documented error answer.
    await add(
      send('a payment method the configuration lacks', 'POST', '/v1/pay-connect/transactions/generate/', {
        token,
        body: { amount: 1250, payment_method: 'CASH' },
      }),
    );
    await add(send('an unknown transaction id', 'GET', '/v1/pay-connect/transactions/tx_unknown/status/', { token }));
    await add(send('another integrator id', 'GET', '/v1/pay-connect/config/', { token, integrator: `${INTEGRATOR}-other` }));
    await add(send('the OTP 000000', 'POST', '/v1/pay-connect/pair/', { body: { name: 'prism proxy', otp: '000000' } }));
    await add(
      send('unknown client credentials', 'POST', '/v1/auth/token/', {
        integrator: null,
        body: { grant_type: 'client_credentials', client_id: 'unknown-client', client_secret: 'x' },
      }),
    );

    // Prism found nothing to report, in a header or in its log ...
    expect(seen.filter((s) => s.violations !== undefined).map((s) => `${s.label}: ${s.violations}`)).toEqual([]);
    expect(complaints(output)).toEqual([]);
    // ... every exchange was forwarded to the simulator (none answered by Prism itself) ...
    expect((output.match(/Forwarding "/g) ?? []).length).toBe(seen.length);
    // ... and got the answer the sandbox documents.
    const statuses = seen.map((s) => `${s.label} ${s.status}`);
    expect(statuses.filter((s) => !/ (poll \d+\) )?200$/.test(s))).toEqual([
      'a payment method the configuration lacks 400',
      'an unknown transaction id 404',
      'another integrator id 401',
      'the OTP 000000 400',
      'unknown client credentials 401',
    ]);
    expect(seen.length).toBeGreaterThanOrEqual(15);
  });

  test('a null where the contract says string: Prism refuses it without forwarding, and so does the simulator', async () => {
    const paired = await send('pair', 'POST', '/v1/pay-connect/pair/', { body: { name: 'prism proxy', otp: sim.mintOtp() } });
    const token = field(
      await send('token', 'POST', '/v1/auth/token/', {
        integrator: null,
        body: { grant_type: 'client_credentials', client_id: field(paired, 'client_id'), client_secret: field(paired, 'client_secret') },
      }),
      'access_token',
    );
    const nulls: [string, string, Record<string, unknown>, boolean][] = [
      ['webhook_url', '/v1/pay-connect/pair/', { name: 'prism proxy', otp: sim.mintOtp(), webhook_url: null }, false],
      ['client_transaction_id', '/v1/pay-connect/transactions/generate/', { amount: 1250, client_transaction_id: null }, true],
      ['payment_method', '/v1/pay-connect/transactions/generate/', { amount: 1250, payment_method: null }, true],
      ['client_transaction_id', '/v1/pay-connect/transactions/preauth/', { amount: 10000, client_transaction_id: null }, true],
      ['client_transaction_id', '/v1/pay-connect/transactions/refund/', { amount: 500, client_transaction_id: null }, true],
    ];
    const forwarded = () => (output.match(/Forwarding "/g) ?? []).length;
    for (const [key, path, body, bearer] of nulls) {
      const before = forwarded();
      const viaPrism = await send(`${key} null`, 'POST', path, { body, ...(bearer ? { token } : {}) });
      expect(viaPrism.status, `${path} ${key}: ${JSON.stringify(viaPrism.body)}`).toBe(422);
      expect(JSON.stringify(viaPrism.body)).toContain(key);
      expect(forwarded(), `${path} ${key} was forwarded`).toBe(before);
      const direct = await request(`${sim.url}${path}`, {
        method: 'POST',
        headers: {
          'x-pay-connect-integrator-id': INTEGRATOR,
          'content-type': 'application/json',
          ...(bearer ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
      });
      const detail = await direct.body.text();
      expect(direct.statusCode, `${path} ${key}: ${detail}`).toBe(400);
      expect(detail).toContain(key);
    }
  });

  test('the same proxy reports a violation once the simulator breaks a response schema', async () => {
    const paired = await send('pair', 'POST', '/v1/pay-connect/pair/', { body: { name: 'prism proxy', otp: sim.mintOtp() } });
    const before = output.length;
    sim.setFaults(['token.expires-in-number']);
    try {
      const token = await send('token', 'POST', '/v1/auth/token/', {
        integrator: null,
        body: { grant_type: 'client_credentials', client_id: field(paired, 'client_id'), client_secret: field(paired, 'client_secret') },
      });
      // --errors: Prism answers 500 in place of the off-contract answer, and names the field.
      expect(token.status).toBe(500);
      expect(token.violations).toContain('expires_in');
      await new Promise((r) => setTimeout(r, 100)); // the log line may trail the answer
      expect(complaints(output.slice(before)).join('\n')).toMatch(/VIOLATIONS/);
    } finally {
      sim.setFaults([]);
    }
  });
});
