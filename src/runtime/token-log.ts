/**
 * The bearer tokens a pairing's client obtained for itself (its token cache's requests), as recorded:
 * when each was asked for and answered, and the `expires_in` it came with. A 401 on a request that
 * carried the client's own token is judged against it: a token refused while younger than the
 * lifetime it was issued with died early (sandbox#tokens), and that, not the request's own rule, is
 * the defect (see Scope.call).
 *
 * Tokens a test asks for explicitly (`scope.call(p, 'getToken')`) are not the cache's: the scope
 * takes them out again as soon as it sees their answer ({@link TokenLog.explicit}).
 */
import { parseExpiresIn } from '../client/index.ts';
import type { Exchange } from '../core/index.ts';

/** One token the client's cache obtained. */
export interface IssuedToken {
  /** The token request's sequence number. */
  seq: number;
  /** When the token request was sent (epoch ms): the token is at most this old on the service's clock. */
  askedAt: number;
  /** When its answer arrived (epoch ms): requests sent after this may carry it. */
  answeredAt: number;
  /** `expires_in` as the service wrote it. */
  expiresIn: unknown;
}

/** How old the token a request carried was, and the lifetime it was issued with. */
export interface TokenAge {
  token: IssuedToken;
  /** The most the token can have aged by the time the service answered the request, ms. */
  ageMs: number;
  /** `expires_in` read as seconds, in ms; undefined when it is not a positive number of seconds. */
  lifetimeMs?: number;
}

/** Below the lifetime by at least this much, a refused token died early (a service may count whole seconds). */
export const TOKEN_AGE_SLACK_MS = 1000;

const KEEP = 32;

export class TokenLog {
  readonly #issued: IssuedToken[] = [];

  /** Takes in an exchange of the client: a token answered 200 is logged. */
  see(ex: Exchange): void {
    if (ex.operationId !== 'getToken' || ex.response?.status !== 200) return;
    const body = ex.response.body as { expires_in?: unknown } | undefined;
    const askedAt = Date.parse(ex.startedAt);
    if (!Number.isFinite(askedAt)) return;
    this.#issued.push({ seq: ex.seq, askedAt, answeredAt: askedAt + ex.durationMs, expiresIn: body?.expires_in });
    if (this.#issued.length > KEEP) this.#issued.shift();
  }

  /** A token request a test made itself: its token is not the one the client sends. */
  explicit(seq: number): void {
    const i = this.#issued.findIndex((t) => t.seq === seq);
    if (i >= 0) this.#issued.splice(i, 1);
  }

  /**
   * The age of the token `ex` carried, when `ex` carried the client's own token: the latest one
   * answered before `ex` was sent. Undefined when no such token is known.
   */
  ageAt(ex: Exchange): TokenAge | undefined {
    const sentAt = Date.parse(ex.startedAt);
    if (!Number.isFinite(sentAt)) return undefined;
    let token: IssuedToken | undefined;
    for (const t of this.#issued) if (t.answeredAt <= sentAt && (!token || t.answeredAt > token.answeredAt)) token = t;
    if (!token) return undefined;
    const seconds = parseExpiresIn(token.expiresIn);
    return {
      token,
      ageMs: Math.round(sentAt + ex.durationMs - token.askedAt),
      ...(seconds === undefined ? {} : { lifetimeMs: seconds * 1000 }),
    };
  }
}

/** Whether a refused token was younger than its lifetime (by more than the slack): it died early. */
export function diedEarly(age: TokenAge | undefined): age is TokenAge & { lifetimeMs: number } {
  return age?.lifetimeMs !== undefined && age.ageMs + TOKEN_AGE_SLACK_MS < age.lifetimeMs;
}
