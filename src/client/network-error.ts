/**
 * Turns what undici or Node throws into the toolkit's coded errors, so that callers and Exchange
 * records see `PCC_TARGET_UNREACHABLE` / `PCC_TIMEOUT` rather than a zoo of errno and UND_ERR codes.
 */
import { isToolkitError, ToolkitError } from '../core/errors.ts';
import { asError } from './attempt-controller.ts';

const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENETDOWN']);
const RESET = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ECONNABORTED']);
const TIMEOUT = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

/** The errno or undici code of `err` (or of its cause), if any. */
export function networkCodeOf(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** True when `err` is a connection reset or an unexpected close by the other side. */
export function isConnectionReset(err: unknown): boolean {
  const code = networkCodeOf(err);
  return code !== undefined && RESET.has(code);
}

/**
 * `err` as a ToolkitError: a ToolkitError is kept; refused/unresolvable and reset connections become
 * `PCC_TARGET_UNREACHABLE`; undici's timeouts become `PCC_TIMEOUT`; anything else is `PCC_INTERNAL`.
 * The original error is kept as `cause`, and its code is named in the message.
 */
export function toToolkitError(err: unknown): ToolkitError {
  if (isToolkitError(err)) return err;
  const e = asError(err);
  const code = networkCodeOf(e);
  const detail = `${code ? `${code}: ` : ''}${e.message}`;
  if (code && UNREACHABLE.has(code)) {
    return new ToolkitError(
      'PCC_TARGET_UNREACHABLE',
      `the target could not be reached (${detail})`,
      'check the base URL and that the service is running',
      { cause: e },
    );
  }
  if (code && RESET.has(code)) {
    return new ToolkitError(
      'PCC_TARGET_UNREACHABLE',
      `the connection was closed by the target before a complete answer (${detail})`,
      'check the service logs; the request was not re-sent if it was a POST',
      { cause: e },
    );
  }
  if (code && TIMEOUT.has(code)) {
    return new ToolkitError('PCC_TIMEOUT', `the request timed out (${detail})`, 'raise timeoutMs or check that the target answers', {
      cause: e,
    });
  }
  return new ToolkitError('PCC_INTERNAL', `the request failed (${detail})`, undefined, { cause: e });
}
