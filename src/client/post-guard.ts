/**
 * Interceptor: the no-retry guard. A POST starts or changes a transaction on a terminal; sending it
 * twice could charge a card twice. Whatever an outer interceptor (or a future maintainer) does, this
 * guard, sitting next to the connection, lets each state-changing request reach the wire once.
 */
import type { Dispatcher } from 'undici';
import { ToolkitError } from '../core/errors.ts';
import { failLater } from './attempt-controller.ts';
import { contextOf, isSafeMethod } from './request-options.ts';

/**
 * Counts the sends of each request (by its request context) and fails a second send of any method
 * other than GET/HEAD with `PCC_RETRY_FORBIDDEN`, without touching the network. Requests without a
 * context cannot be told apart and are only marked non-idempotent. Also sets `idempotent: false` on
 * them, so undici never pipelines or replays them either.
 */
export function postGuard(): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) => {
    if (isSafeMethod(opts.method)) return dispatch(opts, handler);
    const ctx = contextOf(opts);
    if (ctx) {
      ctx.sends = (ctx.sends ?? 0) + 1;
      if (ctx.sends > 1) {
        failLater(handler, new ToolkitError('PCC_RETRY_FORBIDDEN',
          `refused to send ${opts.method} ${opts.path} a second time (send #${ctx.sends})`,
          'a state-changing request is never retried automatically; this is a toolkit bug'));
        return true;
      }
    }
    return dispatch({ ...opts, idempotent: false }, handler);
  };
}
