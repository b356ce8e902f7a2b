/**
 * The contract's JSON Schemas (contracts/schemas) as the pact code reads them: by name, with the
 * patterns its formats stand for. No Pact DSL here: the pact check (check/) reads schemas without
 * loading pact-js.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../core/package-root.ts';

/** The slice of JSON Schema the contract's schemas use. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  pattern?: string;
  format?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
}

/** An ISO 8601 date-time (what `format: date-time` accepts), with or without fractions of a second. */
export const DATE_TIME_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$';
/** An absolute URI (what `format: uri` accepts, loosely: a scheme and no white space). */
export const URI_PATTERN = '^[A-Za-z][A-Za-z0-9+.-]*:\\S+$';

const SCHEMA_DIR = join(PACKAGE_ROOT, 'contracts', 'schemas');
const cache = new Map<string, JsonSchema>();

/** A schema of contracts/schemas by name (`PrintSlip`) or file (`PrintSlip.json`). */
export function loadSchema(name: string): JsonSchema {
  const file = name.endsWith('.json') ? name : `${name}.json`;
  let s = cache.get(file);
  if (!s) {
    s = JSON.parse(readFileSync(join(SCHEMA_DIR, file), 'utf8')) as JsonSchema;
    cache.set(file, s);
  }
  return s;
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A regex matching exactly the values of an enum. */
export function enumPattern(values: readonly unknown[]): string {
  return `^(?:${values.map((v) => escapeRegex(String(v))).join('|')})$`;
}
