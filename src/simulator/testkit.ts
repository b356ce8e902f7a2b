/**
 * Helpers for the simulator's own tests (imported only by *.test.ts): a keep-alive HTTP caller, a
 * paired client, polling until a status, and a loopback webhook receiver that keeps raw bytes.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { startSimulator, type SimulatorHandle } from './simulator.ts';
import type { SimulatorOptions } from './options.ts';
import { assertMatchesContract } from './contract-conformance.ts';
import { enums } from '../generated/contract.ts';
import { afterAll, afterEach, beforeAll } from 'vitest';

/** A parsed answer; `json` is null when the body is not JSON. */
export interface Res {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

/** What a test may send. Objects are sent as JSON; strings and buffers as they are. */
export interface Send {
  headers?: Record<string, string>;
  body?: unknown;
}

/** A keep-alive HTTP caller bound to one base URL. */
export class Http {
  readonly agent: Agent;
  /**
   * @param sim - when given, answers are checked against the contract while it has no fault on
   * @param ca - a CA certificate (PEM) to trust, the only one: an https base URL of a TLS simulator
   */
  constructor(
    readonly base: string,
    private readonly sim?: SimulatorHandle,
    ca?: string,
  ) {
    this.agent = new Agent({ keepAliveTimeout: 10_000, connections: 16, ...(ca !== undefined ? { connect: { ca } } : {}) });
  }

