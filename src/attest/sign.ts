/**
 * `--sign-key`: after the reports are written, `certificate.intoto.json` in the reports folder: the
 * run's statement (see statement.ts) in a DSSE envelope signed with the given Ed25519 key.
 */
import { type KeyObject } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type RunInfo, type RunRecord, type Summary, outcomeOf, writeReportFile } from '../report/index.ts';
import { signEnvelope } from './dsse.ts';
import {
  CERTIFICATE_FILE,
  INTOTO_PAYLOAD_TYPE,
  STATEMENT_TYPE,
  SUBJECTS,
  type Statement,
  type Subject,
  TEST_RESULT_PREDICATE,
  type TestResultPredicate,
  sha256,
  signedFilesOf,
  toolkitDigest,
} from './statement.ts';

/** Where a test's outcome puts it in the predicate. */
export function testLists(
  record: Pick<RunRecord, 'tests'>,
): Pick<TestResultPredicate, 'passedTests' | 'warnedTests' | 'failedTests' | 'skippedTests'> {
  const lists = { passedTests: [] as string[], warnedTests: [] as string[], failedTests: [] as string[], skippedTests: [] as string[] };
  for (const t of record.tests) {
    const o = outcomeOf(t);
    const list =
      o === 'passed'
        ? lists.passedTests
        : o === 'warning' || o === 'known-defect' || o === 'not-checked'
          ? lists.warnedTests
          : o === 'blocked' || o === 'skipped'
            ? lists.skippedTests
            : lists.failedTests;
    list.push(t.name);
  }
  for (const l of Object.values(lists)) l.sort();
  return lists;
}

/** The result of the predicate: FAILED when the verdict is fail, WARNED with warnings or known defects, else PASSED. */
export function resultOf(summary: Summary): TestResultPredicate['result'] {
  if (summary.verdict === 'fail') return 'FAILED';
  return summary.counts.warnings > 0 || (summary.counts.known ?? 0) > 0 ? 'WARNED' : 'PASSED';
}

/** What the run was, as the predicate's configuration names it. */
export function configurationOf(info: RunInfo): TestResultPredicate['configuration'] {
  const host = info.target.kind === 'url' ? new URL(info.target.baseUrl).host : info.target.kind;
  return [
    {
      name: 'payconnect-conformance run',
      annotations: {
        toolkit: `${info.tool.name} ${info.tool.version}`,
        contract: { file: info.contract.file, sha256: info.contract.sha256 },
        target: { kind: info.target.kind, host },
        profile: info.profile,
        strict: info.strict,
        terminalMode: info.terminalMode,
        seed: info.seed,
        labels: { ...(info.labels ?? {}) },
        suites: info.suitesSelected.length > 0 ? [...info.suitesSelected] : 'all',
        ...(info.faults.length > 0
          ? { simulatorFaults: [...info.faults], ...(info.faultRate !== undefined ? { faultRate: info.faultRate } : {}) }
          : {}),
        ...((info.checksDisabled ?? []).length > 0 ? { checksDisabled: [...info.checksDisabled!] } : {}),
        startedAt: info.startedAt,
        finishedAt: info.finishedAt,
      },
    },
  ];
}

/** The subjects of a reports folder: every file of it a reader trusts (signedFilesOf), and the toolkit's own files at `root`. */
export function subjectsOf(dir: string, root: string, contractFile: string): Subject[] {
  const file = (name: string, path: string): Subject[] =>
    existsSync(path) ? [{ name, digest: { sha256: sha256(readFileSync(path)) } }] : [];
  return [
    ...signedFilesOf(dir).flatMap((name) => file(name, join(dir, name))),
    ...file(SUBJECTS.contract, join(root, contractFile)),
    { name: SUBJECTS.toolkit, digest: { sha256: toolkitDigest(root) } },
  ];
}

/** Signs the reports of a finished run; returns the certificate's path. */
export function signReports(
  dir: string,
  opts: { privateKey: KeyObject; record: Pick<RunRecord, 'tests'>; summary: Summary; info: RunInfo; root: string },
): string {
  const statement: Statement = {
    _type: STATEMENT_TYPE,
    subject: subjectsOf(dir, opts.root, opts.info.contract.file),
    predicateType: TEST_RESULT_PREDICATE,
    predicate: { result: resultOf(opts.summary), configuration: configurationOf(opts.info), ...testLists(opts.record) },
  };
  const envelope = signEnvelope(INTOTO_PAYLOAD_TYPE, Buffer.from(JSON.stringify(statement)), opts.privateKey);
  const path = join(dir, CERTIFICATE_FILE);
  writeReportFile(path, `${JSON.stringify(envelope, null, 2)}\n`);
  return path;
}
