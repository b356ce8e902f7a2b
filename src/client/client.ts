/**
 * The typed Pay-Connect client: one `request` over the composed dispatcher, answering with status,
 * headers, parsed and raw body and the request's (redacted) Exchange. A non-2xx or non-JSON answer is
 * an answer, not an exception: the harness judges it. Only a missing answer throws a ToolkitError.
 */
import type { Dispatcher } from 'undici';
import { ToolkitError } from '../core/errors.ts';
import type { Exchange } from '../core/exchange.ts';
import { flattenHeaders, type AuthMode, type IntegratorMode, type PccDispatchOptions } from './request-options.ts';
import { credentialsTokenSource, type PayConnectCredentials } from './credentials-token-source.ts';
import { createPayConnectDispatcher } from './dispatcher.ts';
import { toToolkitError } from './network-error.ts';
import { defaultTransport, environmentErrorOf, type Transport } from '../transport/index.ts';
import { withTrailingSlash } from './path.ts';
import { parseJson, type OperationResolver } from './recorder.ts';
import { Redactor } from './redactor.ts';
import type { RetryAfterOptions } from './retry-after.ts';
import { TokenCache, type TokenCacheOptions, type TokenSource } from './token-cache.ts';

/** Options of {@link createPayConnectClient}. */
export interface PayConnectClientOptions {
  /** Base URL of the service; a path prefix (`https://host/api`) is kept. */
  baseUrl: string;
  integratorId: string;
  /** How to get a token. @default POST /v1/auth/token/ with `credentials` */
  tokenSource?: TokenSource;
  /** Client credentials from pairing; see also `setCredentials`. @default none (then a bearer request fails with PCC_NO_PAIRING) */
  credentials?: PayConnectCredentials;
  /** Deadline of one attempt (connect, headers and body), in milliseconds. @default 10_000 */
  timeoutMs?: number;
  /** Receives every redacted Exchange, in the order attempts end. @default none */
  onExchange?: (exchange: Exchange) => void;
  /** The run's redactor; credentials and learned secrets are added to it. @default new Redactor() */
  redactor?: Redactor;
  /** @default a resolver that knows no operation */
  resolveOperation?: OperationResolver;
  /** Numbers the Exchanges; share one across clients of a run. @default a counter from 1 */
  nextSeq?: () => number;
  /** Token renewal settings (margin, clock, notes). @default {} */
  token?: TokenCacheOptions;
  /** Send the integrator header on the token request too (the spec does not require it). @default false */
  integratorOnTokenRequest?: boolean;
  /**
   * How long one wait for Retry-After may be, and how often one request is sent again after it.
   * @default { maxWaitMs: timeoutMs, maxResends: 3 }
   */
  retryAfter?: RetryAfterOptions;
  /** CA, client certificate, proxy of the connections. @default the environment's proxies, the system's CAs */
  transport?: Transport;
}

/** One request. `path` gets a trailing slash if it lacks one. */
export interface PayConnectRequest {
  method: 'GET' | 'POST' | (string & {});
  path: string;
  /** Sent as JSON (with `content-type: application/json` unless given). */
  body?: unknown;
  /** Sent exactly as given instead of `body` (for malformed-body probes). */
  rawBody?: string | Uint8Array;
  headers?: Record<string, string>;
  /** @default 'auto' */
  auth?: AuthMode;
  /** @default 'auto' */
  integrator?: IntegratorMode;
  /**
   * The longest this request may wait in all for Retry-After (e.g. what is left of a deadline); a
   * longer wait is not honoured. @default no limit beyond the client's `retryAfter.maxWaitMs`
   */
  maxWaitMs?: number;
}

/** The answer to one request. */
export interface PayConnectResponse {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON, or undefined when the body is empty or not JSON. */
  body: unknown;
  /** The body exactly as received, as UTF-8 text. */
  rawBody: string;
  /**
   * The redacted record of the (last) attempt; earlier attempts (a 429 waited out, a reset GET) were
   * recorded before it.
   */
  exchange: Exchange;
}

