/**
 * JSON Schema (contracts/schemas) -> Pact matcher tree. Every value in a pact body is matched by what
 * the contract says about it (a type, an enum or pattern as a regex, a format as a regex, an array by
 * its item), never by the literal example, so the pact says no more than the contract does.
 *
 * Requests: Pact refuses unexpected keys in a request body, so a request matcher has exactly the keys
 * the consumer sends (the example's). Responses: the provider may add keys, so a response matcher has
 * the schema's required keys plus the optional ones the consumer relies on (`include`).
 */
import { MatchersV3 } from '@pact-foundation/pact';
import { ToolkitError } from '../../core/index.ts';
import { validators } from '../../generated/contract.ts';
import { DATE_TIME_PATTERN, type JsonSchema, URI_PATTERN, enumPattern, loadSchema } from '../common/schemas.ts';

export { DATE_TIME_PATTERN, type JsonSchema, URI_PATTERN, enumPattern, loadSchema } from '../common/schemas.ts';

/** Options of {@link schemaToMatcher}. */
export interface SchemaMatcherOptions {
  /** `request`: exactly the example's keys; `response`: required keys plus `include`. @default 'response' */
  mode?: 'request' | 'response';
  /** Optional top-level properties a response matcher keeps (when the example has them). @default [] */
  include?: readonly string[];
  /** Values used as they are (already matchers, e.g. a provider-state value), by top-level key. @default {} */
  inject?: Record<string, unknown>;
}

const deref = (s: JsonSchema): JsonSchema => (s.$ref ? deref(loadSchema(s.$ref)) : s);

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** The branch of a union schema (oneOf, or a type list) that describes `example`. */
function branchFor(schema: JsonSchema, example: unknown, where: string): JsonSchema {
  const variants = schema.oneOf ?? schema.anyOf;
  if (variants) {
    const hit = variants.map(deref).find((v) => {
      const t = [v.type ?? []].flat();
      return t.includes(typeOf(example)) || (typeOf(example) === 'integer' && t.includes('number'));
    });
    if (!hit) throw new ToolkitError('PCC_INTERNAL', `${where}: no branch of the schema fits the example ${JSON.stringify(example)}`);
    return hit;
  }
  if (Array.isArray(schema.type)) {
    const t = typeOf(example);
    const hit = schema.type.find((x) => x === t || (t === 'integer' && x === 'number'));
    if (!hit)
      throw new ToolkitError('PCC_INTERNAL', `${where}: the example ${JSON.stringify(example)} is none of ${schema.type.join(', ')}`);
    return { ...schema, type: hit };
  }
  return schema;
}

function build(raw: JsonSchema, example: unknown, where: string, opts: SchemaMatcherOptions, top: boolean): unknown {
  if (MatchersV3.isMatcher(example)) return example;
  const schema = branchFor(deref(raw), example, where);
  if (example === null) return null;
  if (schema.enum) return MatchersV3.regex(enumPattern(schema.enum), String(example));
  switch (schema.type) {
    case 'string': {
      const s = example as string;
      if (schema.pattern) return MatchersV3.regex(schema.pattern, s);
      if (schema.format === 'date-time') return MatchersV3.regex(DATE_TIME_PATTERN, s);
      if (schema.format === 'uri') return MatchersV3.regex(URI_PATTERN, s);
      return MatchersV3.like(s);
    }
    case 'integer':
      return MatchersV3.integer(example as number);
    case 'number':
      return MatchersV3.number(example as number);
    case 'boolean':
      return MatchersV3.boolean(example as boolean);
    case 'array': {
      const list = example as unknown[];
      if (list.length === 0 || !schema.items) throw new ToolkitError('PCC_INTERNAL', `${where}: an array example needs one item`);
      return MatchersV3.eachLike(build(schema.items, list[0], `${where}[0]`, opts, false), 1);
    }
    case 'object': {
      const obj = example as Record<string, unknown>;
      const props = schema.properties ?? {};
      const inject = top ? (opts.inject ?? {}) : {};
      const chosen =
        opts.mode === 'request'
          ? Object.keys(obj)
          : Object.keys(obj).filter((k) => (schema.required ?? []).includes(k) || (top && (opts.include ?? []).includes(k)));
      const keys = [...new Set([...chosen, ...Object.keys(inject)])];
      for (const k of schema.required ?? []) {
        if (opts.mode !== 'request' && !(k in obj)) throw new ToolkitError('PCC_INTERNAL', `${where}: the example lacks the required ${k}`);
      }
      const out: Record<string, unknown> = {};
      for (const k of keys) {
        const sub = props[k];
        if (!sub) throw new ToolkitError('PCC_INTERNAL', `${where}: the example has ${k}, which the schema does not define`);
        out[k] = k in inject ? inject[k] : build(sub, obj[k], `${where}.${k}`, opts, false);
      }
      return out;
    }
    default:
      throw new ToolkitError('PCC_INTERNAL', `${where}: unsupported schema type ${String(schema.type)}`);
  }
}

/**
 * The matcher tree for `example` under the component schema `schemaName`. The example (with injected
 * values reified) must validate against the schema: a pact example is one the contract accepts.
 */
export function schemaToMatcher(
  schemaName: string,
  example: Record<string, unknown>,
  opts: SchemaMatcherOptions = {},
): Record<string, unknown> {
  const merged = { ...example };
  for (const [k, v] of Object.entries(opts.inject ?? {})) merged[k] = MatchersV3.reify(v);
  const validate = validators[schemaName];
  if (!validate) throw new ToolkitError('PCC_INTERNAL', `no validator for schema ${schemaName}`);
  if (!validate(merged)) {
    throw new ToolkitError('PCC_INTERNAL', `the example for ${schemaName} does not validate: ${JSON.stringify(validate.errors)}`);
  }
  return build(loadSchema(schemaName), example, schemaName, { mode: 'response', ...opts }, true) as Record<string, unknown>;
}
