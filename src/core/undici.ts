/**
 * The parts of undici the toolkit runs on (Agent, EnvHttpProxyAgent and a dispatcher's `request`),
 * loaded without the rest. undici's entry point loads all of it, fetch, WebSocket, EventSource, the
 * cache and the mocks included: 0.07 s of CPU in a run's process and about 0.1 s in each of its
 * workers, at every start, for nothing the toolkit calls (a narrow run costs 2.5 CPU-s in all).
 *
 * These paths are undici's own files, not exports it promises: package.json pins its exact version,
 * and undici.test.ts holds each to the class of the entry point, so an upgrade that moves one fails
 * the unit tests, not an integrator's run. Types come from the entry point (erased at build).
 */
import { createRequire } from 'node:module';
import type * as Undici from 'undici';

const load = createRequire(import.meta.url);

const Dispatcher = load('undici/lib/dispatcher/dispatcher.js') as typeof Undici.Dispatcher;
// As undici's index.js does: the request methods (request, stream, pipeline, upgrade, connect) on
// every dispatcher. Idempotent: the same functions, should the entry point be loaded too.
Object.assign(Dispatcher.prototype, load('undici/lib/api/index.js') as object);

/** undici's Agent. */
export const Agent = load('undici/lib/dispatcher/agent.js') as typeof Undici.Agent;
/** undici's EnvHttpProxyAgent. */
export const EnvHttpProxyAgent = load('undici/lib/dispatcher/env-http-proxy-agent.js') as typeof Undici.EnvHttpProxyAgent;

/**
 * `undici.request(url, options)` over an explicit dispatcher: the URL split into origin and path as
 * the entry point's `request` splits it.
 */
export function requestWith(
  dispatcher: Undici.Dispatcher,
  url: string | URL,
  options: Omit<Undici.Dispatcher.RequestOptions, 'origin' | 'path'>,
): Promise<Undici.Dispatcher.ResponseData> {
  const u = new URL(url);
  return dispatcher.request({ ...options, origin: u.origin, path: `${u.pathname}${u.search}` });
}
