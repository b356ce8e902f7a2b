/** Durations as users write them: `500ms`, `30s`, `2m`, or plain milliseconds. */
import { ToolkitError } from '../core/errors.ts';
import { typeOf } from './messages.ts';

const UNIT_MS = { ms: 1, s: 1000, m: 60_000 } as const;
const PATTERN = /^(\d+(?:\.\d+)?)\s*(ms|s|m)?$/;

/** How to write a duration, for error hints. */
export const DURATION_HINT = 'write a duration such as 500ms, 30s, 2m, or a whole number of milliseconds';

/**
 * Reads a duration without throwing: the milliseconds, or why the input is not a duration.
 * Numbers are milliseconds; a unitless string is milliseconds too, so it must be whole.
 */
export function tryParseDuration(input: unknown): { ok: true; ms: number } | { ok: false; reason: string } {
  if (typeof input === 'number') {
    if (Number.isSafeInteger(input) && input >= 0) return { ok: true, ms: input };
    return { ok: false, reason: 'a number of milliseconds must be a whole number, 0 or more' };
  }
  if (typeof input !== 'string') return { ok: false, reason: `expected a duration string or a number, got ${typeOf(input)}` };
  const match = PATTERN.exec(input.trim());
  if (!match) return { ok: false, reason: 'not a duration' };
  const unit = (match[2] ?? 'ms') as keyof typeof UNIT_MS;
  const ms = Number(match[1]) * UNIT_MS[unit];
  // 1.5s is fine, 1.5ms or 0.0001s is not: the toolkit's timers count whole milliseconds.
  if (!Number.isSafeInteger(ms)) return { ok: false, reason: 'not a whole number of milliseconds' };
  return { ok: true, ms };
}

/**
 * Parses a duration (`500ms`, `30s`, `2m`, `1.5s`, `"1500"` or `1500`) to milliseconds.
 *
 * @throws ToolkitError PCC_CONFIG_INVALID when `input` is not a duration
 */
export function parseDuration(input: string | number): number {
  const result = tryParseDuration(input);
  if (result.ok) return result.ms;
  throw new ToolkitError('PCC_CONFIG_INVALID', `invalid duration ${JSON.stringify(input)}: ${result.reason}`, DURATION_HINT);
}

/** Formats milliseconds the short way round (`10s`, `2m`, `1500ms`), for help text. */
export function formatDuration(ms: number): string {
  if (ms !== 0 && ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms !== 0 && ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}
