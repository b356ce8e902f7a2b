/**
 * The provider side of verification: sets up each provider state through the public API only
 * (pairing from the vault or by OTP, transactions with the amounts of sandbox.md's outcome table),
 * so verification works against a staging sandbox as well as the embedded simulator. It also keeps
 * the pairing whose credentials the verifier's requests are sent with (see request-filter.ts).
 */
import {
  type PayConnectClient,
  type PayConnectResponse,
  REQUEST_TIMEOUT_MS,
  type Redactor,
  TokenCache,
  callOperation,
  createPayConnectClient,
  credentialsTokenSource,
} from '../../client/index.ts';
import { loadTransport, type Transport, type TransportSettings } from '../../transport/index.ts';
import { ToolkitError } from '../../core/index.ts';
import { observe } from '../../convergence/index.ts';
import type { OperationId } from '../../generated/contract.ts';
import { PROFILES } from '../../profile/index.ts';
import { pairByOtp } from '../../pairing/index.ts';
import { type PairingCredentials, findPairings, loadPrivateVault, removeVaultEntry } from '../../vault/index.ts';
import { type WebhookHub, type WebhookReceiver, startWebhookHub, startWebhookReceiver } from '../../webhooks/index.ts';
import { EXAMPLE } from '../common/names.ts';
import { OUTCOMES } from '../common/states.ts';

/** Options of {@link ProviderDriver}. */
export interface ProviderOptions {
  baseUrl: string;
  integratorId: string;
  /** Where pairings are read from and saved to (credentials cannot be recovered: saved at once). */
  vaultPath: string;
  /** OTPs for new pairings, in order (minted by the simulator's handle, or the user's --otp). */
  otps: readonly string[];
  /** How long a state may wait for a status. */
  deadlineMs: number;
  /** Poll interval while waiting. @default 25 */
  pollMs?: number;
  /** Request timeout. @default REQUEST_TIMEOUT_MS (10 s) */
  timeoutMs?: number;
  /** Learns every secret the run sees. */
  redactor: Redactor;
  /** Address the webhook receivers listen on. @default '127.0.0.1' */
  webhookHost?: string;
  /**
   * The public base URL that forwards to `webhookPort` (a tunnel), for a service that cannot reach
   * loopback: the receivers are then slots of one hub there, each given `<url>/webhooks/<slot>`.
   */
  webhookPublicUrl?: string;
  /** The port the hub listens on, where the tunnel forwards (with `webhookPublicUrl`). @default 0 */
  webhookPort?: number;
  /** CA file, client certificate and proxy of the connections to the service (read in the verifying process). */
  transport?: TransportSettings;
  /**
   * Where the Pact core sends the interactions, when not to `baseUrl`: a loopback forwarder that goes
   * on through the toolkit's transport (the core knows no CA file, client certificate or proxy).
   */
  verifierBaseUrl?: string;
}

/** A pairing of the verification run. */
export interface ProviderPairing {
  label: string;
  credentials: PairingCredentials;
  client: PayConnectClient;
  /** Tokens for the verifier's requests (the request filter's bearer). */
  tokens: TokenCache;
  receiver?: WebhookReceiver;
  /** Its deliveries reach `receiver` and verify with its key. */
  observable: boolean;
}

const FINAL_TX = PROFILES.sandbox.transactionFinal;
const FINAL_OP = PROFILES.sandbox.operationFinal;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Sets provider states up through the public API and tracks what it started. */
export class ProviderDriver {
  /** The pairing the verifier's requests go out as (set by each state). */
  current: ProviderPairing | undefined;
  private readonly otps: string[];
  private readonly pairings: ProviderPairing[] = [];
  private primaryPromise?: Promise<ProviderPairing>;
  /** Transactions a state (`cancel`) or an interaction (`wait`) started, to free the terminal at teardown. */
  private started: { p: ProviderPairing; id: string; then: 'cancel' | 'wait' }[] = [];
  private seq = 0;

