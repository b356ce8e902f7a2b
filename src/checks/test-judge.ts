/**
 * What the checks' unit tests share: a check judged under the sandbox profile (or another context),
 * and the message of the finding it must make.
 */
import { expect } from 'vitest';
import { resolveProfile } from '../profile/index.ts';
import type { Check, CheckContext } from './check.ts';
import { type CheckRun, runCheck } from './registry.ts';

/** The sandbox profile, not strict. */
export const SANDBOX: CheckContext = { profile: resolveProfile('sandbox'), strict: false };
/** The public profile, not strict. */
export const PUBLIC: CheckContext = { profile: resolveProfile('public'), strict: false };

/** Runs `check` on `input`. */
export const judge = <I>(check: Check<I>, input: I, ctx: CheckContext = SANDBOX): CheckRun => runCheck(check, input, ctx);

/** The message of the first finding of `check` on `input`, which must fail. */
export function message<I>(check: Check<I>, input: I, ctx: CheckContext = SANDBOX): string {
  const r = judge(check, input, ctx);
  expect(r.outcome).toBe('fail');
  return r.findings[0]!.message;
}
