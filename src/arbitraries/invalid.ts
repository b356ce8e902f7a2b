/**
 * Invalid variants of a schema: a valid instance with exactly one thing broken. The kinds of breakage
 * are derived from the schema's own keywords (required lists, types, enums, formats, patterns, bounds),
 * so every variant is known to violate the schema, and each carries a label saying how.
 */
import fc from 'fast-check';
import { type BreakageKind, type InvalidBasis, basisOf } from './invalid-basis.ts';
import { oursKeywords } from './ours.ts';
import { type SchemaNode, deref, schemaByName, typesOf } from './schemas.ts';
import { validOf } from './valid.ts';

/** An invalid instance and the reason it is invalid. */
export interface InvalidVariant {
  value: unknown;
  /** e.g. `missing required amount`, `wrong type at status`, `outside enum at tags[0]`. */
  reason: string;
  /** The keyword the breakage breaks when the contract marks it as its own (`x-ours`): no document states it. */
  ours?: string;
  /** What makes the input invalid by a document (refusable variants only): the rule, the clause, the sentence. */
  basis?: InvalidBasis;
}

interface Breakage {
  reason: string;
  kind: BreakageKind;
  /** The schema keyword broken (`type`, `pattern`, `required`...). */
  keyword: string;
  /** The keyword, when the contract marks it as its own. */
  ours?: string;
}

type Mutation = Breakage & ({ path: (string | number)[]; bad: fc.Arbitrary<unknown> } | { drop: string[] });

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
  // Keywords the contract marks as its own, on the property (or on the schema it refers to).
  const ours = new Set([...oursKeywords(node), ...oursKeywords(n)]);
  const at = (kind: BreakageKind, keyword: string, bad: fc.Arbitrary<unknown>): Mutation => ({
    path,
    reason: `${kind} at ${where}`,
    kind,
    keyword,
    ...(ours.has(keyword) ? { ours: keyword } : {}),
    bad,
  });
  if (types.length > 0) out.push(at('wrong type', 'type', wrongType(types)));
  if (n.enum) {
    const allowed = new Set(n.enum);
    out.push(
      at(
        'outside enum',
        'enum',
        fc
          .string({ minLength: 1, maxLength: 12 })
          .map((s) => `X_${s}`)
          .filter((s) => !allowed.has(s)),
      ),
    );
  }
  if (n.format === 'date-time')
    out.push(at('bad date-time', 'format', fc.constantFrom('22/11/2026 10:00', '2026-13-45T25:61:00Z', 'yesterday')));
  if (n.format === 'uri') out.push(at('bad uri', 'format', fc.constantFrom('not a url', '://missing-scheme', 'http//x')));
  if (n.pattern) {
    const re = new RegExp(n.pattern);
    out.push(
      at(
        'pattern mismatch',
        'pattern',
        fc.string({ maxLength: 8 }).filter((s) => !re.test(s)),
      ),
    );
  }
  if (types.includes('integer')) {
    out.push(
      at(
        'fractional number',
        'type',
        fc.integer({ min: 0, max: 1000 }).map((i) => i + 0.5),
      ),
    );
    if (n.minimum !== undefined) out.push(at('below minimum', 'minimum', fc.integer({ min: -1_000_000, max: n.minimum - 1 })));
    if (n.maximum !== undefined) out.push(at('above maximum', 'maximum', fc.integer({ min: n.maximum + 1, max: n.maximum + 1_000_000 })));
  }
  if (n.items && types.length === 1 && types[0] === 'array') {
    for (const m of mutationsAt(n.items, [...path, 0], `${label}[0]`)) if ('bad' in m) out.push(m);
  }
  for (const [k, v] of Object.entries(n.properties ?? {})) {
    const child = label ? `${label}.${k}` : k;
    // Only walk into properties that are objects or scalars, never through a nullable/oneOf parent.
    if (typesOf(n).length <= 1) out.push(...mutationsAt(v, [...path, k], child));
  }
  for (const r of n.required ?? [])
    out.push({
      drop: [...path.map(String), r],
      reason: `missing required ${label ? `${label}.` : ''}${r}`,
      kind: 'missing required',
      keyword: 'required',
    });
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

/** Variants of `node`, each breaking it by one of `muts`, labelled (and with `extra` of its mutation). */
function variantsOf(
  node: SchemaNode,
  muts: readonly Mutation[],
  extra: (m: Mutation) => Partial<InvalidVariant> = () => ({}),
): fc.Arbitrary<InvalidVariant> {
  return fc.tuple(validOf(node), fc.constantFrom(...muts)).chain(([valid, m]) => {
    const label = { reason: m.reason, ...(m.ours ? { ours: m.ours } : {}), ...extra(m) };
    if ('drop' in m) {
      // A missing nested object is filled in before the field is dropped, so exactly one thing breaks.
      const filled = fc.constant(valid).map((v) => dropAt(v, m.drop, () => ({})));
      return filled.map((value) => ({ value, ...label }));
    }
    return m.bad.map((bad) => ({ value: setAt(valid, m.path, bad), ...label }));
  });
}

/**
 * Invalid variants of a schema node: each a valid instance with one labelled breakage of the schema,
 * the contract's own constraints (`x-ours`) included (marked `ours`): what the schema refuses.
 */
export function invalidOf(node: SchemaNode): fc.Arbitrary<InvalidVariant> {
  const muts = mutationsAt(node, [], '');
  if (muts.length === 0) throw new Error('schema allows every value: it has no invalid variant');
  return variantsOf(node, muts);
}

/** Invalid variants of the component schema `name` (every breakage of the schema, `ours` marked). */
export function invalidArbitrary(name: string): fc.Arbitrary<InvalidVariant> {
  return invalidOf(schemaByName(name));
}

/** The top-level field a mutation breaks (`''`: the body itself). */
const fieldOf = (m: Mutation): string => String(('drop' in m ? m.drop : m.path)[0] ?? '');

/**
 * Invalid variants of request schema `name` that a document calls invalid, each with its basis (the
 * rule, the clause, the sentence): what a service must refuse. A breakage of a constraint of ours
 * alone, or one no document calls invalid, is not among them (invalid-basis.ts says which are).
 * Undefined when the schema has none.
 */
export function refusableInvalidArbitrary(name: string): fc.Arbitrary<InvalidVariant> | undefined {
  const node = schemaByName(name);
  const hasAmount = deref(node).properties?.amount?.$ref === 'Amount.json';
  const basis = new Map<Mutation, InvalidBasis>();
  for (const m of mutationsAt(node, [], '')) {
    const b = m.ours ? undefined : basisOf(name, fieldOf(m), m.kind, hasAmount);
    if (b) basis.set(m, b);
  }
  if (basis.size === 0) return undefined;
  return variantsOf(node, [...basis.keys()], (m) => ({ basis: basis.get(m)! }));
}