  private readonly transport: Transport;

  constructor(readonly o: ProviderOptions) {
    this.otps = [...o.otps];
    this.transport = loadTransport(o.transport ?? {});
  }

  private get pollMs(): number {
    return this.o.pollMs ?? 25;
  }

  /** The next unused OTP, or an error saying how to get one. */
  nextOtp(why: string): string {
    const otp = this.otps.shift();
    if (otp === undefined) throw new ToolkitError('PCC_NO_PAIRING', `${why} needs an unused OTP and none is left`, 'pass another --otp');
    return otp;
  }

  private makePairing(
    label: string,
    credentials: PairingCredentials,
    receiver: WebhookReceiver | undefined,
    observable: boolean,
  ): ProviderPairing {
    this.o.redactor.register(credentials.client_secret, credentials.webhook_secret_key);
    const client = createPayConnectClient({
      baseUrl: this.o.baseUrl,
      integratorId: this.o.integratorId,
      redactor: this.o.redactor,
      timeoutMs: this.o.timeoutMs ?? REQUEST_TIMEOUT_MS,
      transport: this.transport,
      credentials: { client_id: credentials.client_id, client_secret: credentials.client_secret },
    });
    const tokens = new TokenCache(
      credentialsTokenSource(
        (r) => client.request(r),
        () => credentials,
      ),
    );
    const p: ProviderPairing = { label, credentials, client, tokens, receiver, observable };
    this.pairings.push(p);
    return p;
  }

  /**
   * Starts a webhook receiver (a new pairing's `webhook_url`); with a public URL, a slot of the one hub
   * behind it. `port` (a vault pairing's stored loopback URL) listens there instead.
   */
  async receiver(port = 0): Promise<WebhookReceiver> {
    if ((this.o.webhookPublicUrl || this.o.webhookPort) && port === 0) {
      this.hub ??= startWebhookHub({
        host: this.o.webhookHost ?? '127.0.0.1',
        port: this.o.webhookPort ?? 0,
        publicUrl: this.o.webhookPublicUrl,
      });
      return (await this.hub).open(`verify-${++this.slots}`);
    }
    return startWebhookReceiver({ host: this.o.webhookHost ?? '127.0.0.1', port });
  }

  private hub?: Promise<WebhookHub>;
  private slots = 0;

  /** Pairs by OTP; the credentials are saved to the vault before anything else is done with them. */
  async pairByOtp(label: string, webhook: boolean, otp = this.nextOtp(`pairing (${label})`)): Promise<ProviderPairing> {
    const rx = webhook ? await this.receiver() : undefined;
    const client = createPayConnectClient({
      baseUrl: this.o.baseUrl,
      integratorId: this.o.integratorId,
      redactor: this.o.redactor,
      timeoutMs: this.o.timeoutMs ?? REQUEST_TIMEOUT_MS,
      transport: this.transport,
    });
    try {
      const { response: res, credentials } = await pairByOtp(client, this.o, {
        otp,
        name: `${EXAMPLE.pairingName}-${label}`,
        webhookUrl: rx?.url ?? null,
        redactor: this.o.redactor,
      });
      if (!credentials) {
        await rx?.close();
        throw new ToolkitError(
          'PCC_PAIRING_FAILED',
          `pairing (${label}) answered ${res.status}: ${this.o.redactor.redactText(res.rawBody).slice(0, 200)}`,
          'check the OTP (six digits, one use) and the integrator id',
        );
      }
      if (rx && credentials.webhook_secret_key) rx.setSecret(credentials.webhook_secret_key);
      return this.makePairing(label, credentials, rx, rx !== undefined && credentials.webhook_secret_key !== null);
    } finally {
      await client.close();
    }
  }

