/**
 * Writes the reports of a finished run into the reports folder, each whole or not at all:
 * summary.json, coverage.json, junit.xml, certification.md and certification.html (the Allure HTML report is
 * generated separately: it needs the allure-results of the run).
 */
import { join } from 'node:path';
import { type Certification, certificationHtml, certificationMarkdown, certify } from './certification.ts';
import { type Coverage, type CoverageKind, buildCoverage, coverageMarkdown, uncoveredItems } from './coverage.ts';
import { buildJunitXml } from './junit.ts';
import type { RunRecord } from './records.ts';
import { type RunInfo, sha256Hex, terminalIdsOf } from './run-info.ts';
import type { Summary } from './summary.ts';
import { writeReportFile } from './write.ts';

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
  coverageJson: string;
  /** What the run exercised (coverage.json's content). */
  coverage: Coverage;
}

/** The file names in the reports folder. */
export const REPORT_FILES = {
  summary: 'summary.json',
  coverage: 'coverage.json',
  junit: 'junit.xml',
  certificationMd: 'certification.md',
  certificationHtml: 'certification.html',
  allureResults: 'allure-results',
  allureReport: 'allure-report',
  allureHistory: 'allure-history.jsonl',
} as const;

/**
 * Writes summary.json, coverage.json (built from the records: a merged run's is that of its shards
 * together), junit.xml and the certification summary. `record` and `summary` are redacted. The summary
 * is completed here with what coverage adds (its tallies; with --require-coverage, the uncovered items,
 * which fail the verdict), so the caller's exit code reads the summary written.
 */
export function writeRunReports(dir: string, record: RunRecord, summary: Summary, info: RunInfo): RunReports {
  const paths = {
    summary: join(dir, REPORT_FILES.summary),
    coverageJson: join(dir, REPORT_FILES.coverage),
    junit: join(dir, REPORT_FILES.junit),
    certificationMd: join(dir, REPORT_FILES.certificationMd),
    certificationHtml: join(dir, REPORT_FILES.certificationHtml),
  };
  const coverage = buildCoverage(record, info);
  // The coverage required (--require-coverage): each item never covered fails the run, by name.
  const required = info.requireCoverage ?? [];
  const uncovered = required.length > 0 ? uncoveredItems(coverage, required as CoverageKind[]) : [];
  summary.coverage = { summary: coverage.summary, ...(required.length > 0 ? { required: [...required], uncovered } : {}) };
  if (uncovered.length > 0) summary.verdict = 'fail';
  const summaryText = `${JSON.stringify(summary, null, 2)}\n`;
  writeReportFile(paths.summary, summaryText);
  writeReportFile(paths.coverageJson, `${JSON.stringify(coverage, null, 2)}\n`);
  writeReportFile(paths.junit, buildJunitXml(record, summary, info));
  const certification = certify(record, summary, info, sha256Hex(summaryText), terminalIdsOf(record));
  writeReportFile(paths.certificationMd, certificationMarkdown(record, summary, info, certification, coverageMarkdown(coverage)));
  writeReportFile(paths.certificationHtml, certificationHtml(record, summary, info, certification, coverage));
  return { ...paths, certification, coverage };
}
