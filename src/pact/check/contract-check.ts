/**
 * The pact against the OpenAPI contract, the way bi-directional contract testing compares them: every
 * interaction must be an operation of the contract (method and path pattern), send the headers and a
 * body the operation documents, expect a documented status and a body its schema accepts, and expect
 * no field the schema does not define (the consumer may not rely on anything the provider's contract
 * does not promise). Messages must match the webhook event schemas and the Signature pattern.
 */
import { operationFor, validators, webhooks } from '../../generated/contract.ts';
import { parameterSchema } from '../common/contract-examples.ts';
import type { PactFile, PactInteraction } from '../common/pact-file.ts';
import { type JsonSchema, loadSchema } from '../common/schemas.ts';
import { valuesAt } from '../common/rule-path.ts';
import { acceptedStatuses, statusList } from '../common/status-latitude.ts';

/** One disagreement between the pact and the contract. */
export interface ContractProblem {
  interaction: string;
  message: string;
}

const errorsOf = (name: string) => JSON.stringify(validators[name]?.errors ?? []).slice(0, 400);

/** Fields of `value` that the schema (followed into objects and arrays) does not define. */
function undefinedFields(raw: JsonSchema, value: unknown, at: string): string[] {
  let schema = raw.$ref ? loadSchema(raw.$ref) : raw;
  const variants = schema.oneOf ?? schema.anyOf;
  if (variants)
    schema =
      variants
        .map((v) => (v.$ref ? loadSchema(v.$ref) : v))
        .find((v) =>
          [v.type].flat().includes(Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value === 'object' ? 'object' : ''),
        ) ?? schema;
  if (Array.isArray(value)) return schema.items ? value.flatMap((v, i) => undefinedFields(schema.items!, v, `${at}[${i}]`)) : [];
  if (value === null || typeof value !== 'object' || !schema.properties) return [];
  return Object.entries(value).flatMap(([k, v]) => {
    const sub = schema.properties![k];
    return sub ? undefinedFields(sub, v, `${at}.${k}`) : [`${at}.${k}`];
  });
}

/** Regex rules whose own example does not match them (a pact that contradicts itself). */
function selfContradictions(rules: unknown, root: unknown, where: string): string[] {
  const out: string[] = [];
  for (const [path, rule] of Object.entries(
    (rules ?? {}) as Record<string, { matchers?: { match: string; regex?: string }[] } | undefined>,
  )) {
    for (const m of rule?.matchers ?? []) {
      if (m.match !== 'regex' || m.regex === undefined) continue;
      for (const v of path === '' || path === '$' ? [root] : valuesAt(root, path)) {
        if (!new RegExp(m.regex).test(String(v)))
          out.push(`${where} ${path}: the example ${JSON.stringify(v)} does not match its own regex ${m.regex}`);
      }
    }
  }
  return out;
}

/** Like {@link selfContradictions}, for rules keyed by name (headers, metadata). */
function keyedContradictions(rules: unknown, values: Record<string, unknown> | undefined, where: string): string[] {
  return Object.entries((rules ?? {}) as Record<string, unknown>).flatMap(([key, rule]) => {
    const v = values?.[key];
    return selfContradictions({ $: rule }, Array.isArray(v) ? v[0] : v, `${where} ${key}`);
  });
}

const header = (headers: Record<string, string[]> | undefined, name: string) =>
  Object.entries(headers ?? {}).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1]?.[0];

