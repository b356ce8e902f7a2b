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
}

/** Undici dispatch options with the toolkit's per-request context. */
export interface PccDispatchOptions extends Dispatcher.DispatchOptions {
  pcc?: RequestContext;
  /** Send this attempt on a connection of its own, never a pooled one that idled (a re-send). */
  freshConnection?: boolean;
}

/** The request context carried by `opts`, if any. */
export function contextOf(opts: Dispatcher.DispatchOptions): RequestContext | undefined {
  return (opts as PccDispatchOptions).pcc;
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
 * ever re-sent automatically; a POST (start, cancel, preauth, pair...) never is.
 */
export function isSafeMethod(method: string): boolean {
  const m = method.toUpperCase();
  return m === 'GET' || m === 'HEAD';
}
