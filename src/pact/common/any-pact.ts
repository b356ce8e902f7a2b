/**
 * Any consumer's pact file, Pact specification V2, V3 or V4, read into one shape: HTTP interactions
 * (method, path, query, headers, body, expected status, headers and body) and asynchronous messages
 * (contents and metadata), each with its provider states and its matching rules grouped by part
 * (`body`, `header`, `query`, `path`, `status`, `metadata`), whatever layout the version wrote them in.
 * A file that cannot be read, is not JSON or is not a pact is a usage error (PCC_USAGE) whose message
 * never quotes the file's content (a pact may hold a secret).
 */
import { readFileSync } from 'node:fs';
import { ToolkitError } from '../../core/index.ts';

/** Matching rules of one part, keyed by path (`$.a.b`) or by name (headers, query, metadata). */
export type RuleSet = Record<string, { combine?: string; matchers?: Record<string, unknown>[] }>;

/** A request or an expected response (headers by lower-case name, the first value of each). */
export interface AnyHttpPart {
  headers: Record<string, string>;
  /** The header names as the pact wrote them, by lower-case name. */
  headerNames: Record<string, string>;
  hasBody: boolean;
  body?: unknown;
  /** The body's content type as the V4 body declares it. */
  contentType?: string;
  rules: Record<string, RuleSet>;
}

/** One interaction of a pact, whatever its specification version. */
export interface AnyInteraction {
  kind: 'http' | 'message' | 'other';
  /** The V4 type, or the kind the V2/V3 layout implies. */
  type: string;
  description: string;
  states: { name: string; params?: Record<string, unknown> }[];
  pending: boolean;
  request?: AnyHttpPart & { method: string; path: string; query: Record<string, string[]> };
  response?: AnyHttpPart & { status: number };
  message?: {
    hasContents: boolean;
    contents?: unknown;
    contentType?: string;
    metadata: Record<string, unknown>;
    rules: Record<string, RuleSet>;
  };
}

/** A pact file read by {@link readAnyPact}. */
export interface AnyPact {
  file: string;
  consumer: string;
  provider: string;
  /** The specification version the file declares (`2.0.0`, `3.0.0`, `4.0`), or `unknown`. */
  specification: string;
  interactions: AnyInteraction[];
  /** The parsed file, as read (to learn the secrets it holds). */
  raw: Record<string, unknown>;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

const usage = (file: string, what: string, fix: string) => new ToolkitError('PCC_USAGE', `${file}: ${what}`, fix);

/** Reads a pact file of any specification version; a usage error when it is not one. */
export function readAnyPact(file: string): AnyPact {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw usage(
      file,
      code === 'ENOENT' ? 'no such file' : `cannot be read (${code ?? 'error'})`,
      'pass the path of a pact file (JSON) your consumer tests wrote',
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    // JSON.parse's message quotes the text around the error: a secret may be there, so only the position is said.
    const at = /position (\d+)/.exec((e as Error).message)?.[1];
    throw usage(
      file,
      `is not JSON${at ? ` (syntax error at position ${at})` : ''}`,
      'pass a pact file (JSON) as written by Pact; check it with a JSON linter',
    );
  }
  return parseAnyPact(parsed, file);
}

/** The pact of an already parsed JSON value (`file` names it in messages). */
export function parseAnyPact(parsed: unknown, file: string): AnyPact {
  const notPact = (why: string) =>
    usage(
      file,
      `is not a pact file (${why})`,
      'pass a Pact V2, V3 or V4 file: an object with consumer.name, provider.name and interactions (or messages)',
    );
  if (!isObject(parsed)) throw notPact('not a JSON object');
  const name = (x: unknown) => (isObject(x) && typeof x.name === 'string' ? x.name : undefined);
  const consumer = name(parsed.consumer);
  const provider = name(parsed.provider);
  if (consumer === undefined || provider === undefined) throw notPact('no consumer.name or provider.name');
  const hasInteractions = Array.isArray(parsed.interactions);
  const hasMessages = Array.isArray(parsed.messages);
  if (!hasInteractions && !hasMessages) throw notPact('no interactions or messages array');
  const metadata = isObject(parsed.metadata) ? parsed.metadata : {};
  const specOf = (x: unknown) => (isObject(x) && typeof x.version === 'string' ? x.version : undefined);
  const specification =
    specOf(metadata.pactSpecification) ??
    specOf(metadata['pact-specification']) ??
    (typeof metadata.pactSpecificationVersion === 'string' ? metadata.pactSpecificationVersion : 'unknown');
  const v2 = /^[12]\./.test(specification);
  const interactions: AnyInteraction[] = [];
  for (const [index, raw] of ((parsed.interactions as unknown[] | undefined) ?? []).entries()) {
    if (!isObject(raw)) throw notPact(`interaction ${index} is not an object`);
    interactions.push(interactionOf(raw, v2, index));
  }
  for (const [index, raw] of ((parsed.messages as unknown[] | undefined) ?? []).entries()) {
    if (!isObject(raw)) throw notPact(`message ${index} is not an object`);
    interactions.push(messageOf(raw, 'Asynchronous/Messages', index));
  }
  return { file, consumer, provider, specification, interactions, raw: parsed };
}

function statesOf(raw: Json): AnyInteraction['states'] {
  if (Array.isArray(raw.providerStates)) {
    return raw.providerStates
      .filter(isObject)
      .filter((s) => typeof s.name === 'string')
      .map((s) => ({ name: s.name as string, ...(isObject(s.params) ? { params: s.params } : {}) }));
  }
  return typeof raw.providerState === 'string' ? [{ name: raw.providerState }] : [];
}

const descriptionOf = (raw: Json, index: number) => (typeof raw.description === 'string' ? raw.description : `interaction #${index + 1}`);

/** V2 rules (`$.body.a`, `$.headers.X`, `$.query.q`, `$.path`) grouped by part, like V3's. */
function v2Rules(rules: unknown): Record<string, RuleSet> {
  const out: Record<string, RuleSet> = {};
  if (!isObject(rules)) return out;
  const put = (part: string, key: string, rule: unknown) => {
    if (!isObject(rule)) return;
    (out[part] ??= {})[key] = { matchers: [rule] };
  };
  for (const [path, rule] of Object.entries(rules)) {
    const m = /^\$\.(body|headers|header|query|path)(.*)$/.exec(path);
    if (!m) continue;
    const [, part, rest] = m;
    if (part === 'body') put('body', `$${rest}`, rule);
    else if (part === 'path') put('path', '', rule);
    else put(part === 'query' ? 'query' : 'header', rest!.replace(/^\.|^\['|'\]$/g, ''), rule);
  }
  return out;
}

function rulesOf(rules: unknown, v2: boolean): Record<string, RuleSet> {
  if (v2) return v2Rules(rules);
  if (!isObject(rules)) return {};
  const out: Record<string, RuleSet> = {};
  for (const [part, set] of Object.entries(rules)) {
    if (!isObject(set)) continue;
    // V3/V4 write `path` and `status` as one rule, not keyed by a path.
    out[part] = 'matchers' in set ? { '': set as RuleSet[string] } : (set as RuleSet);
  }
  return out;
}

/** The body of a V4 part (`{content, contentType, encoded}`), or a V2/V3 body (the value itself). */
function bodyOf(raw: Json, key: string, v4: boolean): { hasBody: boolean; body?: unknown; contentType?: string } {
  if (!(key in raw) || raw[key] === undefined) return { hasBody: false };
  const b = raw[key];
  if (!v4) return { hasBody: true, body: b };
  if (!isObject(b) || !('content' in b)) return { hasBody: false };
  const contentType = typeof b.contentType === 'string' ? b.contentType : undefined;
  let content = b.content;
  if (typeof content === 'string' && b.encoded === 'base64') content = Buffer.from(content, 'base64').toString('utf8');
  if (
    typeof content === 'string' &&
    (b.encoded === 'base64' || b.encoded === 'json' || (contentType !== undefined && /json/i.test(contentType)))
  ) {
    try {
      content = JSON.parse(content);
    } catch {
      /* not JSON: validated as the string it is */
    }
  }
  return { hasBody: true, body: content, ...(contentType ? { contentType } : {}) };
}

function headersOf(raw: unknown): Pick<AnyHttpPart, 'headers' | 'headerNames'> {
  const headers: Record<string, string> = {};
  const headerNames: Record<string, string> = {};
  if (!isObject(raw)) return { headers, headerNames };
  for (const [k, v] of Object.entries(raw)) {
    const value = Array.isArray(v) ? v.map(String).join(', ') : String(v);
    headers[k.toLowerCase()] = value;
    headerNames[k.toLowerCase()] = k;
  }
  return { headers, headerNames };
}

function queryOf(raw: unknown): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  if (typeof raw === 'string') {
    for (const [k, v] of new URLSearchParams(raw)) (out[k] ??= []).push(v);
  } else if (isObject(raw)) {
    for (const [k, v] of Object.entries(raw)) out[k] = Array.isArray(v) ? v.map(String) : [String(v)];
  }
  return out;
}

