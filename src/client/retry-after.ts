/**
 * Interceptor: a 429 or 503 with `Retry-After` (seconds or an HTTP date) is the service asking the
 * client to wait, not an answer to judge. The client waits as asked and sends the request again, a
 * POST included: such an answer says the request was refused and not processed (RFC 9110 §15.6.4,
 * RFC 6585 §4). That re-send is explicit: the refused attempt and the re-send are both recorded, the
 * first marked `retryAfter` (honoured), the second `resend` (after Retry-After); the POST guard lets
 * exactly that re-send through and refuses every other one. A POST without an answer, a 5xx without
 * Retry-After, or any other status is never sent again.
 *
 * Bounded: a wait longer than `maxWaitMs` (or than what is left of the request's own `maxWaitMs`) is
 * not honoured, and a request is sent again at most `maxResends` times; the answer that asked for
 * the wait is then the answer (marked not honoured, with the reason) and is judged as any other.
 */
import type { Dispatcher } from 'undici';
import { AttemptRelay, asError } from './attempt-controller.ts';
import { contextOf, flattenHeaders, type AttemptNote, type PccDispatchOptions, type ResendMark } from './request-options.ts';

/** The statuses whose Retry-After asks the client to wait (too many requests, unavailable). */
export const WAIT_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/** Options of {@link retryAfter}. */
export interface RetryAfterOptions {
  /** The longest single wait honoured, in milliseconds. @default 10_000 (the client's request timeout) */
  maxWaitMs?: number;
  /** How many times one request is sent again after Retry-After. @default 3 */
  maxResends?: number;
  /** The clock an HTTP date is read against. @default Date.now */
  now?: () => number;
}

/**
 * The wait a `Retry-After` value asks for, in milliseconds: delay-seconds (`120`) or an HTTP date
 * (`Wed, 21 Oct 2015 07:28:00 GMT`; a date in the past asks for no wait). Undefined when it is
 * neither: such a header asks nothing the client can honour.
 */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  const v = value?.trim();
  if (!v) return undefined;
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  if (!/^[A-Za-z]{3},? /.test(v)) return undefined; // not an HTTP date (nor a number: "1.5", "-1")
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Whether a request body can be sent a second time (a stream cannot). */
function resendable(body: Dispatcher.DispatchOptions['body']): boolean {
  return body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array;
}

/** Honours Retry-After on 429 and 503 answers, within the caps; see the module's header. */
export function retryAfter(options: RetryAfterOptions = {}): Dispatcher.DispatcherComposeInterceptor {
  const caps = { maxWaitMs: options.maxWaitMs ?? 10_000, maxResends: options.maxResends ?? 3, now: options.now ?? Date.now };
  return (dispatch) => (opts, handler) => new RetryAfterRelay(dispatch, opts, handler, caps).send();
}

class RetryAfterRelay extends AttemptRelay implements Dispatcher.DispatchHandler {
  /** The note of the attempt under way. */
  #note: AttemptNote = {};
  /** The wait before the next send, when the answer under way is being honoured (and swallowed). */
  #honouring: number | undefined;
  #resends = 0;
  #waitedMs = 0;
  #inARow = 0;

  constructor(
    readonly dispatch: Dispatcher.Dispatch,
    readonly opts: Dispatcher.DispatchOptions,
    outer: Dispatcher.DispatchHandler,
    readonly caps: Required<RetryAfterOptions>,
  ) {
    super(outer);
  }

  send(resend?: ResendMark): boolean {
    this.#note = resend ? { resend } : {};
    this.#honouring = undefined;
    const attempt: PccDispatchOptions = { ...this.opts, attempt: this.#note, ...(resend ? { freshConnection: true } : {}) };
    return this.dispatch(attempt, this);
  }

  /** Why a wait of `waitMs` is not honoured, or undefined when it is. */
  #notHonoured(waitMs: number): string | undefined {
    const { maxWaitMs, maxResends } = this.caps;
    if (this.#resends >= maxResends)
      return `still asked to wait after ${this.#resends} re-send${this.#resends === 1 ? '' : 's'} (the client's limit)`;
    if (waitMs > maxWaitMs) return `a wait of ${waitMs} ms is longer than the ${maxWaitMs} ms the client waits`;
    const left = (contextOf(this.opts)?.maxWaitMs ?? Infinity) - this.#waitedMs;
    if (waitMs > left) return `a wait of ${waitMs} ms is longer than the ${Math.max(0, left)} ms the request had left`;
    if (!resendable(this.opts.body)) return 'the request body cannot be sent again';
    return undefined;
  }

  #wait(): void {
    const waitMs = this.#honouring ?? 0;
    const of = this.#note.seq;
    setTimeout(() => {
      if (this.controller.abortedByCaller) {
        this.outer.onResponseError?.(this.controller, this.controller.reason ?? new Error('request aborted'));
        return;
      }
      this.#resends++;
      this.#waitedMs += waitMs;
      try {
        this.send({ after: 'retry-after', ...(of === undefined ? {} : { of }), waitedMs: waitMs, n: this.#resends });
      } catch (err) {
        this.outer.onResponseError?.(this.controller, asError(err));
      }
    }, waitMs);
  }

  onResponseStart(_c: Dispatcher.DispatchController, status: number, headers: Record<string, string | string[]>, message?: string): void {
    const waitMs = WAIT_STATUSES.has(status) ? parseRetryAfter(flattenHeaders(headers)['retry-after'], this.caps.now()) : undefined;
    if (waitMs !== undefined) {
      const reason = this.#notHonoured(waitMs);
      this.#note.retryAfter = {
        status,
        waitMs,
        honoured: reason === undefined,
        ...(reason === undefined ? {} : { reason }),
        inARow: ++this.#inARow,
      };
      // The answer is recorded (the recorder is inside) but not passed on: the caller gets the re-send's.
      if (reason === undefined) {
        this.#honouring = waitMs;
        return;
      }
    }
    this.outer.onResponseStart?.(this.controller, status, headers, message);
  }

  onResponseData(_c: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#honouring === undefined) this.outer.onResponseData?.(this.controller, chunk);
  }

  onResponseEnd(_c: Dispatcher.DispatchController, trailers: Record<string, string | string[]>): void {
    if (this.#honouring === undefined) this.outer.onResponseEnd?.(this.controller, trailers);
    else this.#wait();
  }

  onResponseError(_c: Dispatcher.DispatchController, error: Error): void {
    // The status line already said "refused, wait": a body cut short changes nothing about that.
    if (this.#honouring !== undefined && !this.controller.abortedByCaller) this.#wait();
    else this.outer.onResponseError?.(this.controller, error);
  }
}