/** A Pay-Connect client. */
export interface PayConnectClient {
  request(request: PayConnectRequest): Promise<PayConnectResponse>;
  /** Uses these credentials from now on (replacing any tokenSource) and drops the cached token. */
  setCredentials(credentials: PayConnectCredentials): void;
  /** Drops the cached token; the next bearer request fetches a new one. */
  invalidateToken(): void;
  /**
   * The bearer token the client sends now, fetched first when it has none or it is due for renewal.
   * For a request that must carry a valid token whatever it is answered: given as `auth: { bearer }`,
   * a 401 neither drops the cached token nor sends the request again.
   */
  token(): Promise<string>;
  /** Closes the connections, after in-flight requests end. */
  close(): Promise<void>;
  /** The redactor the client's records go through. */
  readonly redactor: Redactor;
}

/** Creates a client over the composed interceptor dispatcher. */
export function createPayConnectClient(options: PayConnectClientOptions): PayConnectClient {
  const base = new URL(options.baseUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  const redactor = options.redactor ?? new Redactor();
  const transport = options.transport ?? defaultTransport();
  let credentials = options.credentials;
  redactor.register(credentials?.client_secret);
  const fromCredentials = (): TokenSource =>
    credentialsTokenSource(
      (r) => request(r),
      () => credentials,
      options.integratorOnTokenRequest ? 'auto' : 'none',
    );
  const tokens = new TokenCache(options.tokenSource ?? fromCredentials(), options.token);
  const { dispatcher, close } = createPayConnectDispatcher({
    integratorId: options.integratorId,
    tokens,
    redactor,
    timeoutMs: options.timeoutMs,
    basePath: prefix,
    ...(options.resolveOperation ? { resolveOperation: options.resolveOperation } : {}),
    ...(options.nextSeq ? { nextSeq: options.nextSeq } : {}),
    ...(options.retryAfter ? { retryAfter: options.retryAfter } : {}),
    transport,
    sink: (exchange, context) => {
      context?.onExchange?.(exchange);
      options.onExchange?.(exchange);
    },
  });

  async function request(req: PayConnectRequest): Promise<PayConnectResponse> {
    const headers: Record<string, string> = { accept: 'application/json' };
    for (const [name, value] of Object.entries(req.headers ?? {})) headers[name.toLowerCase()] = value;
    let body = req.rawBody;
    if (body === undefined && req.body !== undefined) {
      body = JSON.stringify(req.body);
      headers['content-type'] ??= 'application/json';
    }
    const exchanges: Exchange[] = [];
    const opts: PccDispatchOptions = {
      origin: base.origin,
      path: prefix + withTrailingSlash(req.path),
      method: req.method,
      headers,
      ...(body === undefined ? {} : { body }),
      pcc: {
        auth: req.auth ?? 'auto',
        integrator: req.integrator ?? 'auto',
        onExchange: (e) => exchanges.push(e),
        ...(req.maxWaitMs === undefined ? {} : { maxWaitMs: req.maxWaitMs }),
      },
    };
    let status: number, resHeaders: Dispatcher.ResponseData['headers'], bytes: Buffer;
    try {
      const res = await dispatcher.request(opts as Dispatcher.RequestOptions);
      ({ statusCode: status, headers: resHeaders } = res);
      bytes = Buffer.from(await res.body.arrayBuffer());
    } catch (err) {
      throw environmentErrorOf(err, `${base.origin}${opts.path}`, transport) ?? toToolkitError(err);
    }
    const exchange = exchanges.at(-1);
    if (!exchange) throw new ToolkitError('PCC_INTERNAL', `no Exchange was recorded for ${req.method} ${req.path}`);
    const rawBody = bytes.toString('utf8');
    return { status, headers: flattenHeaders(resHeaders), body: parseJson(rawBody), rawBody, exchange };
  }

  return {
    request,
    setCredentials(next) {
      credentials = next;
      redactor.register(next.client_secret);
      tokens.setSource(fromCredentials());
    },
    invalidateToken: () => tokens.invalidate(),
    token: () => tokens.get(),
    close,
    redactor,
  };
}