  async call(method: string, path: string, send: Send = {}): Promise<Res> {
    const { body } = send;
    const raw = body === undefined || typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
    const headers = { ...(raw !== undefined && !Buffer.isBuffer(raw) ? { 'content-type': 'application/json' } : {}), ...send.headers };
    const res = await request(this.base + path, {
      method: method as 'GET',
      headers,
      body: raw as string | Buffer | undefined,
      dispatcher: this.agent,
    });
    const text = await res.body.text();
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
    // A 429 with Retry-After asks the client to wait: it is no answer about the request (the liberal sandbox's limits.poll-rate).
    const waitOut = res.statusCode === 429 && res.headers['retry-after'] !== undefined;
    if (this.sim && this.sim.faults.length === 0 && !waitOut) assertMatchesContract(method, path, res.statusCode, text);
    return { status: res.statusCode, headers: res.headers, text, json };
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

/** A simulator plus a caller; `close` stops both. */
export interface TestSim {
  sim: SimulatorHandle;
  http: Http;
  close(): Promise<void>;
}

/** Starts a fast simulator for tests (step 10 ms, deadline 300 ms, fixed seed); with `tls`, its caller trusts its CA. */
export async function startTestSim(options: SimulatorOptions = {}): Promise<TestSim> {
  const sim = await startSimulator({ stepDelayMs: 10, deadlineMs: 300, seed: 7, webhookRetryScale: 0.001, ...options });
  const http = new Http(sim.url, sim, sim.caFile !== null ? readFileSync(sim.caFile, 'utf8') : undefined);
  return {
    sim,
    http,
    close: async () => {
      await http.close();
      await sim.close();
    },
  };
}

/** A paired, authenticated client. */
export interface Client {
  readonly pairing: Record<string, string | null>;
  readonly integratorId: string;
  token: string;
  readonly headers: Record<string, string>;
  get(path: string, extra?: Record<string, string>): Promise<Res>;
  post(path: string, body?: unknown, extra?: Record<string, string>): Promise<Res>;
  /** Fetches a fresh token with the pairing's credentials. */
  login(): Promise<Res>;
}

/** Pairs with a fresh OTP and logs in. */
export async function pairClient(t: TestSim, o: { webhookUrl?: string; integratorId?: string; name?: string } = {}): Promise<Client> {
  const integratorId = o.integratorId ?? t.sim.integratorId;
  const res = await t.http.call('POST', '/v1/pay-connect/pair/', {
    headers: { 'x-pay-connect-integrator-id': integratorId },
    body: { name: o.name ?? 'test pos', otp: t.sim.mintOtp(), ...(o.webhookUrl ? { webhook_url: o.webhookUrl } : {}) },
  });
  if (res.status !== 200) throw new Error(`pairing failed: ${res.status} ${res.text}`);
  const pairing = res.json as Record<string, string | null>;
  const client: Client = {
    pairing,
    integratorId,
    token: '',
    get headers() {
      return { 'x-pay-connect-integrator-id': integratorId, authorization: `Bearer ${client.token}` };
    },
    get: (path, extra) => t.http.call('GET', path, { headers: { ...client.headers, ...extra } }),
    post: (path, body, extra) => t.http.call('POST', path, { headers: { ...client.headers, ...extra }, body }),
    login: () =>
      t.http.call('POST', '/v1/auth/token/', {
        body: { grant_type: 'client_credentials', client_id: pairing.client_id, client_secret: pairing.client_secret },
      }),
  };
  const login = await client.login();
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${login.text}`);
  client.token = login.json.access_token;
  return client;
}

/** Paths of the API. */
export const P = {
  generate: '/v1/pay-connect/transactions/generate/',
  preauth: '/v1/pay-connect/transactions/preauth/',
  refund: '/v1/pay-connect/transactions/refund/',
  status: (id: string) => `/v1/pay-connect/transactions/${id}/status/`,
  cancel: (id: string) => `/v1/pay-connect/transactions/${id}/cancel/`,
  slip: (id: string) => `/v1/pay-connect/transactions/${id}/print-slip/`,
  linkedRefund: (id: string) => `/v1/pay-connect/transactions/${id}/refund/`,
  increment: (id: string) => `/v1/pay-connect/transaction-operations/${id}/preauth-increment/`,
  complete: (id: string) => `/v1/pay-connect/transaction-operations/${id}/preauth-complete/`,
  revert: (id: string) => `/v1/pay-connect/transaction-operations/${id}/revert/`,
  operation: (id: string) => `/v1/pay-connect/transaction-operations/${id}/`,
  config: '/v1/pay-connect/config/',
  unpair: '/v1/pay-connect/unpair/',
  pair: '/v1/pay-connect/pair/',
  token: '/v1/auth/token/',
} as const;

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const FINAL: readonly string[] = enums.TransactionStatus.filter((s) => s !== 'INITIATED' && s !== 'IN_PROGRESS');

/** Polls `path` until `done(json)`; returns the last answer. */
export async function pollUntil(c: Client, path: string, done: (json: Res['json']) => boolean, timeoutMs = 2000): Promise<Res> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = await c.get(path);
    if (r.status === 200 && done(r.json)) return r;
    if (Date.now() > until) throw new Error(`timed out polling ${path}: ${r.status} ${r.text}`);
    await sleep(r.status === 429 ? 1000 * Number(r.headers['retry-after'] ?? 0.005) : 5);
  }
}

/** Polls a transaction until it is final; returns its status record. */
export async function waitFinal(c: Client, id: string, timeoutMs = 2000): Promise<Res['json']> {
  return (await pollUntil(c, P.status(id), (j) => FINAL.includes(j.status), timeoutMs)).json;
}

/** Polls an operation until it is final; returns its record. */
export async function waitOperation(c: Client, id: string): Promise<Res['json']> {
  return (await pollUntil(c, P.operation(id), (j) => ['SUCCESS', 'FAILED', 'EXPIRED'].includes(j.status))).json;
}

/** Starts a payment and waits for its final record. */
export async function pay(c: Client, amount: number, path: string = P.generate): Promise<Res['json']> {
  const r = await c.post(path, { amount });
  if (r.status !== 200) throw new Error(`start failed: ${r.status} ${r.text}`);
  return waitFinal(c, r.json.transaction_id);
}

/** One webhook as received. */
export interface Delivery {
  raw: Buffer;
  headers: IncomingHttpHeaders;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

/**
 * A loopback webhook receiver. `answer(n)` gives the status of the n-th delivery (0-based), or
 * `hang` (never answer) or `destroy` (a network error).
 */
/**
 * Vitest hooks of a fault-test file: one simulator per entry of `options`, started before the file's
 * tests and closed after them; after each test every fault is off again and the receivers pushed on
 * the returned list are closed. `use` gets the simulators once they run.
 */
export function useFaultSims(options: SimulatorOptions[], use: (sims: TestSim[]) => void): Receiver[] {
  const receivers: Receiver[] = [];
  let sims: TestSim[] = [];
  beforeAll(async () => {
    sims = await Promise.all(options.map((o) => startTestSim(o)));
    use(sims);
  });
  afterAll(async () => {
    await Promise.all(sims.map((s) => s.close()));
  });
  afterEach(async () => {
    for (const s of sims) s.sim.setFaults([]);
    await Promise.all(receivers.splice(0).map((r) => r.close()));
  });
  return receivers;
}

export interface Receiver {
  url: string;
  deliveries: Delivery[];
  waitFor(pred: (d: Delivery[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(answer: (n: number, d: Delivery) => number | 'hang' | 'destroy' = () => 200): Promise<Receiver> {
  const deliveries: Delivery[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const d: Delivery = { raw, headers: req.headers, json: JSON.parse(raw.toString('utf8')) };
      const status = answer(deliveries.length, d);
      deliveries.push(d);
      if (status === 'hang') return;
      if (status === 'destroy') return void req.socket.destroy();
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    deliveries,
    async waitFor(pred, timeoutMs = 2000) {
      const until = Date.now() + timeoutMs;
      while (!pred(deliveries)) {
        if (Date.now() > until) throw new Error(`timed out waiting for webhooks; got ${deliveries.map((d) => d.json.event).join(', ')}`);
        await sleep(5);
      }
    },
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}
