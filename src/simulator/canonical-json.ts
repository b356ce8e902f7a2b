/** JSON with object keys sorted at every level: the byte form webhook bodies are signed in. */

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>; // no __proto__ setter
    for (const k of Object.keys(value).sort()) out[k] = sortKeys((value as Record<string, unknown>)[k]);
    return out;
  }
  return value;
}

/** Serialises `value` with sorted keys and no whitespace. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

/**
 * The same JSON as {@link canonicalJson} with `", "` and `": "` separators (Python's default), for the
 * fault that signs one form and sends the other.
 */
export function spacedJson(value: unknown): string {
  const v = sortKeys(value);
  if (Array.isArray(v)) return `[${v.map(spacedJson).join(', ')}]`;
  if (v !== null && typeof v === 'object')
    return `{${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}: ${spacedJson(x)}`)
      .join(', ')}}`;
  return JSON.stringify(v);
}