  /** The run's pairing: the vault's first for this target, else a new one by OTP (with a webhook receiver). */
  primary(): Promise<ProviderPairing> {
    this.primaryPromise ??= (async () => {
      const [entry] = findPairings((await loadPrivateVault(this.o.vaultPath)).vault, this.o.baseUrl, this.o.integratorId);
      if (!entry) return this.pairByOtp('primary', true);
      let rx: WebhookReceiver | undefined;
      const url = entry.webhookUrl ? new URL(entry.webhookUrl) : undefined;
      // Deliveries reach this run only if the stored webhook_url is a loopback address it can listen on.
      if (url && entry.credentials.webhook_secret_key && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) {
        rx = await this.receiver(Number(url.port)).catch(() => undefined);
        rx?.setSecret(entry.credentials.webhook_secret_key);
      }
      return this.makePairing('vault', entry.credentials, rx, rx !== undefined && rx.url === entry.webhookUrl);
    })();
    this.primaryPromise.catch(() => undefined);
    return this.primaryPromise;
  }

  /** Calls an operation of the contract on a pairing. */
  call(
    p: ProviderPairing,
    operationId: OperationId,
    opts: { params?: Record<string, string>; body?: unknown } = {},
  ): Promise<PayConnectResponse> {
    return callOperation(p.client, operationId, {
      ...(opts.params ? { params: opts.params } : {}),
      ...(opts.body === undefined ? {} : { body: opts.body }),
    });
  }

  /** Starts a transaction once the terminal is idle (a 409 started nothing, so asking again is safe). */
  async start(
    p: ProviderPairing,
    operationId: OperationId,
    body: Record<string, unknown>,
    params?: Record<string, string>,
  ): Promise<string> {
    const end = Date.now() + this.o.deadlineMs * 2;
    const full = { ...body, ...(operationId === 'linkedRefund' ? {} : { client_transaction_id: `pcc-verify-${++this.seq}` }) };
    for (;;) {
      const res = await this.call(p, operationId, { body: full, params });
      const id = (res.body as { transaction_id?: unknown } | undefined)?.transaction_id;
      if (res.status === 200 && typeof id === 'string' && id !== '') {
        this.started.push({ p, id, then: 'cancel' });
        return id;
      }
      if (res.status !== 409 || Date.now() > end) {
        throw new ToolkitError(
          'PCC_PACT',
          `${operationId} answered ${res.status} without a transaction_id: ${this.o.redactor.redactText(res.rawBody).slice(0, 200)}`,
        );
      }
      await sleep(this.pollMs * 4);
    }
  }

  /**
   * Polls a transaction or operation until `want` (or a final status), up to the deadline: the
   * harness's convergence (observe) at the driver's steady pace, no webhooks judged.
   */
  async waitFor(p: ProviderPairing, kind: 'transaction' | 'operation', id: string, want: string): Promise<Record<string, unknown>> {
    const final = kind === 'transaction' ? FINAL_TX : FINAL_OP;
    let last: { status: number; body?: Record<string, unknown> } = { status: 0 };
    const seen = await observe({
      kind,
      id,
      webhooksObservable: false,
      final: [want, ...final],
      deadlineMs: this.o.deadlineMs * 2,
      settleMs: 0,
      initialIntervalMs: this.pollMs,
      factor: 1,
      poll: async () => {
        const res = await this.call(p, kind === 'transaction' ? 'getTransactionStatus' : 'getOperation', {
          params: kind === 'transaction' ? { transaction_id: id } : { operation_id: id },
        });
        last = { status: res.status, ...(res.status === 200 ? { body: res.body as Record<string, unknown> } : {}) };
        return typeof last.body?.status === 'string' ? { status: last.body.status } : {};
      },
    });
    if (seen.finalByPoll === want && last.body) return last.body;
    const status = seen.finalByPoll ?? (typeof last.body?.status === 'string' ? last.body.status : undefined);
    throw new ToolkitError('PCC_PACT', `${kind} ${id} is ${status ?? `unreadable (${last.status})`}, not ${want}`);
  }

