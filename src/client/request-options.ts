/**
 * What travels with one request through the interceptors: the per-request switches (integrator
 * header, bearer token) and the hook that collects its Exchange records. It rides on the undici
 * dispatch options as `pcc`, because those options are the only thing every interceptor sees.
 */
import type { Dispatcher } from 'undici';
import type { Exchange } from '../core/exchange.ts';

/**
 * How a request carries `Authorization`: `auto` adds the cached bearer token (except on the token and
 * pairing paths), `none` sends no Authorization at all, `{ bearer }` sends exactly that token.
 */
export type AuthMode = 'auto' | 'none' | { bearer: string };

/**
 * How a request carries `X-Pay-Connect-Integrator-Id`: `auto` adds the configured id, `none` sends no
 * header, any other string is sent instead of the configured id (a negative probe).
 */
export type IntegratorMode = 'auto' | 'none' | (string & {});

/** Per-request settings and bookkeeping shared by the interceptors. */
export interface RequestContext {
  /** @default 'auto' */
  auth?: AuthMode;
  /** @default 'auto' */
  integrator?: IntegratorMode;
  /** Receives every (redacted) Exchange recorded for this request, one per attempt. */
  onExchange?: (exchange: Exchange) => void;
  /** How many times the request went to the connection; counted by `postGuard`. */
  sends?: number;
  /**
   * Set by `postGuard`: the last send of this POST was refused with 429 or 503 and Retry-After, so
   * one re-send marked as such may follow (and nothing else).
   */
  refusedWithRetryAfter?: boolean;
  /**
   * The longest this request may wait in all for Retry-After (the time its caller has left); a wait
   * beyond it is not honoured and the answer that asked for it is the answer. @default no limit
   * beyond the client's own cap
   */
  maxWaitMs?: number;
}

/**
 * Written on the Exchange of an answer that asked the client to wait: a 429 or 503 with a
 * Retry-After it could read.
 */
export interface RetryAfterMark {
  status: number;
  /** The wait asked for, in milliseconds (a date in the past: 0). */
  waitMs: number;
  /** true: the client waited and sent the request again; false: this answer is the answer. */
  honoured: boolean;
  /** Why it was not honoured (the re-sends ran out, the wait is too long...). */
  reason?: string;
  /** How many answers to this request in a row asked to wait, this one included. */
  inARow: number;
}

/** Written on the Exchange of a request sent again because the service asked to wait (Retry-After). */
export interface ResendMark {
  after: 'retry-after';
  /** The `seq` of the refused attempt's Exchange, when it was recorded. */
  of?: number;
  /** How long the client waited before this send, in milliseconds. */
  waitedMs: number;
  /** 1 for the first re-send of the request, 2 for the second... */
  n: number;
}

/** An Exchange as the client records it: with the Retry-After marks when they apply. */
export type RecordedExchange = Exchange & { retryAfter?: RetryAfterMark; resend?: ResendMark };

/**
 * What the interceptors note about one attempt (one object per send): the Retry-After relay marks a
 * re-send and its decision on the answer, the recorder writes them on the attempt's Exchange.
 */
export interface AttemptNote {
  /** The attempt's Exchange number, set by the recorder. */
  seq?: number;
  retryAfter?: RetryAfterMark;
  resend?: ResendMark;
}

/** Undici dispatch options with the toolkit's per-request context. */
export interface PccDispatchOptions extends Dispatcher.DispatchOptions {
  pcc?: RequestContext;
  /** Send this attempt on a connection of its own, never a pooled one that idled (a re-send). */
  freshConnection?: boolean;
  /** This attempt's note (see {@link AttemptNote}). */
  attempt?: AttemptNote;
}

/** The request context carried by `opts`, if any. */
export function contextOf(opts: Dispatcher.DispatchOptions): RequestContext | undefined {
  return (opts as PccDispatchOptions).pcc;
}

/** The note of the attempt `opts` sends, if any. */
export function attemptOf(opts: Dispatcher.DispatchOptions): AttemptNote | undefined {
  return (opts as PccDispatchOptions).attempt;
}

/**
 * The request headers of `opts` as a fresh record with lower-case names, whatever form undici got
 * them in (record, flat array, iterable of pairs). Repeated values are joined with `, `.
 */
export function headersOf(opts: Dispatcher.DispatchOptions): Record<string, string> {
  const out: Record<string, string> = {};
  const add = (name: unknown, value: unknown): void => {
    if (value === undefined || value === null) return;
    const key = String(name).toLowerCase();
    const text = Array.isArray(value) ? value.map(String).join(', ') : String(value);
    out[key] = out[key] === undefined ? text : `${out[key]}, ${text}`;
  };
  const h = opts.headers;
  if (h == null) return out;
  if (Array.isArray(h)) {
    for (let i = 0; i + 1 < h.length; i += 2) add(h[i], h[i + 1]);
  } else if (typeof (h as Iterable<unknown>)[Symbol.iterator] === 'function') {
    for (const [name, value] of h as Iterable<[string, unknown]>) add(name, value);
  } else {
    for (const [name, value] of Object.entries(h)) add(name, value);
  }
  return out;
}

/** Flattens undici response headers (values may be arrays) into a record of strings. */
export function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/**
 * True for methods that may be sent again without changing anything on the service. Only these are
 * re-sent automatically after a reset or a 401; a POST (start, cancel, preauth, pair...) never is. The
 * one re-send a POST may get is after the service refused it with 429 or 503 and Retry-After (refused,
 * not processed), explicitly marked and on the record (retry-after.ts, post-guard.ts).
 */
export function isSafeMethod(method: string): boolean {
  const m = method.toUpperCase();
  return m === 'GET' || m === 'HEAD';
}
