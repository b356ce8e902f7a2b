/**
 * Whether each interaction of an integrator's pact is possible under the contract: a provider that
 * follows contracts/pay-connect.openapi.yaml could be sent that request and could give that answer.
 *
 * Request: an operation of the contract (method, path with its trailing slash), the integrator
 * header and a bearer token where the operation requires them, only query parameters it documents,
 * a JSON body its request schema accepts. Response: a status the operation documents, a JSON
 * content type, a body that status's schema accepts (an expected body is a subset: the required
 * fields it leaves out are the provider's to add) and that expects no field the schema does not
 * define (a provider following the contract need not send it). Messages: the contents validated
 * against the webhook event schema, the `Signature` metadata against its pattern.
 *
 * Pact matchers: a pact's example values are what a provider is sent (requests) and what its
 * answer is compared by; matching rules only loosen the comparison. So the examples are validated,
 * and a regex rule whose own example it does not match is reported (the pact contradicts itself).
 * Reasons never quote a header's value (an Authorization header is a secret).
 */
import type { ErrorObject } from 'ajv';
import type { OperationEntry } from '../../core/index.ts';
import { documentedErrors, operations, validators } from '../../generated/contract.ts';
import type { AnyInteraction, AnyPact, RuleSet } from '../common/any-pact.ts';
import { parameterSchema, queryParameters } from '../common/contract-examples.ts';
import { type JsonSchema, loadSchema } from '../common/schemas.ts';
import { valuesAt } from '../common/rule-path.ts';

/** The verdict on one interaction. */
export interface InteractionPossibility {
  description: string;
  /** The provider state names, in order. */
  states: string[];
  kind: AnyInteraction['kind'];
  /** The operation (or webhook schema) it was checked against, when one was found. */
  operation?: string;
  possible: boolean;
  reasons: string[];
}

const INTEGRATOR = 'x-pay-connect-integrator-id';
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;
/** Authorization schemes that may be named in a reason (anything else might be the secret itself). */
const KNOWN_SCHEMES = /^(?:basic|bearer|digest|token|apikey|hmac|negotiate|ntlm)$/i;

/** An ajv error as `/amount must be integer` (with the allowed values of an enum). */
function ajvError(e: ErrorObject): string {
  const allowed = (e.params as { allowedValues?: unknown[] }).allowedValues;
  return `${e.instancePath ? `${e.instancePath} ` : ''}${e.message ?? 'is invalid'}${allowed ? ` (${allowed.map(String).join(', ')})` : ''}`;
}

/**
 * The errors of a body under a component schema, as reasons prefixed by `where`. An expected body
 * (a response, a message) is a subset: Pact lets the provider send keys the pact does not name, so
 * a required property the pact leaves out is no error there; a request body is sent as it is.
 */
function schemaErrors(schema: string, value: unknown, where: string, expected = false): string[] {
  const validate = validators[schema]!;
  if (validate(value)) return [];
  // A constraint of the contract's own (x-ours) is no document's: a pact may break it.
  return documentedErrors(schema, validate.errors)
    .filter((e) => !(expected && e.keyword === 'required'))
    .map((e) => `${where}: ${ajvError(e)}`);
}

const deref = (s: JsonSchema): JsonSchema => (s.$ref ? deref(loadSchema(s.$ref)) : s);

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

/** JSON pointers of the fields of `value` the schema (followed into objects, arrays, unions) does not define. */
function undefinedFields(raw: JsonSchema, value: unknown, at = ''): string[] {
  let schema = deref(raw);
  const variants = schema.oneOf ?? schema.anyOf;
  if (variants) {
    const fits = variants
      .map(deref)
      .filter((v) => [v.type ?? []].flat().includes(typeOf(value)) || (v.properties && typeOf(value) === 'object'));
    // Undefined only if no branch that fits the value defines it.
    if (fits.length === 0) return [];
    const each = fits.map((v) => undefinedFields(v, value, at));
    return each.reduce((a, b) => a.filter((x) => b.includes(x)));
  }
  schema = { ...schema };
  if (Array.isArray(value)) return schema.items ? value.flatMap((v, i) => undefinedFields(schema.items!, v, `${at}/${i}`)) : [];
  if (value === null || typeof value !== 'object' || !schema.properties) return [];
  return Object.entries(value).flatMap(([k, v]) => {
    const sub = schema.properties![k];
    const here = `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    return sub ? undefinedFields(sub, v, here) : [here];
  });
}

/** Regex rules of a body whose own example values they do not match. */
function bodyContradictions(rules: RuleSet | undefined, root: unknown, where: string): string[] {
  const out: string[] = [];
  for (const [path, rule] of Object.entries(rules ?? {})) {
    for (const m of rule?.matchers ?? []) {
      if (m.match !== 'regex' && !(m.match === undefined && typeof m.regex === 'string')) continue;
      const regex = compile(m.regex);
      if (!regex) {
        out.push(`${where} ${path || '$'}: the matcher's regex is not a valid regular expression`);
        continue;
      }
      for (const v of path === '' || path === '$' ? [root] : valuesAt(root, path)) {
        if (!regex.test(String(v)))
          out.push(`${where} ${path || '$'}: the example ${JSON.stringify(v)} does not match its own regex ${String(m.regex)}`);
      }
    }
  }
  return out;
}

