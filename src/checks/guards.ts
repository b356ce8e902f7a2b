/** Small helpers several checks share: how an answer is described, status classes, profile guards. */
import type { Exchange } from '../core/index.ts';
import { type CheckContext, type CheckOutcome, skip } from './check.ts';

export const is2xx = (s: number): boolean => s >= 200 && s < 300;
export const is4xx = (s: number): boolean => s >= 400 && s < 500;

/** A JSON object (not null, not an array). */
export const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * What the client writes on the Exchange of an answer that asked it to wait (a 429 or 503 with a
 * Retry-After it could read): `RetryAfterMark` of client/request-options.ts, read here by shape
 * (checks do not import the client).
 */
interface WaitMark {
  status: number;
  honoured: boolean;
  reason?: string;
  inARow?: number;
}

const waitMarkOf = (ex: Exchange): WaitMark | undefined => (ex as { retryAfter?: WaitMark }).retryAfter;

/**
 * Whether `ex` is an answer that asked the client to wait, which it did before sending the request
 * again: the service's say on the request is the re-send's answer, so this one is counted, not judged.
 */
export function waitedOut(ex: Exchange): boolean {
  return waitMarkOf(ex)?.honoured === true;
}

/**
 * For an answer that asked to wait and was taken as the answer (the re-sends ran out, the wait was too
 * long): what the service kept doing, to append to a finding's message; '' for any other answer.
 */
export function keptAskingToWait(ex: Exchange): string {
  const mark = waitMarkOf(ex);
  if (!mark || mark.honoured) return '';
  const n = mark.inARow ?? 1;
  const what =
    n > 1 ? `it kept answering ${mark.status} with Retry-After (${n} times in a row)` : `it answered ${mark.status} with Retry-After`;
  return ` (${what}, and the client stopped waiting: ${mark.reason ?? 'no reason recorded'})`;
}

/**
 * `METHOD path answered <status or error code>`, with the problem's `detail` when `withDetail`, and
 * what the service kept doing when it kept asking to wait.
 */
export function answered(ex: Exchange, withDetail = false): string {
  const detail = withDetail ? (ex.response?.body as { detail?: unknown } | undefined)?.detail : undefined;
  const detailText = typeof detail === 'string' ? ` (${detail.slice(0, 120)})` : '';
  return `${ex.request.method} ${ex.request.path} answered ${ex.response?.status ?? ex.error?.code}${detailText}${keptAskingToWait(ex)}`;
}

/** Skips a sandbox-only rule when the target is judged by the public profile. */
export function sandboxOnly(ctx: CheckContext): CheckOutcome | undefined {
  return ctx.profile.name === 'sandbox' ? undefined : skip('a rule of the sandbox profile; the target is judged by the public profile');
}
