/** Small helpers several checks share: how an answer is described, status classes, profile guards. */
import type { Exchange } from '../core/index.ts';
import { type CheckContext, type CheckOutcome, skip } from './check.ts';

export const is2xx = (s: number): boolean => s >= 200 && s < 300;
export const is4xx = (s: number): boolean => s >= 400 && s < 500;

/** A JSON object (not null, not an array). */
export const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `METHOD path answered <status or error code>`, with the problem's `detail` when `withDetail`. */
export function answered(ex: Exchange, withDetail = false): string {
  const detail = withDetail ? (ex.response?.body as { detail?: unknown } | undefined)?.detail : undefined;
  return `${ex.request.method} ${ex.request.path} answered ${ex.response?.status ?? ex.error?.code}${typeof detail === 'string' ? ` (${detail.slice(0, 120)})` : ''}`;
}

/** Skips a sandbox-only rule when the target is judged by the public profile. */
export function sandboxOnly(ctx: CheckContext): CheckOutcome | undefined {
  return ctx.profile.name === 'sandbox' ? undefined : skip('a rule of the sandbox profile; the target is judged by the public profile');
}