function checkHttp(i: PactInteraction): string[] {
  const req = i.request!;
  const res = i.response!;
  const op = operationFor(req.method, req.path);
  if (!op) return [`${req.method} ${req.path} is no operation of the contract`];
  const out: string[] = [];
  const integrator = header(req.headers, 'X-Pay-Connect-Integrator-Id');
  if (op.integratorHeader && !integrator) out.push(`${op.operationId} requires X-Pay-Connect-Integrator-Id; the request does not send it`);
  const auth = header(req.headers, 'Authorization');
  if (op.bearer && !/^Bearer \S+$/.test(auth ?? ''))
    out.push(`${op.operationId} requires a bearer token; the request sends ${auth ?? 'none'}`);
  if (!op.bearer && auth !== undefined) out.push(`${op.operationId} takes no bearer token; the request sends one`);
  const reqBody = req.body?.content;
  if (op.requestSchema) {
    if (reqBody === undefined) out.push(`${op.operationId} requires a ${op.requestSchema} body; the request has none`);
    else if (!validators[op.requestSchema]!(reqBody))
      out.push(`request body does not match ${op.requestSchema}: ${errorsOf(op.requestSchema)}`);
    else
      out.push(
        ...undefinedFields(loadSchema(op.requestSchema), reqBody, '$').map(
          (f) => `the request sends ${f}, which ${op.requestSchema} does not define`,
        ),
      );
  } else if (reqBody !== undefined) out.push(`${op.operationId} takes no request body; the request has one`);
  // A negative interaction (a documented 4xx expected: the auth probes, a malformed OTP) sends what the
  // contract refuses on purpose: its request's deviations are its point, not problems (as pact-possible.ts).
  if (res.status >= 400 && res.status < 500 && op.responses[String(res.status)] !== undefined) out.length = 0;
  // The example status and every one its status-code matcher accepts (status-latitude.ts reads both).
  const statuses = [
    ...new Set([res.status, ...acceptedStatuses(res.status, (res.matchingRules as { status?: unknown } | undefined)?.status).statuses]),
  ];
  const undocumented = statuses.filter((s) => !op.responses[String(s)]);
  if (undocumented.length)
    out.push(
      `${op.operationId} does not document status ${statusList(undocumented)} (documented: ${Object.keys(op.responses).join(', ')})`,
    );
  for (const status of statuses.filter((s) => op.responses[String(s)])) {
    const documented = op.responses[String(status)]!;
    const body = res.body?.content;
    if (documented.schema === null) {
      if (body !== undefined) out.push(`${op.operationId} ${status} has no body in the contract; the pact expects one`);
    } else if (body === undefined) {
      if (status === res.status)
        out.push(`${op.operationId} ${status}: the pact expects no body; the contract documents ${documented.schema}`);
    } else {
      // The expected body must fit every status the interaction accepts, not only its example's.
      const of = status === res.status ? '' : ` (of ${status}, which the status matcher accepts)`;
      if (!validators[documented.schema]!(body))
        out.push(`response body does not match ${documented.schema}${of}: ${errorsOf(documented.schema)}`);
      else
        out.push(
          ...undefinedFields(loadSchema(documented.schema), body, '$').map(
            (f) => `the pact expects ${f}, which ${documented.schema}${of} does not define`,
          ),
        );
      if (!/^application\/json/.test(header(res.headers, 'Content-Type') ?? ''))
        out.push(`${op.operationId} ${status}: the pact expects no application/json body`);
    }
  }
  const rules = (x: unknown, part: string) => (x as Record<string, unknown> | undefined)?.[part];
  out.push(...selfContradictions(rules(req.matchingRules, 'body'), reqBody, 'request body'));
  out.push(...selfContradictions(rules(res.matchingRules, 'body'), res.body?.content, 'response body'));
  out.push(...keyedContradictions(rules(req.matchingRules, 'header'), req.headers, 'request header'));
  return out;
}

function checkMessage(i: PactInteraction): string[] {
  const content = i.contents?.content as { event?: unknown } | undefined;
  const event = typeof content?.event === 'string' ? content.event : '';
  const hook = webhooks.find((w) => event.startsWith(w.name.replace(/Event$/, '.')));
  if (!hook) return [`event ${JSON.stringify(event)} is no webhook of the contract`];
  const out: string[] = [];
  if (!validators[hook.schema]!(content)) out.push(`message body does not match ${hook.schema}: ${errorsOf(hook.schema)}`);
  else
    out.push(
      ...undefinedFields(loadSchema(hook.schema), content, '$').map((f) => `the message has ${f}, which ${hook.schema} does not define`),
    );
  const signature = i.metadata?.Signature;
  const pattern = parameterSchema('Signature').pattern as string;
  if (typeof signature !== 'string' || !new RegExp(pattern).test(signature))
    out.push(`metadata Signature ${JSON.stringify(signature)} does not match ${pattern}`);
  const rules = i.matchingRules as Record<string, unknown> | undefined;
  out.push(...selfContradictions(rules?.body, content, 'message body'));
  out.push(...keyedContradictions(rules?.metadata, i.metadata, 'message metadata'));
  return out;
}

/** Every disagreement between the pact and the contract; empty when the pact is compatible. */
export function checkPactAgainstContract(pact: PactFile): ContractProblem[] {
  return pact.interactions.flatMap((i) => {
    const found =
      i.type === 'Synchronous/HTTP'
        ? checkHttp(i)
        : i.type === 'Asynchronous/Messages'
          ? checkMessage(i)
          : [`unsupported interaction type ${i.type}`];
    return found.map((message) => ({ interaction: i.description, message }));
  });
}
