/** Request paths: the spec's trailing-slash rule and the paths that carry no bearer token. */

/** The token endpoint (spec: called without a bearer token). */
export const TOKEN_PATH = '/v1/auth/token/';

/** The pairing endpoint (spec: called without a bearer token). */
export const PAIR_PATH = '/v1/pay-connect/pair/';

/**
 * `path` with a leading slash and a trailing slash on its path part (before any query string or
 * fragment): the spec says every path ends with one, and a missing slash would otherwise be a
 * toolkit bug reported as a service failure.
 */
export function withTrailingSlash(path: string): string {
  const cut = path.search(/[?#]/);
  let pathname = cut === -1 ? path : path.slice(0, cut);
  const rest = cut === -1 ? '' : path.slice(cut);
  if (!pathname.startsWith('/')) pathname = `/${pathname}`;
  if (!pathname.endsWith('/')) pathname = `${pathname}/`;
  return pathname + rest;
}

/** The path part of `path`, without query string or fragment. */
export function pathnameOf(path: string): string {
  const cut = path.search(/[?#]/);
  return cut === -1 ? path : path.slice(0, cut);
}

/** `path` under the base path a target mounts the API under (`/paycon/v1/x/` under `/paycon`: `/v1/x/`); else `path`. */
export function apiPathOf(path: string, basePath = ''): string {
  const base = basePath.replace(/\/+$/, '');
  return base !== '' && path.startsWith(`${base}/`) ? path.slice(base.length) : path;
}

/**
 * True when the path part of `path` ends with one of `paths` (trailing slashes ignored), so that a
 * base URL with a path prefix (`https://host/api/v1/auth/token/`) still matches.
 */
export function matchesPath(path: string, paths: readonly string[]): boolean {
  const trim = (p: string): string => p.replace(/\/+$/, '');
  const actual = trim(pathnameOf(path));
  return paths.some((p) => {
    const wanted = trim(p);
    return actual === wanted || actual.endsWith(wanted.startsWith('/') ? wanted : `/${wanted}`);
  });
}
