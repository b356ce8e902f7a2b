/**
 * Validates a response body with the contract's compiled validator for its status, once per exchange,
 * and sorts the errors by the check that reports them (schema, enum, format). Currency and country
 * patterns are left to their own invariant checks, so one defect gives one finding.
 */
import type { ErrorObject } from 'ajv';
import { type Exchange, type OperationEntry, type RuleSource, SCHEMA_CLAUSES } from '../core/index.ts';
import { documentedErrors, schemaSources, validators } from '../generated/contract.ts';
import { jsonBody } from './check.ts';

export type SchemaErrorClass = 'schema' | 'enum' | 'format';

export interface SchemaVerdict {
  schema: string;
  source: RuleSource;
  clause: string;
  errors: Record<SchemaErrorClass, ErrorObject[]>;
}

const cache = new WeakMap<Exchange, SchemaVerdict | string>();

function classify(e: ErrorObject): SchemaErrorClass | undefined {
  if (e.keyword === 'enum' || e.keyword === 'const') return 'enum';
  if (e.keyword === 'format') return 'format';
  if (e.keyword === 'pattern' && /\/(currency|country)$/.test(e.instancePath)) return undefined;
  // oneOf/anyOf wrappers repeat what their branches said.
  if (e.keyword === 'oneOf' || e.keyword === 'anyOf') return undefined;
  return 'schema';
}

/** The verdict for the body of `ex`, or a reason why it cannot be judged. */
export function schemaVerdict(ex: Exchange, op: OperationEntry | undefined): SchemaVerdict | string {
  const hit = cache.get(ex);
  if (hit !== undefined) return hit;
  const verdict = compute(ex, op);
  cache.set(ex, verdict);
  return verdict;
}

function compute(ex: Exchange, op: OperationEntry | undefined): SchemaVerdict | string {
  if (!ex.response) return 'no response';
  if (!op) return 'the path is not an operation of the contract';
  const entry = op.responses[String(ex.response.status)];
  if (!entry) return `status ${ex.response.status} is not documented for ${op.operationId}`;
  if (entry.schema === null) return 'the contract documents no body for this response';
  const body = jsonBody(ex);
  if (body === undefined) return 'the body is not JSON';
  const validate = validators[entry.schema]!;
  const errors: SchemaVerdict['errors'] = { schema: [], enum: [], format: [] };
  if (!validate(body)) {
    // A constraint of the contract's own (x-ours) is no document's: never held against a service.
    for (const e of documentedErrors(entry.schema, validate.errors)) {
      const c = classify(e);
      if (c) errors[c].push(e);
    }
  }
  const source = schemaSources[entry.schema] ?? 'spec';
  return { schema: entry.schema, source, clause: SCHEMA_CLAUSES[entry.schema] ?? `${source}#${entry.schema}`, errors };
}

/** One line per error: `/amount must be integer`. */
export function describeErrors(errors: ErrorObject[]): string {
  return errors
    .map((e) => {
      const where = e.instancePath || '(root)';
      const extra = e.keyword === 'enum' ? ` (${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')})` : '';
      return `${where} ${e.message ?? e.keyword}${extra}`;
    })
    .join('; ');
}
