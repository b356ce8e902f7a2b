/**
 * Interceptor, the innermost one: which connection a request goes on.
 *
 * A keep-alive connection that has idled may be closed by the service, or by a proxy or load balancer
 * in front of it, at any moment, announced or not (nginx `keepalive_timeout`, AWS ALB, Envoy and
 * HAProxy all close idle connections on their own schedule). A request written on it as it closes
 * gets no answer, and the service never read it. For a GET that costs nothing: it is sent once more
 * (resetRetry), on a connection of its own. A POST may have reached the service, so it is never sent
 * again; it must therefore never meet an idled connection in the first place. So every request that
 * starts or changes something (any method but GET and HEAD), and every re-send, goes on a connection
 * opened for it and closed after its answer (`connection: close`); only GET and HEAD share pooled
 * keep-alive connections. A request that then gets no answer was written on a connection the service
 * had just accepted: that is the service's doing, and `request.answered` says so.
 *
 * This is what careful clients do, seen from the other side: Go's transport and Chromium re-send only
 * what they know the server never read, and Node documents `request.reusedSocket` for the same race.
 */
import type { Agent as UndiciAgent, Dispatcher } from 'undici';
import { Agent } from '../core/undici.ts';
import { isSafeMethod, type PccDispatchOptions } from './request-options.ts';

/** Whether `opts` must go on a connection of its own. */
export function needsFreshConnection(opts: Dispatcher.DispatchOptions): boolean {
  return !isSafeMethod(opts.method) || (opts as PccDispatchOptions).freshConnection === true;
}

/**
 * The options of an Agent that keeps no connection once its answer is in: every request it sends
 * opens a connection of its own (`pipelining: 0` sends `connection: close` and closes the socket
 * after the answer).
 */
export const FRESH_AGENT_OPTIONS = { pipelining: 0 } as const satisfies UndiciAgent.Options;

/** An Agent with {@link FRESH_AGENT_OPTIONS}. */
export function createFreshAgent(options: UndiciAgent.Options = {}): UndiciAgent {
  return new Agent({ ...options, ...FRESH_AGENT_OPTIONS });
}

/**
 * Sends what {@link needsFreshConnection} picks through `fresh` (a dispatcher with {@link FRESH_AGENT_OPTIONS}),
 * everything else through the pooled dispatcher below.
 */
export function freshConnections(fresh: Dispatcher): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) => (needsFreshConnection(opts) ? fresh.dispatch(opts, handler) : dispatch(opts, handler));
}
