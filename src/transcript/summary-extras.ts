/** The summary's facts a transcript's header keeps: those not built from the tests. */
import type { Summary } from '../report/index.ts';

/** The summary fields that are not built from the tests, as the transcript's header keeps them. */
const EXTRAS = [
  'seed',
  'startedAt',
  'finishedAt',
  'labels',
  'baseline',
  'confirmed',
  'checksDisabled',
  'connection',
  'harness',
  'shards',
] as const;

/** What of `summary` the transcript's header keeps (see {@link EXTRAS}). */
export function summaryExtras(summary: Summary): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of EXTRAS) if (summary[k] !== undefined) out[k] = summary[k];
  return out;
}
