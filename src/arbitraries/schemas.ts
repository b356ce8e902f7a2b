/**
 * The component schemas of the contract, as generated into contracts/schemas/, keyed by name, with a
 * resolver for the file-name refs between them.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** A JSON Schema node, loosely typed: the translator only reads the keywords the contract uses. */
export interface SchemaNode {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  required?: string[];
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  oneOf?: SchemaNode[];
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  [key: string]: unknown;
}

const DIR = fileURLToPath(new URL('../../contracts/schemas/', import.meta.url));

let cache: Map<string, SchemaNode> | undefined;

/** Every component schema by name (read once). */
export function allSchemas(): Map<string, SchemaNode> {
  if (!cache) {
    cache = new Map();
    for (const f of readdirSync(DIR)
      .filter((n) => n.endsWith('.json'))
      .sort()) {
      cache.set(f.slice(0, -5), JSON.parse(readFileSync(DIR + f, 'utf8')) as SchemaNode);
    }
  }
  return cache;
}

/** The schema a node stands for: follows `$ref: Name.json` (repeatedly). */
export function deref(node: SchemaNode): SchemaNode {
  let n = node;
  while (n.$ref) {
    const target = allSchemas().get(n.$ref.replace(/\.json$/, ''));
    if (!target) throw new Error(`unresolved schema ref ${n.$ref}`);
    n = target;
  }
  return n;
}

/** The schema named `name`; throws when the contract has no such component. */
export function schemaByName(name: string): SchemaNode {
  const s = allSchemas().get(name);
  if (!s) throw new Error(`no component schema named ${name}`);
  return s;
}

/** The JSON types a node allows (empty: any). */
export function typesOf(node: SchemaNode): string[] {
  const n = deref(node);
  if (n.type) return Array.isArray(n.type) ? n.type : [n.type];
  if (n.oneOf) return [...new Set(n.oneOf.flatMap(typesOf))];
  return [];
}