  /** A transaction of the outcome table that reached the outcome's final status. */
  async outcome(slug: (typeof OUTCOMES)[number]['slug']): Promise<{ p: ProviderPairing; id: string }> {
    const o = OUTCOMES.find((x) => x.slug === slug)!;
    const p = await this.paired();
    const id = await this.start(p, 'generateTransaction', { amount: o.amount });
    await this.waitFor(p, 'transaction', id, o.final);
    return { p, id };
  }

  /**
   * An OTP that has paired once: it pairs with it, then unpairs that pairing (and forgets it), so that
   * only the OTP's use remains. The OTP is the one a consumed-OTP interaction sends again.
   */
  async consumedOtp(): Promise<string> {
    const otp = this.nextOtp('the state "a one-time password already used"');
    const p = await this.pairByOtp('consumed', false, otp);
    // An unpair that fails is not this state's concern (the OTP is used either way): the pairing then
    // still gets a token, and forgetIfRevoked keeps it in the vault, where it can be unpaired later.
    await this.call(p, 'unpair').catch(() => undefined);
    await this.forgetIfRevoked(p);
    return otp;
  }

  /** A successful preauthorization. */
  async preauth(): Promise<{ p: ProviderPairing; id: string }> {
    const p = await this.paired();
    const id = await this.start(p, 'startPreauth', { amount: 10000 });
    await this.waitFor(p, 'transaction', id, 'SUCCESS');
    return { p, id };
  }

  /** The primary pairing, made current. */
  async paired(): Promise<ProviderPairing> {
    this.current = await this.primary();
    return this.current;
  }

  /** Notes a transaction the verifier's own request started (seen by the request filter). */
  adopt(id: string): void {
    if (this.current) this.started.push({ p: this.current, id, then: 'wait' });
  }

  /**
   * Frees the terminal after an interaction (one transaction at a time per terminal): what a state left
   * pending is canceled; what the interaction started is awaited to its end, and canceled if it would
   * not end within the deadline.
   */
  async teardown(): Promise<void> {
    const left = this.started;
    this.started = [];
    for (const { p, id, then } of left) {
      const end = Date.now() + (then === 'wait' ? this.o.deadlineMs * 2 : 0);
      for (;;) {
        const res = await this.call(p, 'getTransactionStatus', { params: { transaction_id: id } }).catch(() => undefined);
        const status = (res?.body as { status?: unknown } | undefined)?.status;
        if (typeof status !== 'string' || FINAL_TX.includes(status)) break;
        if (Date.now() >= end) {
          await this.call(p, 'cancelTransaction', { params: { transaction_id: id } }).catch(() => undefined);
          await this.waitFor(p, 'transaction', id, 'CANCELED').catch(() => undefined);
          break;
        }
        await sleep(this.pollMs);
      }
    }
  }

  /** Forgets a pairing that an interaction revoked (only when its credentials no longer get a token). */
  async forgetIfRevoked(p: ProviderPairing): Promise<void> {
    try {
      await credentialsTokenSource(
        (r) => p.client.request(r),
        () => p.credentials,
      )();
      return; // still valid: keep it in the vault
    } catch {
      await removeVaultEntry(this.o.vaultPath, (e) => e.credentials.client_id === p.credentials.client_id).catch(() => undefined);
    }
  }

  /** A pairing an interaction may revoke, forgotten at teardown if it did. */
  toForget: ProviderPairing | undefined;
  /** Receivers given to pairings the verifier itself makes. */
  readonly extraReceivers: WebhookReceiver[] = [];

  /** Closes every client and receiver. */
  async close(): Promise<void> {
    await Promise.allSettled([
      ...this.pairings.flatMap((p) => [p.client.close(), p.receiver?.close()]),
      ...this.extraReceivers.map((r) => r.close()),
    ]);
    if (this.hub) await (await this.hub.catch(() => undefined))?.close();
  }
}