/** Like {@link bodyContradictions}, for rules keyed by name (headers, query, metadata); values are not quoted. */
function keyedContradictions(rules: RuleSet | undefined, value: (key: string) => string | undefined, where: string): string[] {
  const out: string[] = [];
  for (const [key, rule] of Object.entries(rules ?? {})) {
    const v = value(key);
    if (v === undefined) continue;
    for (const m of rule?.matchers ?? []) {
      if (m.match !== 'regex' && !(m.match === undefined && typeof m.regex === 'string')) continue;
      const regex = compile(m.regex);
      if (regex && !regex.test(v)) out.push(`${where} ${key}: the example does not match its own regex ${String(m.regex)}`);
    }
  }
  return out;
}

function compile(source: unknown): RegExp | undefined {
  try {
    return typeof source === 'string' ? new RegExp(source) : undefined;
  } catch {
    return undefined;
  }
}

/** The operation of a method and path, or why there is none. */
function findOperation(method: string, rawPath: string): { op: OperationEntry } | { reason: string } {
  const path = rawPath.split('?')[0]!;
  const on = (p: string) => operations.filter((o) => new RegExp(o.pattern).test(p));
  const here = on(path);
  const op = here.find((o) => o.method === method);
  if (op) return { op };
  const label = `${method} ${rawPath}`;
  if (here.length > 0) return { reason: `${label}: no such operation (the path takes ${here.map((o) => o.method).join(', ')})` };
  if (!path.endsWith('/')) {
    const slashed = on(`${path}/`);
    if (slashed.length > 0) {
      const same = slashed.find((o) => o.method === method);
      const has = same ? `${method} ${path}/, ${same.operationId}` : `${slashed.map((o) => o.method).join(', ')} ${path}/`;
      return { reason: `${label} (no trailing slash): no such operation (the contract has ${has})` };
    }
  } else if (on(path.replace(/\/+$/, '')).length > 0) {
    return { reason: `${label} (trailing slash): no such operation` };
  }
  return { reason: `${label}: no such operation` };
}

const hasContent = (body: unknown) =>
  body !== undefined && body !== null && body !== '' && !(typeof body === 'object' && Object.keys(body).length === 0);

function checkHttp(i: AnyInteraction): { operation?: string; reasons: string[] } {
  const req = i.request!;
  const res = i.response!;
  const found = findOperation(req.method, req.path);
  if ('reason' in found) return { reasons: [found.reason] };
  const { op } = found;
  const id = op.operationId;
  const out: string[] = [];

  // Request headers: what the operation's parameters and security require.
  if (op.integratorHeader && !req.headers[INTEGRATOR]?.trim())
    out.push(`request: ${id} requires the X-Pay-Connect-Integrator-Id header; the request does not send it`);
  if (op.bearer) {
    const auth = req.headers.authorization;
    if (auth === undefined)
      out.push(`request: ${id} requires bearer auth (Authorization: Bearer <access token>); the request sends no Authorization header`);
    else if (!/^bearer\s+\S+$/i.test(auth.trim())) {
      const scheme = /^\s*(\S+)\s+\S/.exec(auth)?.[1];
      const form = scheme && KNOWN_SCHEMES.test(scheme) ? `of scheme ${scheme}` : 'not of the form Bearer <token>';
      out.push(`request: ${id} requires bearer auth; the request's Authorization header is ${form}`);
    }
  }

  // Query: only the parameters the operation documents.
  const documented = queryParameters(id);
  for (const [name, values] of Object.entries(req.query)) {
    const p = documented.find((x) => x.name === name);
    if (!p) {
      const documents = documented.length ? `it documents ${documented.map((x) => x.name).join(', ')}` : 'it documents none';
      out.push(`request query ${name}: not a parameter of ${id} (${documents})`);
      continue;
    }
    const pattern = typeof p.schema.pattern === 'string' ? new RegExp(p.schema.pattern) : undefined;
    const allowed = Array.isArray(p.schema.enum) ? p.schema.enum.map(String) : undefined;
    for (const v of values) {
      if (pattern && !pattern.test(v)) out.push(`request query ${name}: the value does not match ${p.schema.pattern as string}`);
      if (allowed && !allowed.includes(v)) out.push(`request query ${name}: must be one of ${allowed.join(', ')}`);
      if (p.schema.type === 'integer' && !/^-?\d+$/.test(v)) out.push(`request query ${name}: must be an integer`);
    }
  }
  for (const p of documented) if (p.required && !(p.name in req.query)) out.push(`request query: ${id} requires ${p.name}`);

  // Request body.
  const reqType = req.headers['content-type'] ?? req.contentType;
  if (req.hasBody && hasContent(req.body) && reqType !== undefined && !JSON_TYPE.test(reqType))
    out.push(`request: Content-Type ${reqType} where ${id} takes application/json`);
  if (op.requestSchema) {
    if (!req.hasBody || req.body === undefined) out.push(`request body: ${id} requires a ${op.requestSchema} body; the request has none`);
    else out.push(...schemaErrors(op.requestSchema, req.body, 'request body'));
  } else if (req.hasBody && hasContent(req.body)) out.push(`request body: ${id} documents no request body; the request has one`);

  // A negative interaction (a documented 4xx expected) sends what the contract refuses on purpose:
  // the provider answers that 4xx, so the request's deviations are its point, not reasons.
  if (res.status >= 400 && res.status < 500 && op.responses[String(res.status)] !== undefined) out.length = 0;

  // Response: a documented status, its content type and schema.
  const doc = op.responses[String(res.status)];
  if (!doc) {
    out.push(`response ${res.status} not documented for ${id} (documents ${Object.keys(op.responses).join(', ')})`);
  } else {
    const resType = res.headers['content-type'] ?? res.contentType;
    if (doc.schema === null) {
      if (res.hasBody && hasContent(res.body))
        out.push(`response body: ${id} ${res.status} has no body in the contract; the pact expects one`);
    } else {
      if (res.headers['content-type'] !== undefined && !JSON_TYPE.test(res.headers['content-type']))
        out.push(`response header Content-Type: ${res.headers['content-type']}; ${id} ${res.status} answers application/json`);
      else if (resType !== undefined && !JSON_TYPE.test(resType))
        out.push(`response body: content type ${resType}; ${id} ${res.status} answers application/json`);
      if (res.hasBody && res.body !== undefined) {
        const errors = schemaErrors(doc.schema, res.body, 'response body', true);
        out.push(...errors);
        if (errors.length === 0) {
          out.push(
            ...undefinedFields(loadSchema(doc.schema), res.body).map(
              (f) => `response body: ${f} is not defined by ${doc.schema} (a provider following the contract need not send it)`,
            ),
          );
        }
      }
    }
  }

  // Matchers that contradict their own examples.
  out.push(...bodyContradictions(req.rules.body, req.body, 'request body'));
  out.push(...bodyContradictions(res.rules.body, res.body, 'response body'));
  out.push(...keyedContradictions(req.rules.header, (k) => req.headers[k.toLowerCase()], 'request header'));
  out.push(...keyedContradictions(res.rules.header, (k) => res.headers[k.toLowerCase()], 'response header'));
  out.push(...keyedContradictions(req.rules.query, (k) => req.query[k]?.[0], 'request query'));
  out.push(...keyedContradictions(req.rules.path, () => req.path, 'request path'));
  return { operation: id, reasons: out };
}

