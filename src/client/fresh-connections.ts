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
 * Except where the service said how long it keeps a connection: an answer with `Keep-Alive:
 * timeout=N` (HTTP/1.0's keep-alive header, RFC 2068 19.7.1.1; Node's HTTP server sends timeout=5
 * unless told otherwise, nginx when keepalive_timeout has its second value) is its word on that
 * connection. Once the latest answer of an origin carried one, its requests, a POST too, go on
 * connections kept only while just used: at most {@link JUST_USED_MS} after their last answer, and
 * never past N seconds less undici's 2 s margin (so `timeout=2` or less keeps none). A POST then
 * never waits on a new connection (about 1 ms of CPU on either side over loopback, a TLS handshake
 * over the network) when a request of the same client has just been answered, and still never rides
 * one that idled. A service that closes a connection it announced it keeps, within a quarter second
 * of its answer, has broken its own word: the lost POST is its doing. Nothing announced (nginx and
 * most load balancers by default, this toolkit's liberal sandbox, `sim --keep-alive <ms>`): as above,
 * a connection of its own per POST.
 *
 * This is what careful clients do, seen from the other side: Go's transport and Chromium re-send only
 * what they know the server never read, and Node documents `request.reusedSocket` for the same race.
 */
import type { Agent as UndiciAgent, Dispatcher } from 'undici';
import { Agent } from '../core/undici.ts';
import { ResponseStartWatch } from './attempt-controller.ts';
import { isSafeMethod, type PccDispatchOptions } from './request-options.ts';

/**
 * How long after its last answer a connection counts as just used, in milliseconds: a quarter of
 * the shortest idle time-outs in use (1 s: this toolkit's own staging front, some load balancers),
 * which leaves most of it for the round trip.
 */
export const JUST_USED_MS = 250;

/** Whether `opts` must go on a connection of its own, when its origin announced no keep-alive. */
export function needsFreshConnection(opts: Dispatcher.DispatchOptions): boolean {
  return !isSafeMethod(opts.method) || (opts as PccDispatchOptions).freshConnection === true;
}

/** Whether an answer's headers announce how long its connection is kept (`Keep-Alive: timeout=N`). */
export function announcesKeepAlive(headers: Record<string, string | string[] | undefined>): boolean {
  const value = headers['keep-alive'];
  return /(?:^|[\s,;])timeout\s*=\s*"?\d/i.test(Array.isArray(value) ? value.join(',') : (value ?? ''));
}

/**
 * The options of an Agent that keeps no connection once its answer is in: every request it sends
 * opens a connection of its own (`pipelining: 0` sends `connection: close` and closes the socket
 * after the answer).
 */
export const FRESH_AGENT_OPTIONS = { pipelining: 0 } as const satisfies UndiciAgent.Options;

/**
 * The options of an Agent whose connections stay only while just used: {@link JUST_USED_MS} after
 * their last answer when it announced a keep-alive (less when the announced time, less undici's 2 s
 * margin, is shorter), a millisecond when it did not (nothing is sent on those: see {@link freshConnections}).
 */
export const JUST_USED_AGENT_OPTIONS = {
  keepAliveTimeout: 1,
  keepAliveMaxTimeout: JUST_USED_MS,
  keepAliveTimeoutThreshold: 2_000,
} as const satisfies UndiciAgent.Options;

/** An Agent with {@link FRESH_AGENT_OPTIONS}. */
export function createFreshAgent(options: UndiciAgent.Options = {}): UndiciAgent {
  return new Agent({ ...options, ...FRESH_AGENT_OPTIONS });
}

/**
 * Sends each request on its connection: a re-send through `fresh` (a dispatcher with
 * {@link FRESH_AGENT_OPTIONS}); any request to an origin whose latest answer announced a keep-alive
 * through `justUsed` (a dispatcher with {@link JUST_USED_AGENT_OPTIONS}); otherwise what
 * {@link needsFreshConnection} picks through `fresh` and the rest through the pooled dispatcher below.
 */
export function freshConnections(fresh: Dispatcher, justUsed: Dispatcher): Dispatcher.DispatcherComposeInterceptor {
  /** Origins whose latest answer announced a keep-alive. */
  const announced = new Set<string>();
  return (dispatch) => (opts, handler) => {
    if ((opts as PccDispatchOptions).freshConnection === true) return fresh.dispatch(opts, handler);
    const origin = String(opts.origin);
    const kept = announced.has(origin);
    const own = !kept && needsFreshConnection(opts);
    const watched = new ResponseStartWatch(handler, (status, headers) => {
      // A 1xx says nothing of the connection. An answer on a connection the request asked to close
      // says nothing when it announces no keep-alive: Node's server then says `Connection: close`.
      if (status < 200) return;
      if (announcesKeepAlive(headers)) announced.add(origin);
      else if (!own) announced.delete(origin);
    });
    if (kept) return justUsed.dispatch(opts, watched);
    return own ? fresh.dispatch(opts, watched) : dispatch(opts, watched);
  };
}
