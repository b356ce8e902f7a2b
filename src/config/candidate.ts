/**
 * A candidate value for an option, with where it came from, and the errors that name both. Every
 * error of the resolver is built here so they all read alike:
 * `invalid <option> <value> from <where>: <reason>` plus a hint with the fix.
 */
import { ToolkitError, type ErrorCode } from '../core/errors.ts';
import { show } from './messages.ts';
import type { ConfigSource, OptionKey } from './types.ts';

/** One value for an option, as found in one source. */
export interface Candidate {
  /** A string (or string[], or boolean) from a flag or env var; anything from a config file. */
  readonly value: unknown;
  readonly source: Exclude<ConfigSource, 'default'>;
  /** For messages: `flag --deadline`, `environment variable PAYCONNECT_DEADLINE`, `config file /x (key deadline)`. */
  readonly where: string;
  /** Relative paths in this value resolve against this folder (a config file's folder); else the cwd. */
  readonly baseDir?: string;
}

/** The candidates one source offers, by option. */
export type Candidates = Partial<Record<OptionKey, Candidate>>;

/** A wrong flag is a usage error; a wrong file or environment value is a configuration error. */
export function codeFor(sources: readonly ConfigSource[]): ErrorCode {
  return sources.includes('flag') ? 'PCC_USAGE' : 'PCC_CONFIG_INVALID';
}

/** The value as shown in messages; OTPs are never echoed. */
function shown(key: OptionKey, value: unknown): string {
  if (key === 'otp') return '(not shown)';
  // A proxy URL may carry the proxy's password.
  if (key === 'proxy' && typeof value === 'string') return show(value.replace(/\/\/[^@/]*@/, '//***@'));
  return show(value);
}

/** The error for one bad value. */
export function invalidValue(key: OptionKey, c: Candidate, reason: string, hint: string, cause?: unknown): ToolkitError {
  return new ToolkitError(
    codeFor([c.source]),
    `invalid ${key} ${shown(key, c.value)} from ${c.where}: ${reason}`,
    hint,
    cause === undefined ? undefined : { cause },
  );
}

/** One side of a conflict between options: the option, its resolved value, and its candidate (none: default). */
export interface ConflictSide {
  readonly key: OptionKey;
  readonly value: unknown;
  readonly from: Candidate | undefined;
}

/** The error for two values that are fine alone and wrong together. */
export function conflict(sides: readonly ConflictSide[], reason: string, hint: string): ToolkitError {
  const parts = sides.map(({ key, value, from }) => `${key} ${shown(key, value)} (${from ? `from ${from.where}` : 'default'})`);
  return new ToolkitError(codeFor(sides.map((s) => s.from?.source ?? 'default')), `${parts.join(' and ')}: ${reason}`, hint);
}
