/**
 * A small reference point-of-sale client for Pay-Connect (run: node --import tsx pos-client.ts).
 *
 * It pairs with the OTP from PAYCONNECT_OTP (giving the address of its own loopback webhook
 * endpoint), gets one bearer token and keeps it until a call is answered 401, reads the
 * configuration, takes a payment and waits for its final status (webhooks, verified by HMAC over the
 * raw bytes, and polling with back-off as the fallback), fetches the print slip once the payment is
 * final, starts a second payment and cancels it, and exits 0.
 *
 * Environment: PAYCONNECT_BASE_URL, PAYCONNECT_INTEGRATOR_ID, PAYCONNECT_OTP (certify-client sets
 * them); PAYCONNECT_CA_FILE (a CA certificate, PEM, trusted besides the default roots: the one of
 * `sim --tls` or `certify-client --tls`); POS_CLIENT_PAYMENTS (how many paid payments, default 1).
 *
 * `Breakage` switches one rule off at a time: the copies in broken/ use it to show what
 * certify-client catches. A real client has none of them.
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rootCertificates } from 'node:tls';
import { pathToFileURL } from 'node:url';
import { Agent, request } from 'undici';

/** Deliberate defects, one per rule of certify-client. */
export interface Breakage {
  /** The configuration call goes without the X-Pay-Connect-Integrator-Id header. */
  noIntegratorHeader?: boolean;
  /** A new token before every call. */
  tokenPerCall?: boolean;
  /** The first payment's answer is treated as lost, and the payment is sent again at once. */
  resendGenerate?: boolean;
  /** Polls every 20 ms, without back-off. */
  tightPolling?: boolean;
  /** Fetches the print slip right after starting the payment. */
  slipBeforeFinal?: boolean;
  /** The webhook endpoint accepts any body, signed or not. */
  acceptForgedWebhook?: boolean;
  /** The webhook key is decoded as hex, not UTF-8: every genuine delivery fails the signature check (403). */
  hexWebhookKey?: boolean;
  /** While a payment runs, starts another and retries its 409 every 20 ms. */
  tightBusyRetry?: boolean;
  /** PAYCONNECT_CA_FILE is not read: the client trusts the default roots only. */
  ignoreCaFile?: boolean;
}

const FINAL = new Set(['SUCCESS', 'CANCELED', 'DECLINED', 'REVERTED', 'EXPIRED', 'FAILED']);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const log = (s: string) => process.stdout.write(`pos-client: ${s}\n`);

interface Answer {
  status: number;
  json: Record<string, unknown> | null;
}

/** The credentials of the pairing: kept in memory only, never printed. */
interface Credentials {
  clientId: string;
  clientSecret: string;
  webhookKey: string | null;
}

/** The loopback webhook endpoint: verifies each delivery's signature over the exact bytes received. */
class WebhookEndpoint {
  /** The last status each transaction was reported in by a verified delivery. */
  readonly statuses = new Map<string, string>();
  key: string | null = null;
  private server!: Server;
  url = '';

  constructor(private readonly breakage: Breakage) {}

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        if (!this.breakage.acceptForgedWebhook && !this.verified(raw, req.headers.signature)) {
          res.writeHead(403).end();
          return;
        }
        let event: { data?: { transaction_id?: unknown; status?: unknown }; event?: unknown };
        try {
          event = JSON.parse(raw.toString('utf8'));
        } catch {
          res.writeHead(400).end();
          return;
        }
        const { transaction_id: id, status } = event.data ?? {};
        if (
          typeof event.event === 'string' &&
          event.event.startsWith('transaction.') &&
          typeof id === 'string' &&
          typeof status === 'string'
        ) {
          this.statuses.set(id, status);
        }
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/webhooks/pay-connect`;
  }

  /** HMAC-SHA256 of the raw bytes with the webhook key, compared in constant time. */
  private verified(raw: Buffer, signature: string | string[] | undefined): boolean {
    if (this.key === null || typeof signature !== 'string' || !/^[0-9a-f]{64}$/.test(signature)) return false;
    const expected = createHmac('sha256', Buffer.from(this.key, this.breakage.hexWebhookKey ? 'hex' : 'utf8'))
      .update(raw)
      .digest();
    return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
  }

  /** Stops listening once the deliveries in progress are answered. */
  close(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }
}

/**
 * The CA certificate of PAYCONNECT_CA_FILE, when set: trusted besides the default roots (giving `ca`
 * replaces them, so they are passed too).
 */
function trustedCas(file: string | undefined): string[] | undefined {
  if (!file) return undefined;
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
  } catch (e) {
    throw new Error(`PAYCONNECT_CA_FILE ${file} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  return [...rootCertificates, pem];
}

