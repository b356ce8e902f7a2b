/**
 * Interceptor: the no-retry guard. A POST starts or changes a transaction on a terminal; sending it
 * twice could charge a card twice. Whatever an outer interceptor (or a future maintainer) does, this
 * guard, sitting next to the connection, lets each state-changing request reach the wire once. The
 * one exception is explicit: a send the service refused with 429 or 503 and Retry-After (refused, not
 * processed: it asked the client to wait) may be followed by one re-send marked as a re-send after
 * Retry-After; the guard sees that answer itself, next to the wire, and allows nothing else.
 */
import type { Dispatcher } from 'undici';
import { ToolkitError } from '../core/errors.ts';
import { ResponseStartWatch, failLater } from './attempt-controller.ts';
import { attemptOf, contextOf, flattenHeaders, isSafeMethod } from './request-options.ts';
import { WAIT_STATUSES } from './retry-after.ts';

/**
 * Counts the sends of each request (by its request context) and fails a second send of any method
 * other than GET/HEAD with `PCC_RETRY_FORBIDDEN`, without touching the network, unless the previous
 * send was answered 429 or 503 with a Retry-After header and this one is marked as the re-send after
 * it. Requests without a context cannot be told apart and are only marked non-idempotent. Also sets
 * `idempotent: false` on them, so undici never pipelines or replays them either.
 */
export function postGuard(): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) => {
    if (isSafeMethod(opts.method)) return dispatch(opts, handler);
    const ctx = contextOf(opts);
    if (!ctx) return dispatch({ ...opts, idempotent: false }, handler);
    ctx.sends = (ctx.sends ?? 0) + 1;
    const allowed = ctx.sends === 1 || (ctx.refusedWithRetryAfter === true && attemptOf(opts)?.resend?.after === 'retry-after');
    if (!allowed) {
      failLater(
        handler,
        new ToolkitError(
          'PCC_RETRY_FORBIDDEN',
          `refused to send ${opts.method} ${opts.path} a second time (send #${ctx.sends})`,
          'a state-changing request is never retried automatically (only after a 429/503 with Retry-After); this is a toolkit bug',
        ),
      );
      return true;
    }
    ctx.refusedWithRetryAfter = false;
    // Noted next to the wire: whether this answer refused the POST and asked to wait.
    const watched = new ResponseStartWatch(handler, (status, headers) => {
      ctx.refusedWithRetryAfter = WAIT_STATUSES.has(status) && flattenHeaders(headers)['retry-after'] !== undefined;
    });
    return dispatch({ ...opts, idempotent: false }, watched);
  };
}
