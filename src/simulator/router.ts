/**
 * Exact path matching: every path ends with a slash (so `/v1/pay-connect/config` is unknown, 404),
 * `:name` segments capture one non-empty URL-decoded segment, and a known path with another method
 * is a 405 with an Allow header.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Pairing } from './store.ts';

/** A request as a handler sees it. */
export interface ApiRequest {
  readonly params: Readonly<Record<string, string>>;
  readonly headers: IncomingHttpHeaders;
  /** The raw body (at most the body limit). */
  readonly raw: Buffer;
  /** The authenticated pairing (routes with `auth: 'bearer'`). */
  readonly pairing: Pairing;
}

/** A successful answer: JSON `body`, or no body at all when `body` is undefined. */
export interface Reply {
  readonly status: number;
  readonly body?: unknown;
  /** The body already serialised as JSON (takes the place of `body`). */
  readonly json?: string;
}

/** One endpoint. `auth: 'bearer'` needs a token and the pairing's integrator header. */
export interface Route {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly auth: 'none' | 'bearer';
  /** The simulator's own control surface (`/_sim/...`): no fault switch bends its answers. */
  readonly control?: boolean;
  readonly handle: (req: ApiRequest) => Reply;
}

/** The result of matching a method and path. */
export type Match =
  | { readonly kind: 'found'; readonly route: Route; readonly params: Record<string, string> }
  | { readonly kind: 'not-found' }
  | { readonly kind: 'wrong-method'; readonly allow: readonly string[] };

interface Compiled {
  readonly route: Route;
  readonly segments: readonly string[];
}

/** Matches requests against a fixed route table. */
export class Router {
  private readonly compiled: readonly Compiled[];

  constructor(routes: readonly Route[]) {
    this.compiled = routes.map((route) => ({ route, segments: route.path.split('/') }));
  }

  match(method: string, path: string): Match {
    const parts = path.split('/');
    const allow: string[] = [];
    for (const c of this.compiled) {
      const params = matchSegments(c.segments, parts);
      if (!params) continue;
      if (c.route.method === method) return { kind: 'found', route: c.route, params };
      allow.push(c.route.method);
    }
    return allow.length > 0 ? { kind: 'wrong-method', allow } : { kind: 'not-found' };
  }
}

function matchSegments(pattern: readonly string[], parts: readonly string[]): Record<string, string> | null {
  if (pattern.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i] as string;
    const v = parts[i] as string;
    if (p.startsWith(':')) {
      if (v === '') return null;
      try {
        params[p.slice(1)] = decodeURIComponent(v);
      } catch {
        return null; // malformed percent-encoding: no such resource
      }
    } else if (p !== v) {
      return null;
    }
  }
  return params;
}
