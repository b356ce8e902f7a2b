/**
 * Valid instances of a schema, derived from its keywords (never written field by field), so a change
 * to the contract changes what is generated.
 */
import fc from 'fast-check';
import { type SchemaNode, deref, schemaByName } from './schemas.ts';

const MIN_DATE = new Date('2000-01-01T00:00:00Z');
const MAX_DATE = new Date('2099-12-31T23:59:59Z');

/** An ISO 8601 date-time, with or without milliseconds (both are RFC 3339). */
export const dateTime = (): fc.Arbitrary<string> =>
  fc
    .tuple(fc.date({ min: MIN_DATE, max: MAX_DATE, noInvalidDate: true }), fc.boolean())
    .map(([d, ms]) => (ms ? d.toISOString() : d.toISOString().replace(/\.\d{3}Z$/, 'Z')));

/**
 * A web URL: scheme, authority (fast-check's) and path segments of unreserved characters. Not
 * `fc.webUrl()` nor `fc.webSegment()`: building their percent-encoded character set costs 1.3 s of CPU
 * in every worker that needs a URI, and on a loaded runner that stalls the worker's event loop for
 * seconds (its other waits then miss).
 */
export const webUrl = (): fc.Arbitrary<string> =>
  fc
    .tuple(fc.constantFrom('http', 'https'), fc.webAuthority(), fc.array(fc.stringMatching(/^[A-Za-z0-9._~-]{1,12}$/), { maxLength: 3 }))
    .map(([scheme, authority, segments]) => `${scheme}://${authority}${segments.map((s) => `/${s}`).join('')}`);

function stringArb(n: SchemaNode): fc.Arbitrary<string> {
  if (n.format === 'date-time') return dateTime();
  if (n.format === 'uri') return webUrl();
  if (n.pattern) return fc.stringMatching(new RegExp(n.pattern));
  return fc.string({ minLength: n.minLength ?? 0, maxLength: 40, unit: 'grapheme' });
}

function scalarArb(type: string, n: SchemaNode): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'string':
      return stringArb(n);
    case 'integer':
      return fc.integer({ min: n.minimum ?? -1_000_000_000, max: n.maximum ?? 1_000_000_000 });
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(n.items ? validOf(n.items) : fc.jsonValue(), { maxLength: 4 });
    case 'object':
      return objectArb(n);
    default:
      throw new Error(`unsupported schema type ${type}`);
  }
}

function objectArb(n: SchemaNode): fc.Arbitrary<Record<string, unknown>> {
  const props = n.properties ?? {};
  if (Object.keys(props).length === 0) return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue(), { maxKeys: 3 });
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [k, v] of Object.entries(props)) model[k] = validOf(v);
  return fc.record(model, { requiredKeys: (n.required ?? []).filter((k) => k in props) as never[] }) as fc.Arbitrary<
    Record<string, unknown>
  >;
}

/** Valid instances of a schema node (follows refs). */
export function validOf(node: SchemaNode): fc.Arbitrary<unknown> {
  const n = deref(node);
  if (n.enum) return fc.constantFrom(...n.enum);
  if (n.oneOf) return fc.oneof(...n.oneOf.map(validOf));
  const types = n.type === undefined ? ['object'] : Array.isArray(n.type) ? n.type : [n.type];
  if (types.length === 1) return scalarArb(types[0]!, n);
  return fc.oneof(...types.map((t) => scalarArb(t, n)));
}

/** Valid instances of the component schema `name`. */
export function validArbitrary(name: string): fc.Arbitrary<unknown> {
  return validOf(schemaByName(name));
}
