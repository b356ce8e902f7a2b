/**
 * One parser per kind of option value. A parser takes the raw value (a string from a flag or the
 * environment, anything from a config file) and returns it normalized, or throws {@link InvalidValue}
 * with the reason and the fix; the resolver adds which option it was and where it came from.
 */
import { isIP, isIPv4, isIPv6 } from 'node:net';
import { DURATION_HINT, formatDuration, tryParseDuration } from './duration.ts';
import { didYouMean, typeOf } from './messages.ts';
import type { ResolvedTarget } from './types.ts';

/** A value that does not fit its option: why, and how to fix it. */
export class InvalidValue extends Error {
  constructor(
    readonly reason: string,
    readonly hint: string,
  ) {
    super(reason);
  }
}

/**
 * Parses one option's raw value. `fromText` is true for flags and environment variables (always
 * strings), false for config-file values (which must have the type `UserConfig` declares).
 */
export type Parser<T> = (value: unknown, fromText: boolean) => T;

function string(value: unknown, hint: string): string {
  if (typeof value !== 'string') throw new InvalidValue(`expected a string, got ${typeOf(value)}`, hint);
  return value.trim();
}

/** A regular expression (kept as its source text). */
export const regex: Parser<string> = (value) => {
  const s = string(value, 'give a JavaScript regular expression, such as "slip|cancel"');
  try {
    new RegExp(s);
  } catch (e) {
    throw new InvalidValue(`not a regular expression: ${(e as Error).message}`, 'escape special characters, e.g. "\\(54\\)"');
  }
  return s;
};

/** One of a fixed set of words. */
export function choice<T extends string>(choices: readonly T[]): Parser<T> {
  const hint = `use one of: ${choices.join(', ')}`;
  return (value) => {
    const s = string(value, hint);
    if ((choices as readonly string[]).includes(s)) return s as T;
    throw new InvalidValue(`not one of ${choices.join(', ')}${didYouMean(s, choices)}`, hint);
  };
}

const TARGET_HINT =
  'use sim, pact, or a base URL such as https://pay.example.com or https://gw.example.com/paycon (no query or credentials)';

/**
 * `sim`, `pact`, or an http(s) base URL: its origin, plus the path a gateway mounts the API under
 * (`https://gw.example/paycon`: every operation's path is joined under it), without a trailing slash.
 */
export const target: Parser<ResolvedTarget> = (value) => {
  const s = string(value, TARGET_HINT);
  if (s === 'sim' || s === 'pact') return { kind: s };
  const url = httpUrlOf(s, TARGET_HINT);
  if (url.search || url.hash || s.includes('?') || s.includes('#')) {
    throw new InvalidValue('a base URL has no query or fragment', TARGET_HINT);
  }
  if (url.username || url.password) throw new InvalidValue('a base URL must not carry credentials', TARGET_HINT);
  const path = url.pathname.replace(/\/+$/, '');
  if (/\/v1(\/|$)/.test(path)) {
    throw new InvalidValue(
      `the base URL already holds an operation's path (${url.pathname})`,
      "give the address the API is mounted at, without /v1/...: the toolkit adds each operation's path",
    );
  }
  return { kind: 'url', baseUrl: `${url.origin}${path}` };
};

function httpUrlOf(s: string, hint: string): URL {
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    throw new InvalidValue('not a URL', hint);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidValue(`only http and https URLs are supported, not ${url.protocol.replace(/:$/, '')}`, hint);
  }
  return url;
}

const PUBLIC_URL_HINT = 'use an http(s) URL that forwards to the receiver, such as https://abc.tunnel.example/hooks';

/** An absolute http(s) URL (a path is allowed), returned as written. */
export const httpUrl: Parser<string> = (value) => {
  const s = string(value, PUBLIC_URL_HINT);
  httpUrlOf(s, PUBLIC_URL_HINT);
  return s;
};

const ID_HINT = 'use the integrator id you were given: visible ASCII characters, no spaces';

/** An identifier sent in a header: visible ASCII, no spaces. */
export const headerToken: Parser<string> = (value) => {
  const s = string(value, ID_HINT);
  if (!/^[\x21-\x7e]+$/.test(s)) throw new InvalidValue(s === '' ? 'is empty' : 'must be visible ASCII without spaces', ID_HINT);
  return s;
};