/** Pay-Connect over HTTP(S): the integrator header on every call, one token reused until a 401. */
class PayConnect {
  private readonly agent: Agent;
  private token: string | null = null;
  credentials: Credentials | null = null;

  constructor(
    private readonly base: string,
    private readonly integratorId: string,
    private readonly breakage: Breakage,
    ca?: string[],
  ) {
    this.agent = new Agent({ keepAliveTimeout: 5_000, ...(ca ? { connect: { ca } } : {}) });
  }

  private async send(method: 'GET' | 'POST', path: string, body: unknown, headers: Record<string, string>): Promise<Answer> {
    const res = await request(`${this.base}${path}`, {
      method,
      dispatcher: this.agent,
      headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    let json: Record<string, unknown> | null = null;
    try {
      json = text === '' ? null : (JSON.parse(text) as Record<string, unknown>);
    } catch {
      json = null;
    }
    return { status: res.statusCode, json };
  }

  async pair(otp: string, webhookUrl: string): Promise<Credentials> {
    const a = await this.send(
      'POST',
      '/v1/pay-connect/pair/',
      { name: 'pos-client example', otp, webhook_url: webhookUrl },
      { 'x-pay-connect-integrator-id': this.integratorId },
    );
    if (a.status !== 200 || !a.json) throw new Error(`pairing answered ${a.status}`);
    this.credentials = {
      clientId: String(a.json.client_id),
      clientSecret: String(a.json.client_secret),
      webhookKey: typeof a.json.webhook_secret_key === 'string' ? a.json.webhook_secret_key : null,
    };
    log(`paired with terminal ${String(a.json.terminal_id)}`);
    return this.credentials;
  }

  private async renewToken(): Promise<string> {
    const c = this.credentials;
    if (!c) throw new Error('not paired');
    const a = await this.send(
      'POST',
      '/v1/auth/token/',
      { grant_type: 'client_credentials', client_id: c.clientId, client_secret: c.clientSecret },
      {},
    );
    if (a.status !== 200 || typeof a.json?.access_token !== 'string') throw new Error(`the token request answered ${a.status}`);
    this.token = a.json.access_token;
    return this.token;
  }

  /** An authenticated call; on 401 the token is renewed once and the call made again. */
  async call(method: 'GET' | 'POST', path: string, body?: unknown, o: { integratorHeader?: boolean } = {}): Promise<Answer> {
    const headers = (token: string) => ({
      authorization: `Bearer ${token}`,
      ...(o.integratorHeader === false ? {} : { 'x-pay-connect-integrator-id': this.integratorId }),
    });
    const token = this.token === null || this.breakage.tokenPerCall ? await this.renewToken() : this.token;
    const a = await this.send(method, path, body, headers(token));
    if (a.status !== 401) return a;
    // The token expired or was revoked: a 401 means the call was refused, so making it again is safe.
    log('token refused (401): getting a new one');
    return this.send(method, path, body, headers(await this.renewToken()));
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

const MIN_POLL_MS = 250;
const MAX_POLL_MS = 2000;

/** Waits for a transaction to reach one of `until`: webhooks first, polling (with back-off) as the fallback. */
async function waitFor(
  api: PayConnect,
  hooks: WebhookEndpoint,
  id: string,
  until: (s: string) => boolean,
  breakage: Breakage,
  timeoutMs = 15_000,
): Promise<string> {
  let interval = breakage.tightPolling ? 20 : MIN_POLL_MS;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // Check the webhooks every 25 ms until the next poll is due.
    for (const due = Date.now() + interval; Date.now() < due;) {
      const seen = hooks.statuses.get(id);
      if (seen !== undefined && until(seen)) return seen;
      await sleep(Math.min(25, interval));
    }
    const a = await api.call('GET', `/v1/pay-connect/transactions/${encodeURIComponent(id)}/status/`);
    const status = typeof a.json?.status === 'string' ? a.json.status : undefined;
    if (a.status === 200 && status !== undefined) {
      hooks.statuses.set(id, status);
      if (until(status)) return status;
    }
    if (Date.now() > deadline) throw new Error(`transaction ${id} did not reach the expected status in time (last: ${status ?? a.status})`);
    if (!breakage.tightPolling) interval = Math.min(MAX_POLL_MS, Math.round(interval * 1.5));
  }
}

/** Starts a transaction; null when the terminal is busy (409). */
async function startPayment(api: PayConnect, amount: number, method: string | undefined): Promise<{ status: number; id: string | null }> {
  const a = await api.call('POST', '/v1/pay-connect/transactions/generate/', {
    amount,
    client_transaction_id: randomUUID(),
    ...(method ? { payment_method: method } : {}),
  });
  return { status: a.status, id: a.status === 200 && typeof a.json?.transaction_id === 'string' ? a.json.transaction_id : null };
}

/** The whole flow; resolves when done, rejects on an unexpected answer. */
export async function runPosClient(env: NodeJS.ProcessEnv, breakage: Breakage = {}): Promise<void> {
  const base = env.PAYCONNECT_BASE_URL;
  const integratorId = env.PAYCONNECT_INTEGRATOR_ID;
  const otp = env.PAYCONNECT_OTP;
  if (!base || !integratorId || !otp) throw new Error('set PAYCONNECT_BASE_URL, PAYCONNECT_INTEGRATOR_ID and PAYCONNECT_OTP');
  const payments = Math.max(1, Number(env.POS_CLIENT_PAYMENTS ?? 1) || 1);
  const ca = breakage.ignoreCaFile ? undefined : trustedCas(env.PAYCONNECT_CA_FILE);
  const hooks = new WebhookEndpoint(breakage);
  await hooks.start();
  const api = new PayConnect(base.replace(/\/+$/, ''), integratorId, breakage, ca);
  try {
    const creds = await api.pair(otp, hooks.url);
    hooks.key = creds.webhookKey;

    const config = await api.call('GET', '/v1/pay-connect/config/', undefined, { integratorHeader: !breakage.noIntegratorHeader });
    const methods = Array.isArray(config.json?.payment_methods) ? (config.json.payment_methods as { id?: unknown }[]) : [];
    const card = methods.some((m) => m.id === 'CARD') ? 'CARD' : undefined;
    if (config.status === 200)
      log(`configuration ${String(config.json?.version)}: currency ${String(config.json?.currency)}, ${methods.length} payment methods`);
    else log(`the configuration answered ${config.status}: the terminal will offer its payment methods`);

    for (let i = 0; i < payments; i++) {
      const amount = 1000 + 100 * i;
      let started = await startPayment(api, amount, card);
      if (breakage.resendGenerate && started.id !== null) {
        const lost = started.id; // pretend the answer timed out, and send the payment again
        started = await startPayment(api, amount, card);
        if (started.id === null) started = { status: 200, id: lost };
      }
      if (started.id === null) throw new Error(`generate answered ${started.status}`);
      const id = started.id;
      if (breakage.slipBeforeFinal) await api.call('GET', `/v1/pay-connect/transactions/${encodeURIComponent(id)}/print-slip/`);
      if (breakage.tightBusyRetry) {
        await api.call('GET', `/v1/pay-connect/transactions/${encodeURIComponent(id)}/status/`);
        for (let n = 0; n < 200; n++) {
          const other = await startPayment(api, 500, card);
          if (other.id !== null) await waitFor(api, hooks, other.id, (s) => FINAL.has(s), breakage);
          if (other.status !== 409) break;
          await sleep(20);
        }
      }
      const final = await waitFor(api, hooks, id, (s) => FINAL.has(s), breakage);
      log(`payment ${i + 1}: ${final}`);
      const slip = await api.call('GET', `/v1/pay-connect/transactions/${encodeURIComponent(id)}/print-slip/`);
      if (slip.status !== 200) throw new Error(`the print slip answered ${slip.status}`);
      log(
        `print slip: ${String(slip.json?.total_amount)} ${String(slip.json?.currency)}, ${String(slip.json?.payment_option ?? slip.json?.payment_method)}`,
      );
    }

    // A payment the customer walks away from: amount ...54 waits for a card until canceled.
    const toCancel = await startPayment(api, 1054, card);
    if (toCancel.id === null) throw new Error(`generate answered ${toCancel.status}`);
    await waitFor(api, hooks, toCancel.id, (s) => s !== 'INITIATED', breakage);
    const cancel = await api.call('POST', `/v1/pay-connect/transactions/${encodeURIComponent(toCancel.id)}/cancel/`);
    if (cancel.status !== 200) throw new Error(`cancel answered ${cancel.status}`);
    // A 200 only means the terminal was asked: the status says what happened.
    const end = await waitFor(api, hooks, toCancel.id, (s) => FINAL.has(s), breakage);
    log(`canceled payment: ${end}`);
  } finally {
    await api.close();
    await hooks.close();
  }
}

/** Runs the flow as a program: exit 0 when it completed, 1 otherwise. */
export async function main(breakage: Breakage = {}): Promise<void> {
  try {
    await runPosClient(process.env, breakage);
    process.exitCode = 0;
  } catch (e) {
    process.stderr.write(`pos-client: ${(e as Error).message}\n`);
    process.exitCode = 1;
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
