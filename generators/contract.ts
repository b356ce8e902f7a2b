/**
 * Loads the contract and gives the generators one view of it: component schemas as standalone JSON
 * Schemas (with `$id`, refs between them by file name) and the operation table.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/** Repository root (this file is in generators/). */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The contract, the single source of everything generated. */
export const CONTRACT_PATH = `${ROOT}contracts/pay-connect.openapi.yaml`;
/** Base of every component schema's `$id`. */
export const SCHEMA_ID_BASE = 'https://payconnect-conformance/schemas/';

export type JsonObject = Record<string, unknown>;

/** The parsed contract (OpenAPI 3.1 document). */
export interface Contract {
  paths: Record<string, Record<string, JsonObject>>;
  webhooks: Record<string, Record<string, JsonObject>>;
  components: {
    schemas: Record<string, JsonObject>;
    responses: Record<string, JsonObject>;
    parameters: Record<string, JsonObject>;
  };
  [key: string]: unknown;
}

/** Reads and parses the contract. */
export function loadContract(path = CONTRACT_PATH): { text: string; doc: Contract } {
  const text = readFileSync(path, 'utf8');
  return { text, doc: parse(text) as Contract };
}

/** `#/components/schemas/Foo` -> `Foo`; anything else is not a schema ref. */
export function schemaRefName(ref: string): string | undefined {
  const m = /^#\/components\/schemas\/([A-Za-z0-9_]+)$/.exec(ref);
  return m?.[1];
}

/** Deep copy of a component schema with `$ref`s rewritten to sibling files (`Foo.json`). */
function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value === null || typeof value !== 'object') return value;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === '$ref' && typeof v === 'string') {
      const name = schemaRefName(v);
      if (!name) throw new Error(`unsupported $ref in a schema: ${v}`);
      out[k] = `${name}.json`;
    } else {
      out[k] = rewriteRefs(v);
    }
  }
  return out;
}

/** Every component schema as a standalone JSON Schema 2020-12 document, by component name. */
export function componentSchemas(doc: Contract): Record<string, JsonObject> {
  const out: Record<string, JsonObject> = {};
  for (const name of Object.keys(doc.components.schemas).sort()) {
    const schema = rewriteRefs(doc.components.schemas[name]) as JsonObject;
    out[name] = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: `${SCHEMA_ID_BASE}${name}.json`,
      title: name,
      ...schema,
    };
  }
  return out;
}
