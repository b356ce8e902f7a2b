/**
 * Builds the operation table from the contract: for each operation its method, path template and
 * matcher, where it comes from (`x-source`), what it requires (bearer, integrator header, body) and,
 * per documented status, the source and body schema.
 */
import { type Contract, type JsonObject, schemaRefName } from './contract.ts';

import type { RuleSource as Source } from '../src/core/finding.ts';
import type { OperationEntry, ResponseEntry, WebhookEntry } from '../src/core/operation.ts';

export type { OperationEntry, ResponseEntry, WebhookEntry };

function resolve(doc: Contract, obj: JsonObject): JsonObject {
  const ref = obj.$ref;
  if (typeof ref !== 'string') return obj;
  const m = /^#\/components\/(responses|parameters)\/(\w+)$/.exec(ref);
  if (!m) throw new Error(`unsupported $ref: ${ref}`);
  const target = doc.components[m[1] as 'responses' | 'parameters'][m[2]!];
  if (!target) throw new Error(`dangling $ref: ${ref}`);
  return target;
}

function sourceOf(obj: JsonObject, fallback: Source): Source {
  const s = obj['x-source'];
  return s === 'spec' || s === 'profile' || s === 'sandbox' ? s : fallback;
}

function jsonSchemaName(content: unknown): string | null {
  const media = (content as Record<string, JsonObject> | undefined)?.['application/json'];
  const ref = (media?.schema as JsonObject | undefined)?.$ref;
  if (media === undefined) return null;
  const name = typeof ref === 'string' ? schemaRefName(ref) : undefined;
  if (!name) throw new Error('every JSON body in the contract must $ref a component schema');
  return name;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** The operation table, in contract order. */
export function operationTable(doc: Contract): OperationEntry[] {
  const rootSecurity = Array.isArray(doc.security) && doc.security.length > 0;
  const out: OperationEntry[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const source = sourceOf(op, 'spec');
      const params = ((op.parameters as JsonObject[] | undefined) ?? []).map((p) => resolve(doc, p));
      const security = op.security as unknown[] | undefined;
      const responses: Record<string, ResponseEntry> = {};
      for (const [status, r] of Object.entries(op.responses as Record<string, JsonObject>)) {
        const resp = resolve(doc, r);
        responses[status] = { source: sourceOf(resp, source), schema: jsonSchemaName(resp.content) };
      }
      out.push({
        operationId: String(op.operationId),
        method: method.toUpperCase(),
        path,
        pattern: `^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`,
        source,
        bearer: security === undefined ? rootSecurity : security.length > 0,
        integratorHeader: params.some((p) => p.in === 'header' && p.name === 'X-Pay-Connect-Integrator-Id'),
        requestSchema: jsonSchemaName((op.requestBody as JsonObject | undefined)?.content),
        stateChanging: op['x-state-changing'] === true,
        responses,
      });
    }
  }
  return out;
}

/** The webhook events of the contract. */
export function webhookTable(doc: Contract): WebhookEntry[] {
  return Object.entries(doc.webhooks).map(([name, item]) => {
    const op = item.post!;
    const schema = jsonSchemaName((op.requestBody as JsonObject).content);
    if (!schema) throw new Error(`webhook ${name} has no JSON body`);
    return { name, operationId: String(op.operationId), source: sourceOf(op, 'sandbox'), schema };
  });
}
