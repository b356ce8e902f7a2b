/**
 * JSON with object keys sorted at every level: the byte form sandbox.md signs webhook bodies in. The
 * harness's one copy (the pact's messages, the mock's front, check-receiver's deliveries); the
 * simulator keeps its own, as it shares no logic with what judges it.
 */

/** `value` with the keys of every object sorted (objects without a prototype: no `__proto__` setter). */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const k of Object.keys(value).sort()) out[k] = sortKeys((value as Record<string, unknown>)[k]);
  return out;
}

/** Serialises `value` with sorted keys and no whitespace. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}
