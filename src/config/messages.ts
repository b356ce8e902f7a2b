/** Small helpers to write error messages that name the wrong thing and suggest the right one. */

/** A short name for the type of a value: `a string`, `a number`, `an array`, `null`. */
export function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  const t = typeof value;
  return t === 'object' ? 'an object' : `a ${t}`;
}

/** A value as shown in a message: JSON, cut short. */
export function show(value: unknown, max = 80): string {
  let text: string;
  try {
    text = typeof value === 'function' ? '[function]' : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * The candidates close to `input` (typo distance, or one a prefix of the other), closest first.
 * Used for unknown flags, unknown config keys and unknown suite names.
 */
export function closest(input: string, candidates: readonly string[], max = 4): string[] {
  const limit = Math.max(2, Math.floor(input.length / 3));
  return candidates
    .map((candidate) => ({ candidate, d: distance(input, candidate) }))
    .filter(({ candidate, d }) => d <= limit || isPrefixMatch(input, candidate))
    .sort((a, b) => a.d - b.d)
    .slice(0, max)
    .map(({ candidate }) => candidate);
}

/** `, did you mean X or Y?` style suffix, or '' when nothing is close. */
export function didYouMean(input: string, candidates: readonly string[]): string {
  const near = closest(input, candidates);
  if (near.length === 0) return '';
  const last = near.pop()!;
  return `; did you mean ${near.length ? `${near.join(', ')} or ${last}` : last}?`;
}

function isPrefixMatch(input: string, candidate: string): boolean {
  // A bare `--sim` or `--webhook` should list its family; a one-letter prefix is just noise.
  const stem = (s: string) => s.replace(/^-+(no-)?/, '');
  const a = stem(input);
  const b = stem(candidate);
  return a.length >= 3 && b.length >= 3 && (a.startsWith(b) || b.startsWith(a));
}

/** Optimal string alignment distance: Levenshtein plus adjacent transpositions (`tagret`). */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}
