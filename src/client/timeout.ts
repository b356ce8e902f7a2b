/**
 * Interceptor: one deadline per attempt for the whole exchange (connect, headers and body), ending in
 * a `PCC_TIMEOUT` ToolkitError that the recorder (outside this interceptor) writes into the Exchange.
 */
import type { Dispatcher } from 'undici';
import { ToolkitError } from '../core/errors.ts';
import { AttemptController, asError } from './attempt-controller.ts';
import { networkCodeOf } from './network-error.ts';

const UNDICI_TIMEOUTS = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/**
 * Fails a request that has not fully answered (headers and body) within `ms` milliseconds with
 * `PCC_TIMEOUT`, and aborts its connection. Undici's own timeout errors map to the same code.
 *
 * @param ms - the deadline of one attempt, in milliseconds
 */
export function timeout(ms: number): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) => {
    const relay = new TimeoutRelay(handler, ms, `${opts.method} ${opts.path}`);
    try {
      return dispatch(opts, relay);
    } catch (err) {
      relay.onResponseError(relay.controller, asError(err));
      return true;
    }
  };
}

/** A timer this much late means the event loop stood still: what arrived meanwhile is read first. */
const LATE_MS = 100;

class TimeoutRelay implements Dispatcher.DispatchHandler {
  readonly controller = new AttemptController();
  #timer: NodeJS.Timeout;
  readonly #due: number;
  #graced = false;
  #done = false;

  constructor(
    readonly outer: Dispatcher.DispatchHandler,
    readonly ms: number,
    readonly what: string,
  ) {
    this.#due = Date.now() + ms;
    this.#timer = setTimeout(() => this.#expire(), ms);
  }

  #expire(): void {
    // Timers run before the I/O of the same turn of the event loop: after a stall of this process the
    // answer may be waiting unread in the socket. A timer that fired late waits one turn more (a new
    // timer runs after this turn's I/O), so a time-out is only what the service did not answer in time.
    if (!this.#graced && Date.now() - this.#due > LATE_MS) {
      this.#graced = true;
      this.#timer = setTimeout(() => this.#fail(), 0);
      return;
    }
    this.#fail();
  }

  #fail(): void {
    if (this.#done) return;
    const err = new ToolkitError(
      'PCC_TIMEOUT',
      `${this.what}: no complete answer within ${this.ms} ms`,
      'raise timeoutMs, or check why the target is slow',
    );
    // Answer the caller now, then abort the attempt; whatever it reports afterwards is ignored.
    this.onResponseError(this.controller, err);
    this.controller.abort(err);
  }

  #finish(): boolean {
    if (this.#done) return false;
    this.#done = true;
    clearTimeout(this.#timer);
    return true;
  }

  onRequestStart(controller: Dispatcher.DispatchController, context: unknown): void {
    this.controller.setTarget(controller);
    if (!this.#done) this.outer.onRequestStart?.(this.controller, context);
  }

  onResponseStart(_c: Dispatcher.DispatchController, status: number, headers: Record<string, string | string[]>, message?: string): void {
    if (!this.#done) this.outer.onResponseStart?.(this.controller, status, headers, message);
  }

  onResponseData(_c: Dispatcher.DispatchController, chunk: Buffer): void {
    if (!this.#done) this.outer.onResponseData?.(this.controller, chunk);
  }

  onResponseEnd(_c: Dispatcher.DispatchController, trailers: Record<string, string | string[]>): void {
    if (this.#finish()) this.outer.onResponseEnd?.(this.controller, trailers);
  }

  onResponseError(_c: Dispatcher.DispatchController, error: Error): void {
    if (!this.#finish()) return;
    const code = networkCodeOf(error);
    const mapped =
      code && UNDICI_TIMEOUTS.has(code)
        ? new ToolkitError('PCC_TIMEOUT', `${this.what}: ${error.message} (${code})`, 'raise timeoutMs, or check why the target is slow', {
            cause: error,
          })
        : error;
    this.outer.onResponseError?.(this.controller, mapped);
  }
}
