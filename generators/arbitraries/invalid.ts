/**
 * Invalid variants of a schema: a valid instance with exactly one thing broken. The kinds of breakage
 * are derived from the schema's own keywords (required lists, types, enums, formats, patterns, bounds),
 * so every variant is known to violate the schema, and each carries a label saying how.
 */
import fc from 'fast-check';
import { type SchemaNode, deref, schemaByName, typesOf } from './schemas.ts';
import { validOf } from './valid.ts';

/** An invalid instance and the reason it is invalid. */
export interface InvalidVariant {
  value: unknown;
  /** e.g. `missing required amount`, `wrong type at status`, `outside enum at tags[0]`. */
  reason: string;
}

type Mutation = { path: (string | number)[]; reason: string; bad: fc.Arbitrary<unknown> } | { drop: string[]; reason: string };

/** Values of a JSON type other than all of `allowed`. */
function wrongType(allowed: string[]): fc.Arbitrary<unknown> {
  const pool: [string, fc.Arbitrary<unknown>][] = [
    ['string', fc.string({ maxLength: 6 })],
    ['integer', fc.integer()],
    ['number', fc.double({ noNaN: true, noInteger: true, noDefaultInfinity: true }).filter((x) => !Number.isInteger(x))],
    ['boolean', fc.boolean()],
    ['null', fc.constant(null)],
    ['array', fc.array(fc.integer(), { maxLength: 2 })],
    ['object', fc.constant({ unexpected: true })],
  ];
  const ok = new Set(allowed.includes('number') ? [...allowed, 'integer'] : allowed);
  return fc.oneof(...pool.filter(([t]) => !ok.has(t)).map(([, a]) => a));
}

function mutationsAt(node: SchemaNode, path: (string | number)[], label: string): Mutation[] {
  const n = deref(node);
  const out: Mutation[] = [];
  const types = typesOf(n);
  const where = label || 'the root';
  if (types.length > 0) out.push({ path, reason: `wrong type at ${where}`, bad: wrongType(types) });
  if (n.enum) {
    const allowed = new Set(n.enum);
    out.push({ path, reason: `outside enum at ${where}`, bad: fc.string({ minLength: 1, maxLength: 12 }).map((s) => `X_${s}`).filter((s) => !allowed.has(s)) });
  }
  if (n.format === 'date-time') out.push({ path, reason: `bad date-time at ${where}`, bad: fc.constantFrom('22/11/2026 10:00', '2026-13-45T25:61:00Z', 'yesterday') });
  if (n.format === 'uri') out.push({ path, reason: `bad uri at ${where}`, bad: fc.constantFrom('not a url', '://missing-scheme', 'http//x') });
  if (n.pattern) {
    const re = new RegExp(n.pattern);
    out.push({ path, reason: `pattern mismatch at ${where}`, bad: fc.string({ maxLength: 8 }).filter((s) => !re.test(s)) });
  }
  if (types.includes('integer')) {
    out.push({ path, reason: `fractional number at ${where}`, bad: fc.integer({ min: 0, max: 1000 }).map((i) => i + 0.5) });
    if (n.minimum !== undefined) out.push({ path, reason: `below minimum at ${where}`, bad: fc.integer({ min: -1_000_000, max: n.minimum - 1 }) });
    if (n.maximum !== undefined) out.push({ path, reason: `above maximum at ${where}`, bad: fc.integer({ min: n.maximum + 1, max: n.maximum + 1_000_000 }) });
  }
  if (n.items && types.length === 1 && types[0] === 'array') {
    for (const m of mutationsAt(n.items, [...path, 0], `${label}[0]`)) if ('bad' in m) out.push(m);
  }
  for (const [k, v] of Object.entries(n.properties ?? {})) {
    const child = label ? `${label}.${k}` : k;
    // Only walk into properties that are objects or scalars, never through a nullable/oneOf parent.
    if (typesOf(n).length <= 1) out.push(...mutationsAt(v, [...path, k], child));
  }
  for (const r of n.required ?? []) out.push({ drop: [...path.map(String), r], reason: `missing required ${label ? `${label}.` : ''}${r}` });
  return out;
}

function setAt(root: unknown, path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (typeof head === 'number') {
    const arr = Array.isArray(root) && root.length > 0 ? [...root] : [undefined];
    arr[0] = setAt(arr[0], rest, value);
    return arr;
  }
  const obj = root !== null && typeof root === 'object' && !Array.isArray(root) ? { ...(root as object) } : {};
  (obj as Record<string, unknown>)[head!] = setAt((obj as Record<string, unknown>)[head!], rest, value);
  return obj;
}

function dropAt(root: unknown, path: string[], validChild: (k: string[]) => unknown): unknown {
  const [head, ...rest] = path;
  const obj = { ...(root as Record<string, unknown>) };
  if (rest.length === 0) {
    delete obj[head!];
    return obj;
  }
  const child = obj[head!] ?? validChild(path.slice(0, 1));
  obj[head!] = dropAt(child, rest, (p) => validChild([head!, ...p]));
  return obj;
}

/** Invalid variants of a schema node: each a valid instance with one labelled breakage. */
export function invalidOf(node: SchemaNode): fc.Arbitrary<InvalidVariant> {
  const muts = mutationsAt(node, [], '');
  if (muts.length === 0) throw new Error('schema allows every value: it has no invalid variant');
  return fc.tuple(validOf(node), fc.constantFrom(...muts)).chain(([valid, m]) => {
    if ('drop' in m) {
      // A missing nested object is filled in before the field is dropped, so exactly one thing breaks.
      const filled = fc.constant(valid).map((v) => dropAt(v, m.drop, () => ({})));
      return filled.map((value) => ({ value, reason: m.reason }));
    }
    return m.bad.map((bad) => ({ value: setAt(valid, m.path, bad), reason: m.reason }));
  });
}

/** Invalid variants of the component schema `name`. */
export function invalidArbitrary(name: string): fc.Arbitrary<InvalidVariant> {
  return invalidOf(schemaByName(name));
}
