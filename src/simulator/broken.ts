/**
 * The one way a fault switch pushes a JSON answer outside the contract: the correct answer is built
 * typed with its schema (so a misspelt or missing field does not compile), then `broken` copies it
 * into an untyped object and lets the fault edit that copy. A fault that only bends the meaning of an
 * answer (another terminal id, a name not echoed) stays inside the typed value instead: the compiler
 * then proves it breaks no schema rule, so it fires only the check it targets.
 */

/** A JSON answer a fault switch may have pushed outside its schema. */
export type Broken = Record<string, unknown>;

/**
 * A shallow copy of `value` that `edit` may change freely (nested objects are shared: replace them,
 * never mutate them). Key order is kept, so an answer no fault touched serialises exactly as `value`.
 */
export function broken<T extends Broken>(value: T, edit: (copy: Broken) => void): Broken {
  const copy: Broken = { ...value };
  edit(copy);
  return copy;
}
