/**
 * HTTP-level errors of the simulated service. Handlers throw them; the server turns every one (and
 * anything unexpected, as a 500) into a `{"detail": "..."}` JSON answer.
 */

/** An error answer of the simulated API. */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(detail);
  }
}

/** 400: the request is malformed or not allowed in the current state. */
export const badRequest = (detail: string) => new HttpError(400, detail);
/** 401: missing, unknown, expired or revoked credentials. */
export const unauthorized = (detail: string) => new HttpError(401, detail, { 'www-authenticate': 'Bearer' });
/** 404: unknown path or id. */
export const notFound = (detail: string) => new HttpError(404, detail);
/** 409: the terminal is busy with another transaction. */
export const conflict = (detail: string) => new HttpError(409, detail);
