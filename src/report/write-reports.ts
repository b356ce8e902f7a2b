/**
 * The one report writer. Every command that reports (`run`, `merge-reports`, `check-receiver`,
 * `certify-client`, `check-pact`) hands it a run record and its summary, and it writes the same files
 * from them alone, each whole or not at all: summary.json, coverage.json, junit.xml,
 * certification.md and .html, allure-results (from the records: see allure-results.ts) and the
 * Allure HTML report. A merged run is its shards' records, written by the same code (as vitest's
 * `mergeReports` and Playwright's `merge.ts` replay shard blobs through the same reporters).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { operations } from '../generated/contract.ts';
import { type WarmAllure, writeHtmlReport } from './allure-html.ts';
import type { WarmCharts } from './timing-charts.ts';
import { type AllureMessageOptions, clauseUrlFrom, defaultClauseUrl } from './allure-messages.ts';
import { writeAllureTimingCharts } from './allure-charts.ts';
import { allureEnvironment, writeAllureResults } from './allure-results.ts';
import {
  type Certification,
  type CertificationText,
  certificationHtml,
  certificationMarkdown,
  certificationTitle,
  certify,
} from './certification.ts';
import { clauseText } from './clause-text.ts';
import {
  type Coverage,
  type CoverageKind,
  buildCoverage,
  coverageLine,
  coverageMarkdown,
  excludedItems,
  uncoveredItems,
} from './coverage.ts';
import { buildJunitXml } from './junit.ts';
import type { RunRecord } from './records.ts';
import { type RunInfo, sha256Hex, terminalIdsOf } from './run-info.ts';
import { scrubSecrets } from './scrub.ts';
import { foldFindings } from './outcome.ts';
import { type Summary, exitCodeFor } from './summary.ts';
import { writeSpecBundle } from './spec-bundle.ts';
import { REPORT_FILES, replaceDirectory, stagingDirectory, writeReportFile } from './write.ts';

/** The files of {@link writeRunReports}, absolute. */
export interface WrittenReports {
  summary: string;
  junit: string;
  certificationMd: string;
  certificationHtml: string;
  certification: Certification;
}

/** The files of {@link writeRunReports}: those of every report, and coverage.json with its content. */
export interface RunReports extends WrittenReports {
  coverageJson?: string;
  /** What the run exercised (coverage.json's content); absent when the run's coverage is not reported. */
  coverage?: Coverage;
}

/** Every file {@link writeReports} wrote. */
export interface AllReports extends RunReports {
  allureResults: string;
  allureReport?: string;
  htmlError?: string;
}

/** Options of {@link writeRunReports}. */
export interface FileReportOptions {
  /** What the certification says beyond the records (subject, required capabilities, facts left out). @default a run's */
  certification?: CertificationText;
  /** Whether coverage.json is written and the summary and certification report coverage (the contract's, for a run of the suites). @default true */
  coverage?: boolean;
}

/** What the file reports say, decided before any is written: the Allure report needs the coverage and the certification too. */
interface DecidedReports {
  paths: { summary: string; junit: string; certificationMd: string; certificationHtml: string };
  coverage: Coverage | undefined;
  summaryText: string;
  certification: Certification;
}

/**
 * Writes summary.json, coverage.json (built from the records: a merged run's is that of its shards
 * together), junit.xml and the certification summary. `record` and `summary` are redacted. The summary
 * is completed here with what coverage adds (its tallies; with --require-coverage, the uncovered items,
 * which fail the verdict), so the caller's exit code reads the summary written.
 */
export function writeRunReports(dir: string, record: RunRecord, summary: Summary, info: RunInfo, opts: FileReportOptions = {}): RunReports {
  return writeDecidedReports(dir, record, summary, info, opts, decideRunReports(dir, record, summary, info, opts));
}

