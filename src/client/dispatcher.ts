/**
 * The composed undici Dispatcher of the client. Order matters; from the caller inwards:
 * integrator header -> bearer token (may re-send a GET after a 401) -> Retry-After (waits as a 429 or
 * 503 asks and sends again, a POST included, within caps) -> reset retry (may re-send a GET after a
 * reset) -> recorder (one Exchange per attempt, so every re-send is on the record, with the
 * Retry-After marks) -> timeout (per attempt; its error is recorded) -> post guard (next to the wire:
 * one send per POST, plus the one marked re-send after a refusal with Retry-After) -> fresh
 * connections (a POST or a re-send on a connection of its own; where the service announced a
 * keep-alive, a POST on one just used) -> the pooled Agent (GET and HEAD).
 */
import type { Dispatcher } from 'undici';
import { createDispatcher, defaultTransport, type Transport } from '../transport/index.ts';
import { bearerToken } from './bearer-token.ts';
import { FRESH_AGENT_OPTIONS, JUST_USED_AGENT_OPTIONS, freshConnections } from './fresh-connections.ts';
import { integratorHeader } from './integrator-header.ts';
import { postGuard } from './post-guard.ts';
import { recorder, type ExchangeSink, type OperationResolver } from './recorder.ts';
import { redaction } from './redaction.ts';
import type { Redactor } from './redactor.ts';
import { resetRetry } from './reset-retry.ts';
import { retryAfter, type RetryAfterOptions } from './retry-after.ts';
import { timeout } from './timeout.ts';
import type { TokenCache } from './token-cache.ts';

/** How long one request attempt (and its connection) may take unless a caller says otherwise, in milliseconds. */
export const REQUEST_TIMEOUT_MS = 10_000;

/** Options of {@link createPayConnectDispatcher}. */
export interface PayConnectDispatcherOptions {
  integratorId: string;
  /** The bearer token cache (the client keeps it, to invalidate it or switch credentials). */
  tokens: TokenCache;
  /** Every scrubbed Exchange goes here. */
  sink: ExchangeSink;
  redactor: Redactor;
  /** Deadline of one attempt, and the connect timeout, in milliseconds. @default REQUEST_TIMEOUT_MS (10 s) */
  timeoutMs?: number;
  /** @default a resolver that knows no operation */
  resolveOperation?: OperationResolver;
  /** The path the API is mounted under, for the records (RecorderOptions.basePath). @default '' */
  basePath?: string;
  /** @default a counter from 1 */
  nextSeq?: () => number;
  /** The caps of waiting for Retry-After. @default { maxWaitMs: timeoutMs, maxResends: 3 } */
  retryAfter?: RetryAfterOptions;
  /** CA, client certificate, proxy. @default the environment's proxies, the system's CAs */
  transport?: Transport;
}

/** The composed dispatcher (to send through), and `close` for the connections under it. */
export interface PayConnectDispatcher {
  dispatcher: Dispatcher;
  /** Closes every connection, after in-flight requests end. */
  close(): Promise<void>;
}

/** Builds the Agent and composes the client's interceptors over it. */
export function createPayConnectDispatcher(options: PayConnectDispatcherOptions): PayConnectDispatcher {
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const transport = options.transport ?? defaultTransport();
  const agent = createDispatcher(transport, { connect: { timeout: timeoutMs } });
  const fresh = createDispatcher(transport, { connect: { timeout: timeoutMs }, ...FRESH_AGENT_OPTIONS });
  const justUsed = createDispatcher(transport, { connect: { timeout: timeoutMs }, ...JUST_USED_AGENT_OPTIONS });
  const dispatcher = agent.compose(
    freshConnections(fresh, justUsed),
    postGuard(),
    timeout(timeoutMs),
    recorder({
      sink: redaction(options.redactor, options.sink),
      ...(options.resolveOperation ? { resolveOperation: options.resolveOperation } : {}),
      ...(options.basePath ? { basePath: options.basePath } : {}),
      ...(options.nextSeq ? { nextSeq: options.nextSeq } : {}),
    }),
    resetRetry(),
    retryAfter({ maxWaitMs: timeoutMs, ...options.retryAfter }),
    bearerToken(options.tokens),
    integratorHeader(options.integratorId),
  );
  return { dispatcher, close: async () => void (await Promise.all([agent.close(), fresh.close(), justUsed.close()])) };
}