/** A forward proxy's URL: http, https or socks5, a host, maybe credentials and a port; nothing else. */
export const proxyUrl: Parser<string> = (value) => {
  const hint = 'give the proxy as http://host:port (https:// and socks5:// work too; credentials as http://user:password@host:port)';
  const s = string(value, hint);
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    throw new InvalidValue('is not a URL', hint);
  }
  if (!/^(https?|socks5?):$/.test(url.protocol) || !url.hostname) throw new InvalidValue(`is not an http, https or socks5 proxy URL`, hint);
  if (url.pathname !== '/' || url.search || url.hash) throw new InvalidValue('a proxy URL has no path, query or fragment', hint);
  return s.replace(/\/+$/, '');
};

/** A non-empty path, as written (the resolver makes it absolute against the right folder). */
export const pathText: Parser<string> = (value) => {
  const s = string(value, 'give a file or folder path');
  if (s === '') throw new InvalidValue('is empty', 'give a file or folder path');
  return s;
};

/** A boolean (flags and environment variables are already booleans when they reach here). */
export const boolean: Parser<boolean> = (value) => {
  if (typeof value === 'boolean') return value;
  throw new InvalidValue(`expected true or false, got ${typeOf(value)}`, 'use true or false');
};

/**
 * A list. From text, a repeated flag and commas both separate items (`--suite a,b --suite c`);
 * from a file, an array of strings. Empty items are dropped, duplicates kept once, order kept.
 */
export function list<T extends string>(item: (s: string) => T, hint: string): Parser<T[]> {
  return (value, fromText) => {
    let raw: unknown[];
    if (fromText) raw = (Array.isArray(value) ? value : [value]).flatMap((v) => String(v).split(','));
    else if (Array.isArray(value)) raw = value;
    else throw new InvalidValue(`expected an array of strings, got ${typeOf(value)}`, hint);
    const out: T[] = [];
    for (const entry of raw) {
      if (typeof entry !== 'string') throw new InvalidValue(`expected strings in the array, got ${typeOf(entry)}`, hint);
      const s = entry.trim();
      if (s === '') continue;
      const parsed = item(s);
      if (!out.includes(parsed)) out.push(parsed);
    }
    return out;
  };
}

/** A pairing one-time password; the value is never echoed, it is nearly a secret. */
export function otp(s: string): string {
  if (/^\d{6}$/.test(s)) return s;
  throw new InvalidValue(
    `an OTP is six digits, got ${s.length} character(s)${/\D/.test(s) ? ' with non-digits' : ''}`,
    'give the six-digit code shown by the terminal',
  );
}

/** An item of a fixed set, for lists. */
export function member<T extends string>(choices: readonly T[], what: string): (s: string) => T {
  return (s) => {
    if ((choices as readonly string[]).includes(s)) return s as T;
    throw new InvalidValue(`unknown ${what} ${JSON.stringify(s)}${didYouMean(s, choices)}`, `valid ${what}s: ${choices.join(', ')}`);
  };
}

/** A fault-switch id: its shape only; the simulator knows which ids exist. */
export function faultId(s: string): string {
  if (/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(s)) return s;
  throw new InvalidValue(`${JSON.stringify(s)} is not a fault id`, 'use ids of the simulator fault table, such as slip.bad-currency');
}

/** A check id: its shape only; the check registry knows which ids exist. */
export function checkId(s: string): string {
  if (/^[a-z0-9][a-z0-9.-]*$/.test(s)) return s;
  throw new InvalidValue(`${JSON.stringify(s)} is not a check id`, 'use ids as the reports show them, such as webhook.retried');
}

const LISTEN_HINT = 'write host:port, such as 127.0.0.1:0 or [::1]:8080 (port 0 to 65535, 0 picks a free one)';

/** `host:port`, IPv6 in brackets; the host is an IP address or a host name. */
export const listen: Parser<{ host: string; port: number }> = (value) => {
  const s = string(value, LISTEN_HINT);
  const match = /^(?:\[([^\]]*)\]|([^:[\]]*)):([^:]*)$/.exec(s);
  if (!match) throw new InvalidValue('not host:port', LISTEN_HINT);
  const host = match[1] ?? match[2] ?? '';
  const portText = match[3] ?? '';
  if (match[1] !== undefined ? !isIPv6(host) : !isHostName(host)) {
    throw new InvalidValue(`${JSON.stringify(host)} is not a valid host`, LISTEN_HINT);
  }
  if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65_535) {
    throw new InvalidValue(`port ${JSON.stringify(portText)} is not a number from 0 to 65535`, LISTEN_HINT);
  }
  return { host, port: Number(portText) };
};