function checkMessage(i: AnyInteraction): { operation?: string; reasons: string[] } {
  const m = i.message!;
  if (!m.hasContents || m.contents === undefined) return { reasons: ['message: no contents (a webhook always has a JSON body)'] };
  const content = m.contents as { event?: unknown; data?: { operation_id?: unknown } } | null;
  const event = typeof content?.event === 'string' ? content.event : undefined;
  const schema =
    event?.startsWith('operation.') || (event === undefined && content?.data?.operation_id !== undefined)
      ? 'OperationEvent'
      : 'TransactionEvent';
  const out: string[] = [];
  if (m.contentType !== undefined && !JSON_TYPE.test(m.contentType))
    out.push(`message: content type ${m.contentType}; webhooks are application/json`);
  const errors = schemaErrors(schema, m.contents, 'message contents', true);
  out.push(...errors);
  if (errors.length === 0)
    out.push(
      ...undefinedFields(loadSchema(schema), m.contents).map(
        (f) => `message contents: ${f} is not defined by ${schema} (a provider following the contract need not send it)`,
      ),
    );
  const sigKey = Object.keys(m.metadata).find((k) => k.toLowerCase() === 'signature');
  if (sigKey !== undefined) {
    const pattern = parameterSchema('Signature').pattern as string;
    const sig = m.metadata[sigKey];
    if (typeof sig !== 'string' || !new RegExp(pattern).test(sig))
      out.push(`message metadata ${sigKey}: does not match ${pattern} (lowercase hex HMAC-SHA256)`);
  }
  out.push(...bodyContradictions(m.rules.body ?? m.rules.content, m.contents, 'message contents'));
  out.push(
    ...keyedContradictions(
      m.rules.metadata,
      (k) => {
        const v = m.metadata[k];
        return v === undefined ? undefined : String(v);
      },
      'message metadata',
    ),
  );
  return { operation: schema, reasons: out };
}

/** The verdict on every interaction of a pact. */
export function checkPactPossible(pact: AnyPact): InteractionPossibility[] {
  return pact.interactions.map((i) => {
    const { operation, reasons } =
      i.kind === 'http'
        ? checkHttp(i)
        : i.kind === 'message'
          ? checkMessage(i)
          : { reasons: [`${i.type} interactions are not part of the contract (it has HTTP operations and asynchronous webhook messages)`] };
    return {
      description: i.description,
      states: i.states.map((s) => s.name),
      kind: i.kind,
      ...(operation ? { operation } : {}),
      possible: reasons.length === 0,
      reasons,
    };
  });
}
