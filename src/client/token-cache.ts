/**
 * The bearer token, fetched once and shared: renewed shortly before `expires_in` runs out, dropped on
 * a 401, never fetched twice at the same time.
 */
import { isToolkitError, ToolkitError } from '../core/errors.ts';

/** The part of the token answer the cache needs (spec: `expires_in` is a string). */
export interface TokenResponse {
  access_token: string;
  expires_in: string;
}

/** Fetches a fresh token; usually POSTs /v1/auth/token/ through the same client without bearer. */
export type TokenSource = () => Promise<TokenResponse>;

/** Options of {@link TokenCache}. */
export interface TokenCacheOptions {
  /** Renew this long before expiry, but never earlier than at 80% of the lifetime. @default 30_000 */
  renewMarginMs?: number;
  /** Lifetime assumed when `expires_in` is not a positive decimal number of seconds. @default 60_000 */
  fallbackLifetimeMs?: number;
  /** The clock, in milliseconds. @default Date.now */
  now?: () => number;
  /** Told about anything odd (an unreadable `expires_in`). @default ignores the note */
  onNote?: (message: string) => void;
}

/**
 * Reads `expires_in` as seconds: a decimal string (or, leniently, a number) greater than zero.
 * Returns undefined for anything else; the spec does not publish the unit, seconds is the reading.
 */
export function parseExpiresIn(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : NaN;
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

/** A single cached bearer token over a {@link TokenSource}. */
export class TokenCache {
  #source: TokenSource;
  #token: { value: string; renewAt: number } | undefined;
  #pending: Promise<string> | undefined;
  #generation = 0;
  readonly #margin: number;
  readonly #fallback: number;
  readonly #now: () => number;
  readonly #note: (message: string) => void;

  constructor(source: TokenSource, options: TokenCacheOptions = {}) {
    this.#source = source;
    this.#margin = options.renewMarginMs ?? 30_000;
    this.#fallback = options.fallbackLifetimeMs ?? 60_000;
    this.#now = options.now ?? Date.now;
    this.#note = options.onNote ?? (() => {});
  }

  /** The token, fetching a new one if there is none or it is due for renewal. */
  get(): Promise<string> {
    const token = this.#token;
    if (token && this.#now() < token.renewAt) return Promise.resolve(token.value);
    if (!this.#pending) {
      const generation = this.#generation;
      const pending = this.#fetch(generation).finally(() => {
        if (this.#pending === pending) this.#pending = undefined;
      });
      this.#pending = pending;
    }
    return this.#pending;
  }

  /** The cached token, if any, without fetching. */
  peek(): string | undefined {
    return this.#token?.value;
  }

  /**
   * Drops the cached token, so the next {@link get} fetches a new one. With `token`, only if that is
   * still the cached one: a 401 on an old token must not throw away a token renewed meanwhile.
   */
  invalidate(token?: string): void {
    if (token !== undefined && this.#token !== undefined && this.#token.value !== token) return;
    this.#token = undefined;
    this.#pending = undefined;
    this.#generation++;
  }

  /** Uses `source` from now on (new credentials) and drops the cached token. */
  setSource(source: TokenSource): void {
    this.#source = source;
    this.invalidate();
  }

  async #fetch(generation: number): Promise<string> {
    const start = this.#now();
    let answer: TokenResponse;
    try {
      answer = await this.#source();
    } catch (err) {
      if (isToolkitError(err)) throw err;
      throw new ToolkitError(
        'PCC_AUTH_FAILED',
        `the token source failed: ${(err as Error)?.message ?? err}`,
        'check the client credentials and the token endpoint',
        { cause: err },
      );
    }
    const value = answer?.access_token;
    if (typeof value !== 'string' || value === '') {
      throw new ToolkitError(
        'PCC_AUTH_FAILED',
        'the token answer has no access_token',
        'check the client credentials and the token endpoint',
      );
    }
    const seconds = parseExpiresIn(answer.expires_in);
    if (seconds === undefined) {
      this.#note(
        `expires_in ${JSON.stringify(answer.expires_in)} is not a positive number of seconds; ` + `assuming ${this.#fallback / 1000} s`,
      );
    }
    const lifetime = seconds === undefined ? this.#fallback : seconds * 1000;
    const renewAt = start + lifetime - Math.min(this.#margin, lifetime * 0.2);
    if (generation === this.#generation) this.#token = { value, renewAt };
    return value;
  }
}
