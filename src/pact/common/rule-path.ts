/** Where a Pact matching rule applies: the values its path names in a body. */

/** The values at a Pact matching-rule path (`$`, `$.a.b`, `$.a[*].b`, `$.a[0]`, `$['a-b']`) of `root`. */
export function valuesAt(root: unknown, path: string): unknown[] {
  let current: unknown[] = [root];
  for (const m of path.replace(/^\$/, '').matchAll(/\.([^.[\]]+)|\[(\*|\d+|'[^']+')\]/g)) {
    const key = m[1] ?? m[2]!;
    current = current.flatMap((v) => {
      if (key === '*') return Array.isArray(v) ? v : v && typeof v === 'object' ? Object.values(v) : [];
      const k = key.startsWith("'") ? key.slice(1, -1) : key;
      if (Array.isArray(v) && /^\d+$/.test(k)) return k in v ? [v[Number(k)]] : [];
      return v && typeof v === 'object' && !Array.isArray(v) && k in v ? [(v as Record<string, unknown>)[k]] : [];
    });
  }
  return current;
}
