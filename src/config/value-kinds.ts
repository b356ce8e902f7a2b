/**
 * Kinds of setting value that know their range once: the parser (text from a flag or the environment,
 * a value from a config file), the JSON Schema of what a config file may hold, the range as help shows
 * it, and what a typed value must be in words (for an API caller such as the simulator's options). A
 * range written here is the range of the flag, the config key, the schema and the API alike.
 */
import { formatDuration } from './duration.ts';
import * as p from './parsers.ts';

/** A JSON Schema fragment. */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** What a row of a setting needs of its value: the parser, and the JSON Schema of a config file's value. */
export interface SettingValue<T> {
  readonly parse: p.Parser<T>;
  readonly schema: JsonSchema;
}

/** A value of a row: its parser and its schema, written side by side. */
export function valueOf<T>(parse: p.Parser<T>, schema: JsonSchema): SettingValue<T> {
  return { parse, schema };
}

/** A duration of at least `min` ms, with no upper bound. */
export function durationFrom(min: number): SettingValue<number> {
  return valueOf(p.duration(min), { oneOf: [{ type: 'integer', minimum: min, description: 'milliseconds' }, DURATION_TEXT] });
}

/** A list of strings, each parsed by `item`, whose items a schema describes. */
export function listOf<T extends string>(item: (s: string) => T, hint: string, items: JsonSchema = { type: 'string' }): SettingValue<T[]> {
  return valueOf(p.list(item, hint), { type: 'array', items });
}

/** A file or folder path (made absolute by the resolver). */
export const pathValue: SettingValue<string> = valueOf(p.pathText, { type: 'string' });

/** One kind of value: see the module comment. */
export interface ValueKind<T> extends SettingValue<T> {
  /** The range as help text shows it: `0ms to 1s`, `0 to 65535`. */
  readonly range: string;
  /** What a typed value must be, for an API caller: `a whole number of milliseconds from 0 to 1000`. */
  readonly expected: string;
  /** Whether a typed value (not text) is one this kind takes, unchanged. */
  accepts(value: unknown): value is T;
}

const DURATION_TEXT = { type: 'string', pattern: '^\\s*\\d+(\\.\\d+)?\\s*(ms|s|m|h)?\\s*$' } as const;

/** A kind whose typed values are of one JavaScript type and which its parser returns as they are. */
function kind<T>(
  type: 'number' | 'string' | 'boolean',
  parse: p.Parser<T>,
  schema: JsonSchema,
  range: string,
  expected: string,
): ValueKind<T> {
  return {
    parse,
    schema,
    range,
    expected,
    accepts: (value): value is T => {
      if (typeof value !== type) return false;
      try {
        return parse(value, false) === value;
      } catch (error) {
        if (error instanceof p.InvalidValue) return false;
        throw error;
      }
    },
  };
}

/** An integer from `min` to `max`. */
export function integerKind(min: number, max: number, hint: string): ValueKind<number> {
  return kind(
    'number',
    p.integer(min, max, hint),
    { type: 'integer', minimum: min, maximum: max },
    `${min} to ${max}`,
    `an integer from ${min} to ${max}`,
  );
}

/** A duration from `min` to `max` ms (`500ms`, `2s`, or milliseconds; a typed value is milliseconds). */
export function durationKind(min: number, max: number): ValueKind<number> {
  return kind(
    'number',
    p.durationWithin(min, max),
    { oneOf: [{ type: 'integer', minimum: min, maximum: max, description: 'milliseconds' }, DURATION_TEXT] },
    `${formatDuration(min)} to ${formatDuration(max)}`,
    `a whole number of milliseconds from ${min} to ${max}`,
  );
}

/** A probability above 0 and at most 1. */
export function probabilityKind(hint: string): ValueKind<number> {
  return kind(
    'number',
    p.probability(hint),
    { type: 'number', exclusiveMinimum: 0, maximum: 1 },
    'above 0, at most 1',
    'a number above 0 and at most 1',
  );
}

/** One of a fixed set of words. */
export function choiceKind<const T extends string>(choices: readonly T[]): ValueKind<T> {
  return kind('string', p.choice(choices), { enum: [...choices] }, choices.join('|'), choices.map((c) => JSON.stringify(c)).join(' or '));
}

/** true or false. */
export const booleanKind: ValueKind<boolean> = kind('boolean', p.boolean, { type: 'boolean' }, 'on or off', 'true or false');
