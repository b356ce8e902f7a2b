/**
 * The contract's own constraints: a pattern, length or format of a schema that no document states,
 * marked `x-ours: [keyword, ...]` beside it in contracts/pay-connect.openapi.yaml. The invalid-input
 * generators never send a value as invalid for breaking one of these alone, and docs/rules.md lists them.
 */
import { type SchemaNode, allSchemas } from './schemas.ts';

/** One constraint of ours: where it is, which keyword, and its value. */
export interface OursConstraint {
  schema: string;
  /** The property's path in the schema (`webhook_url`), `''` for the schema itself. */
  field: string;
  keyword: string;
  value: string;
}

/** The keywords a node marks as ours (`x-ours`). */
export function oursKeywords(node: SchemaNode): readonly string[] {
  const marked = node['x-ours'];
  return Array.isArray(marked) ? marked.filter((k): k is string => typeof k === 'string') : [];
}

function walk(schema: string, node: SchemaNode, field: string, out: OursConstraint[]): void {
  for (const keyword of oursKeywords(node)) {
    if (node[keyword] === undefined)
      throw new Error(`${schema}${field ? `.${field}` : ''} marks ${keyword} as ours (x-ours) but has no ${keyword}`);
    out.push({ schema, field, keyword, value: typeof node[keyword] === 'string' ? node[keyword] : JSON.stringify(node[keyword]) });
  }
  for (const [k, v] of Object.entries(node.properties ?? {})) walk(schema, v, field ? `${field}.${k}` : k, out);
  if (node.items) walk(schema, node.items, `${field}[]`, out);
}

/** Every constraint of ours in the contract's component schemas, by schema name then field. */
export function oursConstraintsOf(): OursConstraint[] {
  const out: OursConstraint[] = [];
  for (const [name, node] of allSchemas()) walk(name, node, '', out);
  return out;
}
