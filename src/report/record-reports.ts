/**
 * The reports of a run whose tests were built directly (no vitest): `check-receiver`, `certify-client`,
 * `check-pact`. The summary is built from the record, and the one writer (write-reports.ts) writes the
 * same files as `run`'s, without the contract's coverage (such a run does not exercise the service),
 * with the subject certified in the title and the required capabilities in place of the suites.
 */
import type { OmittableFact } from './certification.ts';
import type { RunRecord } from './records.ts';
import { type RunInfo, terminalIdsOf } from './run-info.ts';
import { scrubSecrets } from './scrub.ts';
import { type Summary, buildSummary } from './summary.ts';
import { type AllReports, writeReports } from './write-reports.ts';

export interface RecordReportsOptions {
  /** The reports folder (prepared with prepareReportsDir first). */
  dir: string;
  /** Tests built directly, no vitest. */
  record: RunRecord;
  /** Target {kind, baseUrl}, tool, contract, etc. */
  info: RunInfo;
  html: boolean;
  /** What is certified, and the capabilities that must each have run with no failure. */
  certification: { subject: string; required: string[] };
  stderr: (s: string) => void;
  /**
   * Told the record as the reports hold it (secrets scrubbed) and its summary, once every report but
   * the HTML is written: the command writes its transcript then (a failure fails the reports).
   */
  onRecord?: (record: RunRecord, summary: Summary) => Promise<void>;
}

/** What {@link writeRecordReports} wrote, and the exit code of the run. */
export interface RecordReportsResult {
  exitCode: 0 | 1 | 2;
  summary: Summary;
  reports: AllReports;
}

/**
 * Writes every report of `o.record` into `o.dir`. Exit code: 2 when a test holds a toolkit error or
 * the HTML report could not be made, 1 when a failure finding or a failed test, else 0.
 *
 * @throws ToolkitError PCC_REPORT_WRITE when a report file cannot be written
 */
export async function writeRecordReports(o: RecordReportsOptions): Promise<RecordReportsResult> {
  // Scrubbed by shape before the summary is built, as a run's records are when they are made.
  const record = scrubSecrets(o.record);
  const info = o.info;
  const summary = buildSummary(record, info.tool, info.target, {
    ...(info.seed === 0 ? {} : { seed: info.seed }),
    startedAt: info.startedAt,
    finishedAt: info.finishedAt,
    labels: info.labels ?? {},
  });
  if ((info.checksDisabled ?? []).length > 0) summary.checksDisabled = [...info.checksDisabled!];
  // Facts such a run does not have: no integrator, no terminal seen, no seed.
  const omit: OmittableFact[] = [
    ...(info.integratorId === '' ? ['Integrator id' as const] : []),
    ...(terminalIdsOf(record).length === 0 ? ['Terminal id' as const] : []),
    ...(info.seed === 0 ? ['Seed' as const] : []),
  ];
  const { exitCode, reports } = await writeReports(o.dir, record, summary, info, {
    html: o.html,
    stderr: o.stderr,
    coverage: false,
    certification: { subject: o.certification.subject, required: o.certification.required, omit },
    ...(o.onRecord ? { afterFiles: (r: RunRecord) => o.onRecord!(r, summary) } : {}),
  });
  return { exitCode, summary, reports };
}
