/**
 * Interceptor: the only source of Exchange records. It watches one attempt pass by, copies what went
 * out and every byte that came back, and hands the record to the sink when the attempt ends; the
 * response itself flows on to the caller untouched. What the Retry-After relay noted about the
 * attempt (an answer that asked to wait, a re-send after the wait) goes on the record too.
 */
import type { Dispatcher } from 'undici';
import type { Exchange } from '../core/exchange.ts';
import { AttemptController, asError } from './attempt-controller.ts';
import { attemptOf, contextOf, flattenHeaders, headersOf, type RecordedExchange, type RequestContext } from './request-options.ts';
import { toToolkitError } from './network-error.ts';
import { apiPathOf, pathnameOf } from './path.ts';

/** Receives each Exchange, with the context of the request it belongs to. */
export type ExchangeSink = (exchange: Exchange, context?: RequestContext) => void;

/** Maps a method and a path (no query string) to the contract's operationId. */
export type OperationResolver = (method: string, path: string) => string | undefined;

/** Options of {@link recorder}. */
export interface RecorderOptions {
  /** Where records go; in the client, through the redaction stage. */
  sink: ExchangeSink;
  /** @default a resolver that knows no operation */
  resolveOperation?: OperationResolver;
  /**
   * The path the target mounts the API under (a gateway's `/paycon`), taken off a request's path
   * before its operation is looked up and recorded: the record's `path` is the API's, its `url` as sent.
   * @default '' (the API at the root)
   */
  basePath?: string;
  /** Numbers the records; share one across clients for one sequence per run. @default sequence() */
  nextSeq?: () => number;
}

/** A counter for {@link RecorderOptions.nextSeq}, starting at `first`. */
export function sequence(first = 1): () => number {
  let next = first;
  return () => next++;
}

/** Parses `text` as JSON; `undefined` when it is empty or not JSON. */
export function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Records every attempt that passes through it as one Exchange. */
export function recorder(options: RecorderOptions): Dispatcher.DispatcherComposeInterceptor {
  const nextSeq = options.nextSeq ?? sequence();
  return (dispatch) => (opts, handler) => {
    const recording = new Recording(opts, handler, options, nextSeq());
    try {
      return dispatch(opts, recording);
    } catch (err) {
      recording.onResponseError(new AttemptController(), asError(err));
      return true;
    }
  };
}

class Recording implements Dispatcher.DispatchHandler {
  readonly #startedAt = new Date().toISOString();
  readonly #t0 = performance.now();
  readonly #chunks: Buffer[] = [];
  #response: { status: number; headers: Record<string, string> } | undefined;
  #recorded = false;

  constructor(
    readonly opts: Dispatcher.DispatchOptions,
    readonly outer: Dispatcher.DispatchHandler,
    readonly options: RecorderOptions,
    readonly seq: number,
  ) {
    const note = attemptOf(opts);
    if (note) note.seq = seq;
  }

  onRequestStart(controller: Dispatcher.DispatchController, context: unknown): void {
    this.outer.onRequestStart?.(controller, context);
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    status: number,
    headers: Record<string, string | string[]>,
    message?: string,
  ): void {
    if (status >= 200) this.#response = { status, headers: flattenHeaders(headers) };
    this.outer.onResponseStart?.(controller, status, headers, message);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.#chunks.push(Buffer.from(chunk)); // a copy: the chunk's memory is not ours to keep
    this.outer.onResponseData?.(controller, chunk);
  }

  onResponseEnd(controller: Dispatcher.DispatchController, trailers: Record<string, string | string[]>): void {
    this.#record();
    this.outer.onResponseEnd?.(controller, trailers);
  }

  onResponseError(controller: Dispatcher.DispatchController, error: Error): void {
    this.#record(error);
    this.outer.onResponseError?.(controller, error);
  }

  #record(error?: Error): void {
    if (this.#recorded) return;
    this.#recorded = true;
    const { opts } = this;
    const headers = headersOf(opts);
    const path = apiPathOf(pathnameOf(opts.path), this.options.basePath);
    const operationId = this.options.resolveOperation?.(opts.method, path);
    const note = attemptOf(opts);
    const exchange: RecordedExchange = {
      seq: this.seq,
      ...(operationId === undefined ? {} : { operationId }),
      request: { method: opts.method, url: `${originOf(opts.origin)}${opts.path}`, path, headers, ...requestBody(opts.body) },
      startedAt: this.#startedAt,
      durationMs: Math.round((performance.now() - this.#t0) * 1000) / 1000,
    };
    if (this.#response) {
      const rawBody = Buffer.concat(this.#chunks).toString('utf8');
      const body = parseJson(rawBody);
      exchange.response = { ...this.#response, ...(body === undefined ? {} : { body }), rawBody };
    }
    if (note?.resend) exchange.resend = { ...note.resend };
    if (note?.retryAfter) exchange.retryAfter = { ...note.retryAfter };
    if (error) {
      const coded = toToolkitError(error);
      exchange.error = { code: coded.code, message: coded.message };
    }
    try {
      this.options.sink(exchange, contextOf(opts));
    } catch (err) {
      // A broken sink must not break the request under test; say so loudly instead.
      process.emitWarning(`Exchange sink failed: ${asError(err).message}`, { code: 'PCC_INTERNAL' });
    }
  }
}

function originOf(origin: string | URL | undefined): string {
  if (origin === undefined) return '';
  return (typeof origin === 'string' ? origin : origin.origin).replace(/\/+$/, '');
}

function requestBody(body: Dispatcher.DispatchOptions['body']): { body?: unknown } {
  if (body === undefined || body === null) return {};
  if (typeof body === 'string' || body instanceof Uint8Array) {
    const text = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
    const parsed = parseJson(text);
    return { body: parsed === undefined ? text : parsed };
  }
  return { body: '[streamed body, not recorded]' };
}
