/**
 * The few matchers the schema walk cannot derive: values the provider state supplies at verification
 * (ids in paths, the OTP of a pairing), and the canonical JSON the webhook signature is computed over.
 */
import type { Matcher } from '@pact-foundation/pact';

/** A Pact matcher in the integration format pact-js hands to the core. */
export type RawMatcher = Matcher<string>;

/**
 * `json` (a matcher in the core's integration format) as pact-js's matcher type: the one place the
 * types part. pact-js types a matcher as Matcher<string>, with no room for what its core takes besides
 * (a provider-state generator, rules combined with AND) nor for its own MatchersV3.regex result.
 */
export function rawMatcher(json: object): RawMatcher {
  return json as unknown as RawMatcher;
}

/**
 * A value the provider state supplies at verification (`${name}` in `expression`), matched on the
 * consumer side by `regex` (or exactly, when none is given: a path must stay unambiguous in a mock
 * that holds several interactions of one endpoint).
 */
export function fromState(expression: string, example: string, regex?: string): RawMatcher {
  return rawMatcher({
    'pact:matcher:type': regex ? 'regex' : 'equality',
    ...(regex ? { regex } : {}),
    'pact:generator:type': 'ProviderState',
    expression,
    value: example,
  });
}

/** A path whose `{param}` segments come from the provider state: `{transaction_id}` -> `${transactionId}`. */
export function statePath(template: string, params: Record<string, { state: string; example: string }>): RawMatcher {
  let expression = template;
  let example = template;
  for (const [param, { state, example: value }] of Object.entries(params)) {
    expression = expression.replace(`{${param}}`, `\${${state}}`);
    example = example.replace(`{${param}}`, value);
  }
  return fromState(expression, example);
}

/** JSON with the keys of every object sorted (how the sandbox serialises a webhook body). */
export { canonicalJson } from '../../core/index.ts';

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A regex matching every string but `word` (the regex dialect of Pact's core has no look-ahead): any
 * other length, or a first position where it differs.
 */
export function anythingBut(word: string): string {
  const alts = [`.{0,${word.length - 1}}`, `.{${word.length + 1},}`];
  for (let i = 0; i < word.length; i++) alts.push(`${escapeRegex(word.slice(0, i))}[^${escapeRegex(word[i]!)}].*`);
  return `^(?:${alts.join('|')})$`;
}

/** A regex fragment (no anchors) matching every non-blank run of at least one character that does not start with `prefix`. */
export function notStartingWith(prefix: string): string {
  const alts = [`\\S{1,${prefix.length - 1}}`];
  for (let i = 0; i < prefix.length; i++) alts.push(`${escapeRegex(prefix.slice(0, i))}[^${escapeRegex(prefix[i]!)}\\s]\\S*`);
  return `(?:${alts.join('|')})`;
}

/** A regex fragment (no anchors) matching every non-blank run of at least one character that does not end with `suffix`. */
export function notEndingWith(suffix: string): string {
  const n = suffix.length;
  const alts = [`\\S{1,${n - 1}}`];
  for (let i = 0; i < n; i++) alts.push(`\\S*${escapeRegex(suffix.slice(0, i))}[^${escapeRegex(suffix[i]!)}\\s]\\S{${n - 1 - i}}`);
  return `(?:${alts.join('|')})`;
}

/**
 * An integer whose digits match `regex`: both rules at once (Pact combines them with AND). A regex
 * alone would take the string "1250" as well, which the payment suite sends to be refused.
 */
export function integerMatching(regex: string, example: number): RawMatcher {
  return rawMatcher({
    'pact:matcher:type': [{ 'pact:matcher:type': 'integer' }, { 'pact:matcher:type': 'regex', regex }],
    value: example,
  });
}
