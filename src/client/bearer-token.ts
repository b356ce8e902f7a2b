/**
 * Interceptor: `Authorization: Bearer <token>` from a {@link TokenCache}, with the spec's exceptions
 * (token and pairing paths) and the probes' overrides. On a 401 the token is dropped; a GET is then
 * sent once more with a new token, a POST never is (it may have started something on the terminal).
 */
import type { Dispatcher } from 'undici';
import { isToolkitError, ToolkitError } from '../core/errors.ts';
import { AttemptRelay, asError, failLater } from './attempt-controller.ts';
import { contextOf, headersOf, isSafeMethod } from './request-options.ts';
import { matchesPath, PAIR_PATH, TOKEN_PATH } from './path.ts';
import { TokenCache, type TokenCacheOptions, type TokenSource } from './token-cache.ts';

/** Options of {@link bearerToken}. */
export interface BearerTokenOptions extends TokenCacheOptions {
  /** Paths that never get the token (matched on the end of the path). @default [TOKEN_PATH, PAIR_PATH] */
  exemptPaths?: readonly string[];
}

/**
 * Adds the bearer token to every request whose context says `auth: 'auto'` (the default) and that
 * has no Authorization of its own. `auth: 'none'` strips Authorization; `{ bearer }` sends that one.
 *
 * @param tokens - a token source, or a cache to share with the client (to invalidate it from outside)
 */
export function bearerToken(tokens: TokenSource | TokenCache, options: BearerTokenOptions = {}): Dispatcher.DispatcherComposeInterceptor {
  const cache = tokens instanceof TokenCache ? tokens : new TokenCache(tokens, options);
  const exempt = options.exemptPaths ?? [TOKEN_PATH, PAIR_PATH];
  return (dispatch) => (opts, handler) => {
    const auth = contextOf(opts)?.auth ?? 'auto';
    const headers = headersOf(opts);
    if (auth === 'none') delete headers.authorization;
    else if (typeof auth === 'object') headers.authorization = `Bearer ${auth.bearer}`;
    if (auth !== 'auto' || headers.authorization !== undefined || matchesPath(opts.path, exempt)) {
      return dispatch({ ...opts, headers }, handler);
    }
    void new BearerRelay(dispatch, { ...opts, headers }, handler, cache).send();
    return true;
  };
}

class BearerRelay extends AttemptRelay implements Dispatcher.DispatchHandler {
  #resent = false;
  #swallow = false;
  #token = '';

  constructor(
    readonly dispatch: Dispatcher.Dispatch,
    readonly opts: Dispatcher.DispatchOptions & { headers: Record<string, string> },
    outer: Dispatcher.DispatchHandler,
    readonly cache: TokenCache,
  ) {
    super(outer);
  }

  async send(): Promise<void> {
    try {
      this.#token = await this.cache.get();
      if (this.controller.aborted) throw this.controller.reason ?? new Error('request aborted');
      this.#swallow = false;
      const headers = { ...this.opts.headers, authorization: `Bearer ${this.#token}` };
      this.dispatch({ ...this.opts, headers }, this);
    } catch (err) {
      const error = isToolkitError(err)
        ? err
        : new ToolkitError('PCC_AUTH_FAILED', `no bearer token: ${asError(err).message}`, 'check the credentials', { cause: err });
      failLater(this.outer, error, this.controller);
    }
  }

  onResponseStart(_c: Dispatcher.DispatchController, status: number, headers: Record<string, string | string[]>, message?: string): void {
    if (status === 401) {
      this.cache.invalidate(this.#token);
      if (!this.#resent && isSafeMethod(this.opts.method)) {
        this.#resent = true;
        this.#swallow = true; // read this answer to its end, then send again
        return;
      }
    }
    this.outer.onResponseStart?.(this.controller, status, headers, message);
  }

  onResponseData(_c: Dispatcher.DispatchController, chunk: Buffer): void {
    if (!this.#swallow) this.outer.onResponseData?.(this.controller, chunk);
  }

  onResponseEnd(_c: Dispatcher.DispatchController, trailers: Record<string, string | string[]>): void {
    if (this.#swallow) void this.send();
    else this.outer.onResponseEnd?.(this.controller, trailers);
  }

  onResponseError(_c: Dispatcher.DispatchController, error: Error): void {
    this.outer.onResponseError?.(this.controller, error);
  }
}