function isHostName(host: string): boolean {
  if (isIPv4(host)) return true;
  if (isIP(host) !== 0 || /^[\d.]+$/.test(host)) return false;
  return host.length <= 253 && /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i.test(host);
}

/** A duration in milliseconds, at least `min`. */
export function duration(min: number): Parser<number> {
  return (value) => {
    const result = tryParseDuration(value);
    if (!result.ok) throw new InvalidValue(result.reason, DURATION_HINT);
    if (result.ms < min) throw new InvalidValue(`must be at least ${min}ms`, DURATION_HINT);
    return result.ms;
  };
}

/** A duration in milliseconds from `min` to `max` (a command's bounded timeout). */
export function durationWithin(min: number, max: number): Parser<number> {
  // Examples from the range itself: "such as 500ms, 30s or 2m" for a setting of 0 to 1 s was two wrong ones.
  const mid = Math.round((min + max) / 2);
  const hint = `give a duration from ${formatDuration(min)} to ${formatDuration(max)}, such as ${formatDuration(mid)}`;
  const any = duration(0);
  return (value, fromText) => {
    let ms: number;
    try {
      ms = any(value, fromText);
    } catch (e) {
      if (e instanceof InvalidValue) throw new InvalidValue(e.reason, hint);
      throw e;
    }
    if (ms < min || ms > max) throw new InvalidValue(`must be from ${formatDuration(min)} to ${formatDuration(max)}`, hint);
    return ms;
  };
}

const PORT_HINT = 'give a port number from 0 to 65535 (0 picks a free one)';

/** A TCP port to listen on, 0 to 65535 (0: any free one). */
export const port: Parser<number> = integer(0, 65_535, PORT_HINT);

/** A probability above 0 and at most 1: a decimal from text, a number from a file. */
export function probability(hint: string): Parser<number> {
  return (value, fromText) => {
    let n: number;
    if (fromText && typeof value === 'string' && /^\s*(\d+(\.\d*)?|\.\d+)\s*$/.test(value)) n = Number(value);
    else if (!fromText && typeof value === 'number') n = value;
    else if (fromText) throw new InvalidValue('not a number', hint);
    else throw new InvalidValue(`expected a number, got ${typeOf(value)}`, hint);
    if (!(n > 0 && n <= 1)) throw new InvalidValue('must be above 0 and at most 1', hint);
    return n;
  };
}

/** An integer within [min, max]: digits from text, a number from a file. */
export function integer(min: number, max: number, hint: string): Parser<number> {
  return (value, fromText) => {
    let n: number;
    if (fromText && typeof value === 'string' && /^\s*-?\d+\s*$/.test(value)) n = Number(value);
    else if (!fromText && typeof value === 'number') n = value;
    else if (fromText) throw new InvalidValue('not an integer', hint);
    else throw new InvalidValue(`expected an integer, got ${typeOf(value)}`, hint);
    if (!Number.isInteger(n)) throw new InvalidValue('not an integer', hint);
    if (n < min || n > max) {
      const range = max < Number.MAX_SAFE_INTEGER ? `from ${min} to ${max}` : min === 1 ? 'positive' : `at least ${min}`;
      throw new InvalidValue(`must be ${range}`, hint);
    }
    return n;
  };
}

/** `quick`, `thorough` or a positive integer, resolved to a number of runs. */
export function runs(presets: Readonly<Record<string, number>>): Parser<number> {
  const names = Object.keys(presets);
  const hint = `use ${names.join(', ')} (${names.map((n) => `${n} = ${presets[n]}`).join(', ')}) or a positive integer`;
  const count = integer(1, Number.MAX_SAFE_INTEGER, hint);
  return (value, fromText) => {
    if (typeof value === 'string') {
      const s = value.trim();
      if (Object.hasOwn(presets, s)) return presets[s]!;
      if (!/^-?\d+$/.test(s)) throw new InvalidValue(`not ${names.join(', ')} or a number${didYouMean(s, names)}`, hint);
    }
    return count(value, fromText);
  };
}

const SHARD_HINT = 'give the part as i/n with 1 <= i <= n, such as 1/2 (the first of two CI jobs)';

/** `i/n`: the i-th of n parts (1-based), as vitest's and Playwright's `--shard` take it. */
export const shard: Parser<{ index: number; count: number }> = (value) => {
  const s = string(value, SHARD_HINT);
  const match = /^\s*(\d{1,4})\s*\/\s*(\d{1,4})\s*$/.exec(s);
  if (!match) throw new InvalidValue('not i/n', SHARD_HINT);
  const index = Number(match[1]);
  const count = Number(match[2]);
  if (count < 1 || index < 1 || index > count) throw new InvalidValue(`part ${index} of ${count} does not exist`, SHARD_HINT);
  return { index, count };
};

