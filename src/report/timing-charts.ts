/** Charts of timing (placeholder until the chart library is wired in). */
import type { TimingSummary } from './timing.ts';

export async function comparisonCharts(_base: TimingSummary | undefined, _cand: TimingSummary | undefined, _c: unknown): Promise<string> {
  return '';
}
