/**
 * A pairing as the suites use it: credentials, a client that authenticates with them, and the webhook
 * receiver its `webhook_url` points at. Pairing by OTP saves the credentials to the vault the moment
 * the answer arrives, before any other request: they cannot be recovered.
 */
import { loadTransport, type Transport, type TransportSettings } from '../transport/index.ts';
import { type PayConnectClient, type PayConnectResponse, type Redactor, createPayConnectClient } from '../client/index.ts';
import type { Exchange, RootCause } from '../core/index.ts';
import { type PairingAnswer, pairByOtp } from '../pairing/index.ts';
import type { PairingCredentials, VaultEntry } from '../vault/index.ts';
import type { WebhookReceiver } from '../webhooks/index.ts';
import type { RunContext } from './run-context.ts';
import { TokenLog } from './token-log.ts';

/** A usable pairing. */
export class Pairing {
  /** Deliveries of the receiver already judged by the webhook checks. */
  judged = 0;
  /** Transactions started on this pairing's terminal and not seen final yet (the terminal is busy while any is). */
  readonly open = new Set<string>();
  /**
   * Transactions whose wait for a final status missed the deadline, with the finding that says so:
   * while one is open the terminal is busy for good, so nothing new is started on it and a test's
   * own clean-up does not wait for it again.
   */
  readonly overdue = new Map<string, RootCause>();
  /** Set once an unpair of this pairing was accepted: its tokens are refused from then on, rightly. */
  unpaired = false;
  constructor(
    readonly label: string,
    readonly credentials: PairingCredentials,
    readonly client: PayConnectClient,
    readonly receiver: WebhookReceiver | undefined,
    /** Deliveries for this pairing reach the receiver and can be verified. */
    readonly webhooksObservable: boolean,
    readonly origin: 'vault' | 'otp',
    /**
     * Why deliveries cannot be observed although the pairing was meant to have them (a vault pairing
     * whose webhook_url is another run's receiver, a service that gave no key). Absent when they can,
     * and for a pairing made without a webhook_url on purpose.
     */
    readonly unobservableWhy?: string,
    /** The tokens the client obtained for itself (see {@link TokenLog}). */
    readonly tokens: TokenLog = new TokenLog(),
  ) {}

  async close(): Promise<void> {
    await Promise.allSettled([this.client.close(), this.receiver?.close()]);
  }
}

/** What creating clients and pairings needs from the run. */
export interface PairingEnv {
  ctx: RunContext;
  redactor: Redactor;
  onExchange: (ex: Exchange) => void;
  resolveOperation: (method: string, path: string) => string | undefined;
  nextSeq: () => number;
  /**
   * Opens a receiver in the run's one webhook hub: at the slot a stored webhook_url names when given
   * (a vault pairing), else at a new slot for `name`.
   */
  openReceiver: (name: string, storedUrl?: string) => Promise<WebhookReceiver>;
}

let loaded: { settings: TransportSettings | undefined; transport: Transport } | undefined;
/** The worker's transport, read once (the files do not change during a run). */
function transportOf(settings: TransportSettings | undefined): Transport {
  if (!loaded || loaded.settings !== settings) loaded = { settings, transport: loadTransport(settings ?? {}) };
  return loaded.transport;
}

/** A client for the target; with credentials when given. `tokens` logs the tokens it obtains. */
export function makeClient(env: PairingEnv, credentials?: PairingCredentials, tokens?: TokenLog): PayConnectClient {
  return createPayConnectClient({
    baseUrl: env.ctx.baseUrl,
    integratorId: env.ctx.integratorId,
    credentials: credentials ? { client_id: credentials.client_id, client_secret: credentials.client_secret } : undefined,
    timeoutMs: env.ctx.timeoutMs,
    transport: transportOf(env.ctx.transport),
    onExchange: tokens
      ? (ex) => {
          tokens.see(ex);
          env.onExchange(ex);
        }
      : env.onExchange,
    redactor: env.redactor,
    resolveOperation: env.resolveOperation,
    nextSeq: env.nextSeq,
  });
}

