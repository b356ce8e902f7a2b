/**
 * Interceptor: a GET that meets a connection reset before any answer is sent once more, on a
 * connection of its own (another pooled one may have idled as long). Only GET and HEAD: a POST met by
 * a reset fails at once (see postGuard), because the service may have acted on it.
 */
import type { Dispatcher } from 'undici';
import { AttemptRelay, asError } from './attempt-controller.ts';
import { isSafeMethod, type PccDispatchOptions } from './request-options.ts';
import { isConnectionReset } from './network-error.ts';

/** Options of {@link resetRetry}. */
export interface ResetRetryOptions {
  /** How many extra sends a GET gets after a reset. @default 1 */
  retries?: number;
}

/** Re-sends a GET/HEAD after a connection reset that came before the response started. */
export function resetRetry(options: ResetRetryOptions = {}): Dispatcher.DispatcherComposeInterceptor {
  const retries = options.retries ?? 1;
  return (dispatch) => (opts, handler) => {
    if (!isSafeMethod(opts.method) || retries < 1) return dispatch(opts, handler);
    return new ResetRelay(dispatch, opts, handler, retries).send();
  };
}

class ResetRelay extends AttemptRelay implements Dispatcher.DispatchHandler {
  #responded = false;
  #left: number;
  #sent = 0;

  constructor(
    readonly dispatch: Dispatcher.Dispatch,
    readonly opts: Dispatcher.DispatchOptions,
    outer: Dispatcher.DispatchHandler,
    retries: number,
  ) {
    super(outer);
    this.#left = retries;
  }

  send(): boolean {
    const again = this.#sent++ > 0;
    return this.dispatch(again ? ({ ...this.opts, freshConnection: true } as PccDispatchOptions) : this.opts, this);
  }

  onResponseStart(_c: Dispatcher.DispatchController, status: number, headers: Record<string, string | string[]>, message?: string): void {
    this.#responded = true;
    this.outer.onResponseStart?.(this.controller, status, headers, message);
  }

  onResponseData(_c: Dispatcher.DispatchController, chunk: Buffer): void {
    this.outer.onResponseData?.(this.controller, chunk);
  }

  onResponseEnd(_c: Dispatcher.DispatchController, trailers: Record<string, string | string[]>): void {
    this.outer.onResponseEnd?.(this.controller, trailers);
  }

  onResponseError(_c: Dispatcher.DispatchController, error: Error): void {
    if (!this.#responded && this.#left > 0 && !this.controller.aborted && isConnectionReset(error)) {
      this.#left--;
      // Not from inside undici's error path: let it finish with the dead socket first.
      setImmediate(() => {
        try {
          this.send();
        } catch (err) {
          this.outer.onResponseError?.(this.controller, asError(err));
        }
      });
      return;
    }
    this.outer.onResponseError?.(this.controller, error);
  }
}
