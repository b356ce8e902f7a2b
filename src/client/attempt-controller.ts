/**
 * A stable controller for interceptors that send a request more than once (bearer re-send after a
 * 401, GET re-send after a reset) or answer it without sending it at all (timeout before connect,
 * refused retry): the caller's handler sees one controller for the whole request, which forwards to
 * the connection of the current attempt. Modelled on undici's own RetryController.
 */
import type { Duplex } from 'node:stream';
import type { Dispatcher } from 'undici';

/** A `DispatchController` that forwards to the controller of the current attempt, if any. */
export class AttemptController implements Dispatcher.DispatchController {
  #target: Dispatcher.DispatchController | null = null;
  #paused = false;
  #reason: Error | null = null;

  /** Points the controller at the connection of a new attempt, replaying a pause or an abort. */
  setTarget(target: Dispatcher.DispatchController): void {
    this.#target = target;
    if (this.#paused) target.pause();
    if (this.#reason) target.abort(this.#reason);
  }

  get aborted(): boolean {
    return this.#reason !== null || (this.#target?.aborted ?? false);
  }

  /** Whether the caller aborted the request (not merely an attempt: a timed-out one, say). */
  get abortedByCaller(): boolean {
    return this.#reason !== null;
  }

  get paused(): boolean {
    return this.#paused || (this.#target?.paused ?? false);
  }

  get reason(): Error | null {
    return this.#reason ?? this.#target?.reason ?? null;
  }

  abort(reason: Error): void {
    this.#reason ??= reason;
    this.#target?.abort(reason);
  }

  pause(): void {
    this.#paused = true;
    this.#target?.pause();
  }

  resume(): void {
    this.#paused = false;
    this.#target?.resume();
  }
}

/**
 * What every relay that sends one request more than once shares: one controller for the whole
 * request, pointed at the connection of each attempt, and the caller told of the start only once.
 */
export abstract class AttemptRelay {
  protected readonly controller = new AttemptController();
  #started = false;

  constructor(readonly outer: Dispatcher.DispatchHandler) {}

  onRequestStart(controller: Dispatcher.DispatchController, context: unknown): void {
    this.controller.setTarget(controller);
    if (this.#started) return;
    this.#started = true;
    this.outer.onRequestStart?.(this.controller, context);
  }
}

/**
 * Reports `error` to `handler` on a later tick, for a request that did not (or not yet) reach the
 * next dispatcher. Undici delivers errors asynchronously; doing the same keeps callers uniform.
 */
export function failLater(
  handler: Dispatcher.DispatchHandler,
  error: Error,
  controller: Dispatcher.DispatchController = new AttemptController(),
): void {
  queueMicrotask(() => handler.onResponseError?.(controller, error));
}

/** `err` as an Error (undici handlers only take Errors). */
export function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}

/**
 * A handler that passes every event of one attempt on to `outer` unchanged, and shows `onStart` the
 * status and headers of its answer first (what an interceptor notes about the answer, next to the wire).
 */
export class ResponseStartWatch implements Dispatcher.DispatchHandler {
  constructor(
    readonly outer: Dispatcher.DispatchHandler,
    readonly onStart: (status: number, headers: Record<string, string | string[]>) => void,
  ) {}

  onRequestStart(controller: Dispatcher.DispatchController, context: unknown): void {
    this.outer.onRequestStart?.(controller, context);
  }

  onRequestUpgrade(
    controller: Dispatcher.DispatchController,
    status: number,
    headers: Record<string, string | string[]>,
    socket: Duplex,
  ): void {
    this.outer.onRequestUpgrade?.(controller, status, headers, socket);
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    status: number,
    headers: Record<string, string | string[]>,
    message?: string,
  ): void {
    this.onStart(status, headers);
    this.outer.onResponseStart?.(controller, status, headers, message);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.outer.onResponseData?.(controller, chunk);
  }

  onResponseEnd(controller: Dispatcher.DispatchController, trailers: Record<string, string | string[]>): void {
    this.outer.onResponseEnd?.(controller, trailers);
  }

  onResponseError(controller: Dispatcher.DispatchController, error: Error): void {
    this.outer.onResponseError?.(controller, error);
  }
}