/** The coverage, the summary completed with it (see {@link writeRunReports}) and the certification; nothing written. */
function decideRunReports(dir: string, record: RunRecord, summary: Summary, info: RunInfo, opts: FileReportOptions): DecidedReports {
  const paths = {
    summary: join(dir, REPORT_FILES.summary),
    junit: join(dir, REPORT_FILES.junit),
    certificationMd: join(dir, REPORT_FILES.certificationMd),
    certificationHtml: join(dir, REPORT_FILES.certificationHtml),
  };
  const coverage = opts.coverage === false ? undefined : buildCoverage(record, info);
  if (coverage) {
    // The coverage required (--require-coverage): each item never covered fails the run, by name.
    const required = info.requireCoverage ?? [];
    const uncovered = required.length > 0 ? uncoveredItems(coverage, required as CoverageKind[]) : [];
    const excluded = excludedItems(coverage, required.length > 0 ? (required as CoverageKind[]) : undefined);
    summary.coverage = {
      summary: coverage.summary,
      ...(required.length > 0 ? { required: [...required], uncovered } : {}),
      ...(excluded.length > 0 ? { excluded } : {}),
    };
    if (uncovered.length > 0) summary.verdict = 'fail';
  }
  const summaryText = `${JSON.stringify(summary, null, 2)}\n`;
  const certification = certify(record, summary, info, sha256Hex(summaryText), terminalIdsOf(record), opts.certification?.required);
  return { paths, coverage, summaryText, certification };
}

/** The files of {@link writeRunReports}, as `decided`. */
function writeDecidedReports(
  dir: string,
  record: RunRecord,
  summary: Summary,
  info: RunInfo,
  opts: FileReportOptions,
  decided: DecidedReports,
): RunReports {
  const { paths, coverage, summaryText, certification } = decided;
  writeReportFile(paths.summary, summaryText);
  const coverageJson = coverage ? join(dir, REPORT_FILES.coverage) : undefined;
  if (coverageJson) writeReportFile(coverageJson, `${JSON.stringify(coverage, null, 2)}\n`);
  writeReportFile(paths.junit, buildJunitXml(record, summary, info));
  const text = opts.certification ?? {};
  writeReportFile(
    paths.certificationMd,
    certificationMarkdown(record, summary, info, certification, coverage ? coverageMarkdown(coverage) : undefined, text),
  );
  writeReportFile(paths.certificationHtml, certificationHtml(record, summary, info, certification, coverage, text));
  // The clause links of the certification and the Allure report open these: the reports carry their spec.
  writeSpecBundle(dir);
  return { ...paths, certification, ...(coverage && coverageJson ? { coverage, coverageJson } : {}) };
}

/** The Allure content options every command's reports share: clause links, endpoints, clause texts. */
export function reportMessageOptions(env: NodeJS.ProcessEnv = process.env): AllureMessageOptions {
  // Where spec clauses link to: PAYCONNECT_SPEC_BASE_URL (ending in /), else the spec bundled in the reports (spec/*.html).
  const base = env.PAYCONNECT_SPEC_BASE_URL;
  return {
    clauseUrl: base ? clauseUrlFrom(base.endsWith('/') ? base : `${base}/`) : defaultClauseUrl,
    endpoints: operations,
    clauseText: (c) => clauseText(c),
  };
}

/**
 * The HTML report's name, which its landing page shows as its title: with the verdict and the
 * warnings, since Allure counts a test with warnings as passed and a warning-only run looks all green.
 */
export function reportName(
  title: string | undefined,
  summary: Pick<Summary, 'verdict' | 'counts'> & Partial<Pick<Summary, 'known'>>,
  certified?: boolean,
): string {
  const c = summary.counts;
  // Known defects, one per root (what follows from one is the same defect); Allure lists their tests
  // as failed with the "accepted" resolution, apart from skipped ones.
  const known = summary.known ? foldFindings(summary.known).length : (c.known ?? 0);
  const more = [
    certified === undefined ? '' : certified ? 'CERTIFIED' : 'NOT CERTIFIED',
    c.failures > 0 ? `${c.failures} failure${c.failures === 1 ? '' : 's'}` : '',
    c.warnings > 0 || c.folded
      ? `${c.warnings} warning${c.warnings === 1 ? '' : 's'}${c.folded ? ` (${c.folded} finding${c.folded === 1 ? '' : 's'} folded under their root)` : ''}`
      : '',
    known > 0 ? `${known} known defect${known === 1 ? '' : 's'} (failed, and accepted by the baseline: see Resolutions)` : '',
    c.notChecked ? `${c.notChecked} not checked` : '',
  ].filter(Boolean);
  return `${title ?? 'Pay-Connect conformance'}: ${summary.verdict.toUpperCase()}${more.length > 0 ? `, ${more.join(', ')}` : ''}`;
}

