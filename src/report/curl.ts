/**
 * Copy-paste curl lines for the reports. The records are redacted already; a redacted credential is
 * written as a shell variable the reader sets (`$PAYCONNECT_TOKEN`, ...), never as a value.
 */
import type { Exchange } from '../core/index.ts';
import type { DeliveryView } from './records.ts';

/** The shell variables that stand for redacted secret fields and headers. */
export const SECRET_VARIABLES: Readonly<Record<string, string>> = {
  authorization: 'PAYCONNECT_TOKEN',
  access_token: 'PAYCONNECT_TOKEN',
  client_secret: 'PAYCONNECT_CLIENT_SECRET',
  webhook_secret_key: 'PAYCONNECT_WEBHOOK_KEY',
};

const REDACTED = '[REDACTED]';
/** Headers curl sets itself, or that only describe the connection. */
const SKIPPED_HEADERS = new Set(['content-length', 'host', 'connection', 'keep-alive', 'transfer-encoding', 'accept-encoding']);

/** `s` in single quotes for a POSIX shell. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** A run of one letter or digit this long or longer is written as a command that prints it. */
const LONG_RUN = /([A-Za-z0-9])\1{255,}/g;

/**
 * A JSON or raw body in single quotes, with redacted secret fields spliced in as "$VARIABLE", and a
 * long run of one character (an oversized body's padding) as `$(printf ... | tr ...)`: the same bytes
 * on the wire, a line in the report instead of tens of kilobytes.
 */
function quotedBody(body: unknown): string {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  let quoted = shellQuote(text).replace(LONG_RUN, (run: string, c: string) => `'"$(printf '%${run.length}s' '' | tr ' ' '${c}')"'`);
  for (const [field, variable] of Object.entries(SECRET_VARIABLES)) {
    const redactedField = `"${field}":"${REDACTED}"`;
    quoted = quoted.split(redactedField).join(`"${field}":"'"$${variable}"'"`);
  }
  return quoted;
}

function headerArg(name: string, value: string): string {
  const variable = SECRET_VARIABLES[name.toLowerCase()];
  if (variable && value.includes(REDACTED)) {
    const scheme = /^(\S+)\s+\[REDACTED\]$/.exec(value)?.[1];
    // Double quotes: the shell expands the variable; the name and scheme hold no special characters.
    return `-H "${name}: ${scheme ? `${scheme} ` : ''}$${variable}"`;
  }
  return `-H ${shellQuote(`${name}: ${value}`)}`;
}

function assemble(method: string, url: string, headers: Record<string, string>, body: unknown): string {
  const verb = method.toUpperCase() !== 'GET' || body !== undefined ? ` -X ${method.toUpperCase()}` : '';
  const parts = [`curl -sS -i${verb} ${shellQuote(url)}`];
  for (const [name, value] of Object.entries(headers)) {
    if (!SKIPPED_HEADERS.has(name.toLowerCase())) parts.push(headerArg(name, value));
  }
  if (body !== undefined && body !== '') parts.push(`--data-raw ${quotedBody(body)}`);
  return parts.join(' \\\n  ');
}

/** The curl command that repeats a recorded request (redacted credentials as shell variables). */
export function curlForExchange(ex: Pick<Exchange, 'request'>): string {
  const { method, url, headers, body } = ex.request;
  return assemble(method, url, headers ?? {}, body);
}

/** The curl command that replays a webhook delivery to the receiver it reached. */
export function curlForDelivery(d: DeliveryView): string {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(d.headers ?? {})) {
    if (name === 'content-type' || name === 'signature' || name.startsWith('x-')) headers[name] = value;
  }
  return assemble(d.method ?? 'POST', d.url ?? d.path ?? '/', headers, d.rawBody ?? (d.body === undefined ? undefined : d.body));
}

/** Which variables a curl line needs, as a comment for the top of an attachment. */
export function curlPreamble(line: string): string {
  const used = [...new Set([...line.matchAll(/\$(PAYCONNECT_[A-Z_]+)/g)].map((m) => m[1]!))];
  if (used.length === 0) return '';
  const what: Record<string, string> = {
    PAYCONNECT_TOKEN: 'a bearer token (POST /v1/auth/token/ with the pairing credentials)',
    PAYCONNECT_CLIENT_SECRET: "the pairing's client_secret (from your vault)",
    PAYCONNECT_WEBHOOK_KEY: "the pairing's webhook_secret_key (from your vault)",
  };
  return `${used.map((v) => `# set ${v}: ${what[v] ?? 'a secret value'}`).join('\n')}\n`;
}
