/**
 * The contract's own examples, by operation and status: the pact's example values start from these,
 * so an example in the pact is one the contract already vouches for.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { PACKAGE_ROOT, ToolkitError } from '../../core/index.ts';

type Json = Record<string, unknown>;

const CONTRACT_PATH = join(PACKAGE_ROOT, 'contracts', 'pay-connect.openapi.yaml');
let contract: Json | undefined;

function load(): Json {
  contract ??= parse(readFileSync(CONTRACT_PATH, 'utf8')) as Json;
  return contract;
}

function deref(node: Json): Json {
  const ref = node.$ref;
  if (typeof ref !== 'string') return node;
  const [, group, name] = /^#\/components\/(\w+)\/(\w+)$/.exec(ref) ?? [];
  const target = ((load().components as Json)[group!] as Json | undefined)?.[name!];
  if (!target) throw new ToolkitError('PCC_INTERNAL', `unresolved $ref ${ref} in the contract`);
  return deref(target as Json);
}

function operation(operationId: string): Json {
  for (const group of ['paths', 'webhooks'] as const) {
    for (const item of Object.values((load()[group] ?? {}) as Record<string, Json>)) {
      for (const op of Object.values(item)) {
        if ((op as Json).operationId === operationId) return op as Json;
      }
    }
  }
  throw new ToolkitError('PCC_INTERNAL', `no operation ${operationId} in the contract`);
}

/**
 * The typical example of a media type: its `example`, or the first of its named `examples` (the
 * contract names them so that Specmatic and Prism can match a request to its response; the first one
 * of each request and response is the typical one).
 */
function jsonExample(media: unknown, where: string): unknown {
  const m = ((media as Json | undefined)?.content as Json | undefined)?.['application/json'] as Json | undefined;
  if (m && 'example' in m) return structuredClone(m.example);
  const first = Object.values((m?.examples ?? {}) as Record<string, Json>)[0];
  if (!first || !('value' in first)) throw new ToolkitError('PCC_INTERNAL', `the contract has no JSON example for ${where}`);
  return structuredClone(first.value);
}

/** The example request body of an operation (or webhook). */
export function requestExample(operationId: string): Record<string, unknown> {
  const body = operation(operationId).requestBody as Json | undefined;
  return jsonExample(body && deref(body), `${operationId} request`) as Record<string, unknown>;
}

/** The example response body of an operation for a status. */
export function responseExample(operationId: string, status: number): Record<string, unknown> {
  const r = (operation(operationId).responses as Json)[String(status)] as Json | undefined;
  return jsonExample(r && deref(r), `${operationId} ${status}`) as Record<string, unknown>;
}

/** The schema of a component parameter (`Signature`, `IntegratorId`, ...). */
export function parameterSchema(name: string): Record<string, unknown> {
  const p = ((load().components as Json).parameters as Json)[name] as Json | undefined;
  if (!p) throw new ToolkitError('PCC_INTERNAL', `no parameter ${name} in the contract`);
  return p.schema as Record<string, unknown>;
}

/** A query parameter of an operation (the contract's own or a component's, dereferenced). */
export interface QueryParameter {
  name: string;
  required: boolean;
  schema: Record<string, unknown>;
}

/** The query parameters an operation documents (none, today: the list is read from the contract). */
export function queryParameters(operationId: string): QueryParameter[] {
  const params = (operation(operationId).parameters ?? []) as Json[];
  return params
    .map(deref)
    .filter((p) => p.in === 'query')
    .map((p) => ({ name: String(p.name), required: p.required === true, schema: (p.schema ?? {}) as Record<string, unknown> }));
}