const LABEL_HINT =
  'give labels as key=value, such as firmware=4.2.1 (keys: letters, digits, _ . -; values up to 200 characters on one line)';
const LABEL_KEY = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

function label(key: string, value: string, out: Record<string, string>): void {
  if (!LABEL_KEY.test(key)) throw new InvalidValue(`label key ${JSON.stringify(key)} is not letters, digits, _ . - (up to 64)`, LABEL_HINT);
  if (value === '' || value.length > 200 || /[\r\n]/.test(value))
    throw new InvalidValue(`label ${key} needs a value of 1 to 200 characters on one line`, LABEL_HINT);
  if (key in out && out[key] !== value)
    throw new InvalidValue(
      `label ${key} is given twice, as ${JSON.stringify(out[key])} and ${JSON.stringify(value)}`,
      'give each label once',
    );
  out[key] = value;
}

/**
 * Run labels: `key=value` items (flags, the environment: repeated or comma-separated), or in a config
 * file an object of strings or an array of `key=value` strings.
 */
export const labels: Parser<Record<string, string>> = (value, fromText) => {
  const out: Record<string, string> = {};
  if (!fromText && value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (typeof v !== 'string') throw new InvalidValue(`label ${k} is ${typeOf(v)}, not a string`, LABEL_HINT);
      label(k, v.trim(), out);
    }
    return out;
  }
  const items = list((s) => s, LABEL_HINT)(value, fromText);
  for (const item of items) {
    const eq = item.indexOf('=');
    if (eq < 0) throw new InvalidValue(`${JSON.stringify(item)} is not key=value`, LABEL_HINT);
    label(item.slice(0, eq).trim(), item.slice(eq + 1).trim(), out);
  }
  return out;
};

const EXCLUDE_HINT =
  'in the config file: coverage: { exclude: [{ item: "getToken 500", reason: "a server error cannot be caused from outside" }] }; ' +
  'as a flag or variable: "getToken 500: a server error cannot be caused from outside" (several: repeat the flag, or separate with ;)';

/** One exclusion of `coverage.exclude`: a non-empty item and a non-empty reason. */
function exclusion(item: unknown, reason: unknown, what: string): { item: string; reason: string } {
  if (typeof item !== 'string' || item.trim() === '') throw new InvalidValue(`${what} has no item`, EXCLUDE_HINT);
  if (typeof reason !== 'string' || reason.trim() === '')
    throw new InvalidValue(
      `${what} (${JSON.stringify(item.trim())}) gives no reason: an exclusion says why the item cannot be covered`,
      EXCLUDE_HINT,
    );
  return { item: item.trim(), reason: reason.trim() };
}

/**
 * `coverage.exclude`: in a config file an array of `{ item, reason }`; from a flag or the environment
 * `item: reason` texts (repeated, or separated by `;`: a reason may hold commas). Whether an item names
 * anything the coverage lists is checked when the run starts.
 */
export const coverageExclusions: Parser<{ item: string; reason: string }[]> = (value, fromText) => {
  const out: { item: string; reason: string }[] = [];
  if (fromText) {
    for (const text of (Array.isArray(value) ? value : [value]).flatMap((v) => String(v).split(/[;\n]/))) {
      if (text.trim() === '') continue;
      const colon = text.indexOf(':');
      if (colon < 0) throw new InvalidValue(`${JSON.stringify(text.trim())} is not "item: reason"`, EXCLUDE_HINT);
      out.push(exclusion(text.slice(0, colon), text.slice(colon + 1), `the exclusion ${JSON.stringify(text.trim())}`));
    }
    return out;
  }
  if (!Array.isArray(value)) throw new InvalidValue(`expected an array of { item, reason }, got ${typeOf(value)}`, EXCLUDE_HINT);
  value.forEach((entry: unknown, i) => {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry))
      throw new InvalidValue(`entry ${i} is ${typeOf(entry)}, not { item, reason }`, EXCLUDE_HINT);
    const extra = Object.keys(entry).find((k) => k !== 'item' && k !== 'reason');
    if (extra) throw new InvalidValue(`entry ${i} has the unknown key ${extra}${didYouMean(extra, ['item', 'reason'])}`, EXCLUDE_HINT);
    const e = entry as { item?: unknown; reason?: unknown };
    out.push(exclusion(e.item, e.reason, `entry ${i}`));
  });
  return out;
};