function interactionOf(raw: Json, v2: boolean, index: number): AnyInteraction {
  const type = typeof raw.type === 'string' ? raw.type : isObject(raw.request) ? 'Synchronous/HTTP' : 'Asynchronous/Messages';
  if (type === 'Asynchronous/Messages') return messageOf(raw, type, index);
  const base = { type, description: descriptionOf(raw, index), states: statesOf(raw), pending: raw.pending === true };
  if (type !== 'Synchronous/HTTP' || !isObject(raw.request) || !isObject(raw.response)) return { kind: 'other', ...base };
  const v4 = type === raw.type;
  const req = raw.request;
  const res = raw.response;
  return {
    kind: 'http',
    ...base,
    request: {
      method: typeof req.method === 'string' ? req.method.toUpperCase() : 'GET',
      path: typeof req.path === 'string' ? req.path : '/',
      query: queryOf(req.query),
      ...headersOf(req.headers),
      ...bodyOf(req, 'body', v4),
      rules: rulesOf(req.matchingRules, v2),
    },
    response: {
      status: typeof res.status === 'number' ? res.status : Number(res.status ?? 200),
      ...headersOf(res.headers),
      ...bodyOf(res, 'body', v4),
      rules: rulesOf(res.matchingRules, v2),
    },
  };
}

function messageOf(raw: Json, type: string, index: number): AnyInteraction {
  const v4 = raw.type === 'Asynchronous/Messages';
  const c = bodyOf(raw, 'contents', v4);
  const metadata = isObject(raw.metadata) ? raw.metadata : {};
  const contentType =
    c.contentType ??
    (typeof metadata.contentType === 'string'
      ? metadata.contentType
      : typeof metadata['content-type'] === 'string'
        ? (metadata['content-type'] as string)
        : undefined);
  return {
    kind: 'message',
    type,
    description: descriptionOf(raw, index),
    states: statesOf(raw),
    pending: raw.pending === true,
    message: {
      hasContents: c.hasBody,
      contents: c.body,
      ...(contentType ? { contentType } : {}),
      metadata,
      rules: rulesOf(raw.matchingRules, false),
    },
  };
}