/** A pairing from a vault entry: reused, never re-paired. */
export async function pairingFromVault(env: PairingEnv, entry: VaultEntry, label: string): Promise<Pairing> {
  env.redactor.register(entry.credentials.client_secret, entry.credentials.webhook_secret_key);
  let receiver: WebhookReceiver | undefined;
  if (entry.webhookUrl && entry.credentials.webhook_secret_key) {
    receiver = await env.openReceiver(label, entry.webhookUrl);
    receiver.setSecret(entry.credentials.webhook_secret_key);
  }
  // Deliveries reach this run only if the stored webhook_url is where this run listens.
  const observable = receiver !== undefined && receiver.url.replace(/\/+$/, '') === entry.webhookUrl!.replace(/\/+$/, '');
  const tokens = new TokenLog();
  return new Pairing(
    label,
    entry.credentials,
    makeClient(env, entry.credentials, tokens),
    receiver,
    observable,
    'vault',
    observable ? undefined : vaultUnobservable(entry, receiver),
    tokens,
  );
}

/**
 * The same pairing on a client of `env`: its credentials, a token of its own, no receiver (the
 * deliveries stay with the receiver of the one it copies). What it exchanges goes to `env`.
 */
export function pairingOnClientOf(env: PairingEnv, p: Pairing): Pairing {
  const tokens = new TokenLog();
  const why = p.receiver ? `the deliveries of ${p.label} reach the lane that made it, not this copy` : p.unobservableWhy;
  return new Pairing(p.label, p.credentials, makeClient(env, p.credentials, tokens), undefined, false, p.origin, why, tokens);
}

/** Why a vault pairing's deliveries do not reach this run. */
function vaultUnobservable(entry: VaultEntry, receiver: WebhookReceiver | undefined): string {
  if (!entry.webhookUrl) return 'the vault pairing was made without a webhook_url';
  if (!entry.credentials.webhook_secret_key) return 'the vault pairing has no webhook_secret_key to verify deliveries with';
  return (
    `the vault pairing's webhook_url ${entry.webhookUrl} is not this run's receiver${receiver ? ` (${receiver.url})` : ''}: ` +
    `pair afresh, or listen there (--webhook-listen, --webhook-public-url)`
  );
}

/** The outcome of a pairing request: the answer, and the pairing when it succeeded. */
export interface PairAttempt {
  response: PayConnectResponse;
  sentName: string;
  webhookUrl: string | null;
  pairing?: Pairing;
}

/** Test hook: the process dies at its first request after a pairing answer (proves the save came first). */
function crashHookArmed(): boolean {
  return process.env.PAYCONNECT_TEST_CRASH_AFTER_PAIRING === '1';
}

/**
 * Pairs with `otp`. When the answer carries credentials they are saved to the vault before this
 * function returns and before any other request; a vault that cannot be written is a toolkit error.
 */
export async function pairWithOtp(
  env: PairingEnv,
  otp: string,
  opts: { name: string; webhook: boolean; label: string },
): Promise<PairAttempt> {
  const receiver = opts.webhook ? await env.openReceiver(opts.label) : undefined;
  const tokens = new TokenLog();
  const client = makeClient(env, undefined, tokens);
  const webhookUrl = receiver?.url ?? null;
  let answer: PairingAnswer;
  try {
    answer = await pairByOtp(client, env.ctx, {
      otp,
      name: opts.name,
      webhookUrl,
      redactor: env.redactor,
      ...(webhookUrl && env.ctx.ephemeralRun ? { ephemeralRun: env.ctx.ephemeralRun } : {}),
    });
  } catch (e) {
    await Promise.allSettled([client.close(), receiver?.close()]);
    throw e;
  }
  const { response, credentials } = answer;
  if (!credentials) {
    await Promise.allSettled([client.close(), receiver?.close()]);
    return { response, sentName: opts.name, webhookUrl };
  }
  if (crashHookArmed()) process.kill(process.pid, 'SIGKILL');
  if (receiver && credentials.webhook_secret_key) receiver.setSecret(credentials.webhook_secret_key);
  client.setCredentials({ client_id: credentials.client_id, client_secret: credentials.client_secret });
  const observable = receiver !== undefined && credentials.webhook_secret_key !== null;
  const why = receiver !== undefined && !observable ? 'the pairing answer gave no webhook_secret_key to verify deliveries with' : undefined;
  return {
    response,
    sentName: opts.name,
    webhookUrl,
    pairing: new Pairing(opts.label, credentials, client, receiver, observable, 'otp', why, tokens),
  };
}