/** Options of {@link writeReports}. */
export interface ReportOptions extends FileReportOptions {
  /** Whether the Allure HTML report is generated. */
  html: boolean;
  /** The package root: suite files under it are named relative to it in Allure. @default none (paths as recorded) */
  root?: string;
  /** Allure content options. @default {@link reportMessageOptions} of `process.env` */
  messages?: AllureMessageOptions;
  /** Where an HTML report that could not be made is said. */
  stderr: (s: string) => void;
  /** An Allure generator started ahead of the reports (see allure-html.ts), for the HTML report. */
  warm?: WarmAllure;
  /** A chart drawer started ahead of the reports (see timing-charts.ts): the timing charts are drawn in its thread, which ends once they are. */
  charts?: WarmCharts;
  /**
   * Called with the record as the reports hold it (redacted) once every file but the HTML report is
   * written: a command writes its transcript or signs the reports then (a throw fails the reports).
   * The HTML report is rendered meanwhile, from allure-results/ alone: afterFiles writes nothing it reads.
   */
  afterFiles?: (record: RunRecord, written: RunReports & { allureResults: string }) => Promise<void> | void;
}

/**
 * Writes every report of `record` into `dir` (prepared with prepareReportsDir): the Allure results
 * (staged, then put in place whole), then, while Allure's own process renders them into the HTML
 * report (with `html`), the file reports ({@link writeRunReports}) and whatever `afterFiles` writes.
 * Secrets are scrubbed here by shape, whatever the record's maker did. Exit code:
 * 2 for a toolkit error or an HTML report that could not be made, 1 for a failure, else 0.
 *
 * @throws ToolkitError PCC_REPORT_WRITE when a report file cannot be written
 */
export async function writeReports(
  dir: string,
  given: RunRecord,
  summary: Summary,
  info: RunInfo,
  o: ReportOptions,
): Promise<{ exitCode: 0 | 1 | 2; record: RunRecord; reports: AllReports }> {
  // Drawn in the chart thread while this one scrubs, decides and writes the Allure results.
  const charting = o.charts?.draw(summary.timing);
  const record = scrubSecrets(given);
  const decided = decideRunReports(dir, record, summary, info, o);
  const allureResults = join(dir, REPORT_FILES.allureResults);
  const staged = stagingDirectory(allureResults);
  try {
    const coverage = decided.coverage ? coverageLine(decided.coverage).replace(/^coverage: /, '') : undefined;
    writeAllureResults(staged, record, info, {
      ...(o.root ? { root: o.root } : {}),
      messages: o.messages ?? reportMessageOptions(),
      environment: allureEnvironment(info, record, coverage),
    });
    // The timing charts, in the report's Global Attachments tab (allure-charts.ts).
    await charting;
    // Drawn: the thread ends now, its heap and ECharts' code (about 22 MB) gone before the run's
    // process reaches its peak of memory (the file reports, the transcript's assembly).
    void o.charts?.close();
    writeAllureTimingCharts(staged, summary.timing, Date.parse(record.startedAt) + record.durationMs || undefined);
  } catch (e) {
    rmSync(staged, { recursive: true, force: true });
    throw e;
  }
  replaceDirectory(staged, allureResults);
  const subject = o.certification?.subject;
  // Rendered by Allure's own process from allure-results/ alone, while this one writes the file
  // reports and afterFiles assembles, gzips and signs (the signature leaves the HTML report out).
  const rendering: Promise<{ allureReport?: string; htmlError?: string }> = o.html
    ? writeHtmlReport(dir, {
        name: reportName(subject !== undefined ? certificationTitle(o.certification) : undefined, summary, decided.certification.certified),
        stderr: o.stderr,
        ...(o.warm ? { warm: o.warm } : {}),
      })
    : Promise.resolve({});
  let written: RunReports;
  try {
    written = writeDecidedReports(dir, record, summary, info, o, decided);
    await o.afterFiles?.(record, { ...written, allureResults });
  } catch (e) {
    // The reports failed; the renderer is not left running behind the error (it never rejects).
    await rendering;
    throw e;
  }
  const html = await rendering;
  const exitCode = html.htmlError ? 2 : exitCodeFor(record, summary);
  return { exitCode, record, reports: { ...written, allureResults, ...html } };
}
