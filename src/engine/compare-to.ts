/**
 * `run --compare-to DIR`: the earlier run's reports are read before anything starts (a folder that is
 * not a run's reports stops the run at once, exit 2), and this run is compared with them once its
 * summary is built: the certification gets a section, the reports folder compare.json and
 * compare.html, the console the table.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type Comparison,
  type RunView,
  compareHtml,
  compareRuns,
  compareSectionHtml,
  compareSectionMarkdown,
  loadRun,
  shapesOf,
} from '../compare/index.ts';
import type { Exchange } from '../core/index.ts';
import type { RunRecord, Summary } from '../report/index.ts';

/** compare.json and compare.html of a comparison, in the run's reports folder (written after the reports). */
export function writeComparison(reportsDir: string, comparison: Comparison): void {
  writeFileSync(join(reportsDir, 'compare.json'), `${JSON.stringify(comparison, null, 2)}\n`);
  writeFileSync(join(reportsDir, 'compare.html'), compareHtml(comparison));
}

/** The base run, read before the run starts. */
export async function readCompareBase(dir: string | undefined): Promise<RunView | undefined> {
  return dir === undefined ? undefined : loadRun(dir, '--compare-to');
}

/** This run (its summary and records: the exchanges and deliveries its tests kept) against the base. */
export function compareWithBase(
  base: RunView,
  reportsDir: string,
  summary: Summary,
  record: RunRecord,
  terminalMode?: string,
): { comparison: Comparison; section: { markdown: string; html: string } } {
  const exchanges = record.tests.flatMap((t) => t.exchanges as Exchange[]);
  const deliveries = record.tests
    .flatMap((t) => (t.deliveries ?? []) as { event?: string; rawBody?: unknown; body?: unknown; signature?: string }[])
    .filter((d) => d.signature === undefined || d.signature === 'valid');
  const candidate: RunView = {
    dir: reportsDir,
    summary,
    tests: record.tests,
    shapes: shapesOf(exchanges, deliveries),
    ...(terminalMode ? { terminalMode } : {}),
  };
  const comparison = compareRuns(base, candidate);
  return { comparison, section: { markdown: compareSectionMarkdown(comparison), html: compareSectionHtml(comparison) } };
}
