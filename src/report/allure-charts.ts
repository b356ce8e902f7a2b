/**
 * The run's timing charts in the Allure report. Allure 3 has no place for a chart of the run's own data
 * (its awesome plugin's charts and widgets are fixed kinds computed from the tests' statuses and
 * durations, its environment block is text), but it shows the run's global attachments (a
 * `<uuid>-globals.json` file's `attachments`, the format allure-js writes) in the report's "Global
 * Attachments" tab, beside "Results", and renders an `image/svg+xml` attachment as the image: the
 * answer-time, convergence and webhook-delay charts of certification.html (timing-charts.ts) go
 * there, one SVG each. A run without timing writes nothing. Allure 2 readers ignore the file.
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { timingCharts } from './timing-charts.ts';
import type { TimingSummary } from './timing.ts';

/** The name of each chart's attachment starts with it (what a reader of the results looks for). */
export const ALLURE_TIMING_PREFIX = 'Timing: ';

/** Writes the timing charts as global SVG attachments of the results in `dir`; returns the globals file, if any. */
export function writeAllureTimingCharts(dir: string, timing: TimingSummary | undefined, at = Date.now()): string | undefined {
  const charts = timingCharts(timing);
  if (charts.length === 0) return undefined;
  const attachments = charts.map((c) => {
    const source = `${randomUUID()}-attachment.svg`;
    writeFileSync(join(dir, source), c.svg);
    return { name: `${ALLURE_TIMING_PREFIX}${c.title}`, source, type: 'image/svg+xml', timestamp: at };
  });
  const path = join(dir, `${randomUUID()}-globals.json`);
  writeFileSync(path, JSON.stringify({ attachments, errors: [] }));
  return path;
}
