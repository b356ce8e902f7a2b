/**
 * The reports of a run whose tests were built directly (no vitest): `check-receiver`, `certify-client`.
 * The same files as `run` writes: summary.json (buildSummary), junit.xml, certification.md/.html
 * (certified when every required capability ran with no failure; the subject in the title),
 * allure-results (result JSON and attachments written here in Allure's own result format, from the
 * same runtime messages a run's tests get: allureMessagesFor) and the Allure HTML report.
 */
import { createHash, randomUUID } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isToolkitError } from '../core/index.ts';
import { type AllureMessage, type AllureStatus, allureMessagesFor } from './allure-messages.ts';
import { generateAllureHtml } from './allure-html.ts';
import { ALLURE2_CATEGORIES, ALLURE_STATUS, environmentProperties, knownMessage } from './allure-reporter.ts';
import { certificationHtml, certificationMarkdown, certify } from './certification.ts';
import { clauseText } from './clause-text.ts';
import { buildJunitXml } from './junit.ts';
import { type Outcome, findingLine, failuresOf, outcomeOf, scenarioOf, warningsOf } from './outcome.ts';
import type { RunRecord, TestRecord } from './records.ts';
import { type RunInfo, sha256Hex, terminalIdsOf } from './run-info.ts';
import { scrubSecrets, scrubText } from './scrub.ts';
import { type Summary, buildSummary, exitCodeFor } from './summary.ts';
import { REPORT_FILES, type WrittenReports } from './write-reports.ts';
import { replaceDirectory, stagingDirectory, writeReportFile } from './write.ts';

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
   * Told the record as the reports hold it (secrets scrubbed) and its summary, once summary.json is
   * written: the command writes its transcript then (a failure fails the reports).
   */
  onRecord?: (record: RunRecord, summary: Summary) => Promise<void>;
}

/** What {@link writeRecordReports} wrote, and the exit code of the run. */
export interface RecordReportsResult {
  exitCode: 0 | 1 | 2;
  summary: Summary;
  reports: WrittenReports & { allureResults: string; allureReport?: string; htmlError?: string };
}

/** The title of the certification, of the Allure report's page too. */
const TITLE = 'Pay-Connect conformance certification';

/**
 * Writes every report of `o.record` into `o.dir`. Exit code: 2 when a test holds a toolkit error or
 * the HTML report could not be made, 1 when a failure finding or a failed test, else 0.
 *
 * @throws ToolkitError PCC_REPORT_WRITE when a report file cannot be written
 */
export async function writeRecordReports(o: RecordReportsOptions): Promise<RecordReportsResult> {
  // Scrubbed by shape before anything is written, as a run's records are.
  const record = scrubSecrets(o.record);
  const info = o.info;
  const summary = buildSummary(record, info.tool, info.target, { ...(info.seed === 0 ? {} : { seed: info.seed }), startedAt: info.startedAt, finishedAt: info.finishedAt, labels: info.labels ?? {} });
  if ((info.checksDisabled ?? []).length > 0) summary.checksDisabled = [...info.checksDisabled!];
  const paths = {
    summary: join(o.dir, REPORT_FILES.summary),
    junit: join(o.dir, REPORT_FILES.junit),
    certificationMd: join(o.dir, REPORT_FILES.certificationMd),
    certificationHtml: join(o.dir, REPORT_FILES.certificationHtml),
  };
  const summaryText = `${JSON.stringify(summary, null, 2)}\n`;
  writeReportFile(paths.summary, summaryText);
  writeReportFile(paths.junit, buildJunitXml(record, summary, info));
  const { subject, required } = o.certification;
  const certification = certify(record, summary, info, sha256Hex(summaryText), terminalIdsOf(record), required);
  const drop = [...(info.integratorId === '' ? ['Integrator id'] : []), ...(certification.terminalIds.length === 0 ? ['Terminal id'] : []), ...(info.seed === 0 ? ['Seed'] : [])];
  writeReportFile(paths.certificationMd, certificationFor('md', certificationMarkdown(record, summary, info, certification), subject, required, drop));
  writeReportFile(paths.certificationHtml, certificationFor('html', certificationHtml(record, summary, info, certification), subject, required, drop));
  await o.onRecord?.(record, summary);

  const allureResults = join(o.dir, REPORT_FILES.allureResults);
  const staged = stagingDirectory(allureResults);
  try {
    writeAllureResults(staged, record, info);
  } catch (e) {
    rmSync(staged, { recursive: true, force: true });
    throw e;
  }
  replaceDirectory(staged, allureResults);

  const html = o.html ? await writeHtml(o.dir, allureResults, `${TITLE}: ${subject}`, o.stderr) : {};
  const exitCode = html.htmlError ? 2 : exitCodeFor(record, summary);
  return { exitCode, summary, reports: { ...paths, certification, allureResults, ...html } };
}

const escHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
const cellMd = (s: string) => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

/**
 * The certification text of a run that certifies `subject` against `required` capabilities: the
 * subject in the title, the required capabilities where a run names its suites, no line about the
 * spec-level suites, and without the fact rows named in `drop` (`Terminal id`, `Seed`... that such a
 * run does not have).
 */
export function certificationFor(kind: 'md' | 'html', text: string, subject: string, required: readonly string[], drop: readonly string[] = []): string {
  const req = required.join(', ');
  const rx = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  if (kind === 'md') {
    let md = text
      .replace(`# ${TITLE}\n`, () => `# ${TITLE}: ${cellMd(subject)}\n`)
      .replace(/^Spec-level suites without a test in this run: .*\n\n/m, '')
      .replace(/^\| Suites \| .* \|$/m, () => `| Required capabilities | ${cellMd(req)} |`);
    for (const row of drop) md = md.replace(new RegExp(`^\\| ${rx(row)} \\| .* \\|\\n`, 'm'), '');
    return md;
  }
  const title = `${TITLE}: ${escHtml(subject)}`;
  let html = text
    .replace(`<title>${TITLE}</title>`, () => `<title>${title}</title>`)
    .replace(`<h1>${TITLE}</h1>`, () => `<h1>${title}</h1>`)
    .replace(/<tr><th>Suites<\/th><td>[^<]*<\/td><\/tr>/, () => `<tr><th>Required capabilities</th><td>${escHtml(req)}</td></tr>`);
  for (const row of drop) html = html.replace(new RegExp(`<tr><th>${rx(escHtml(row))}</th><td>[^<]*</td></tr>`), '');
  return html;
}

interface AllureAttachment {
  name: string;
  source: string;
  type: string;
}

interface AllureStep {
  name: string;
  status?: AllureStatus;
  statusDetails?: { message?: string };
  stage: 'running' | 'finished';
  start: number;
  stop?: number;
  steps: AllureStep[];
  attachments: AllureAttachment[];
  parameters: { name: string; value: string }[];
}

/** The status message of a test, as the run's reporter writes it. */
function statusMessage(t: TestRecord, outcome: Outcome): string | undefined {
  if (outcome === 'known-defect') return knownMessage(t);
  if (outcome === 'warning') {
    const w = warningsOf(t);
    return `warning${w.length > 1 ? 's' : ''}:\n${w.map(findingLine).join('\n')}`;
  }
  if (outcome === 'skipped' || outcome === 'blocked' || outcome === 'not-finished') return t.skipReason ?? t.notFinished ?? (t.blockedBy ? `blocked by [${t.blockedBy.check}] ${t.blockedBy.message}` : undefined);
  if (outcome === 'toolkit-error') return t.toolkitError ? `${t.toolkitError.code}: ${t.toolkitError.message}` : t.errors[0];
  const failures = failuresOf(t);
  if (failures.length > 0) return failures.map(findingLine).join('\n');
  return undefined;
}

/**
 * One Allure result (`<uuid>-result.json`) per test and its attachments (`<uuid>-attachment.<ext>`),
 * built from {@link allureMessagesFor}; plus environment.properties and categories.json.
 */
export function writeAllureResults(dir: string, record: RunRecord, info: RunInfo): string[] {
  const written = writeAllureTestResults(dir, record, info);
  const environment: Record<string, string> = {
    target: info.target.baseUrl,
    'toolkit.version': `${info.tool.name} ${info.tool.version}`,
    'contract.sha256': info.contract.sha256,
    profile: info.profile,
    strict: String(info.strict),
    ...(info.labels ?? {}),
  };
  writeReportFile(join(dir, 'environment.properties'), environmentProperties(environment));
  writeReportFile(join(dir, 'categories.json'), `${JSON.stringify(ALLURE2_CATEGORIES, null, 2)}\n`);
  return written;
}

/**
 * One Allure result per test of `record` and its attachments, nothing else: also for tests added to a
 * run whose other results its reporter wrote (the whole-run verdicts).
 */
export function writeAllureTestResults(dir: string, record: RunRecord, info: Pick<RunInfo, 'tool'>): string[] {
  const written: string[] = [];
  for (const t of record.tests) {
    const uuid = randomUUID();
    const outcome = outcomeOf(t);
    const start = Date.parse(t.startedAt ?? '') || Date.parse(record.startedAt) || 0;
    const root: AllureStep & { labels: { name: string; value: string }[]; links: { name?: string; url: string; type?: string }[]; description?: string } = {
      name: scenarioOf(t), stage: 'finished', start, stop: start + Math.round(t.durationMs), steps: [], attachments: [], parameters: [], labels: [], links: [],
    };
    const stack: AllureStep[] = [root];
    const apply = (m: AllureMessage) => {
      const top = stack.at(-1)!;
      if (m.type === 'metadata') {
        root.labels.push(...(m.data.labels ?? []));
        root.links.push(...(m.data.links ?? []));
        root.parameters.push(...(m.data.parameters ?? []).map((p) => ({ name: p.name, value: p.value })));
        if (m.data.description !== undefined) root.description = m.data.description;
      } else if (m.type === 'step_start') {
        const step: AllureStep = { name: m.data.name, stage: 'running', start: m.data.start, steps: [], attachments: [], parameters: [] };
        top.steps.push(step);
        stack.push(step);
      } else if (m.type === 'step_stop') {
        if (stack.length === 1) return;
        const step = stack.pop()!;
        step.stage = 'finished';
        step.stop = m.data.stop;
        step.status = m.data.status;
        if (m.data.statusDetails) step.statusDetails = m.data.statusDetails;
      } else {
        const source = `${randomUUID()}-attachment.${m.data.fileExtension ?? 'txt'}`;
        writeFileSync(join(dir, source), Buffer.from(m.data.content, 'base64'));
        top.attachments.push({ name: m.data.name, source, type: m.data.contentType });
      }
    };
    for (const m of allureMessagesFor(t, { clauseText: (c) => clauseText(c) })) apply(m);
    const fullName = `${t.file}#${t.name}`;
    const id = createHash('md5').update(fullName).digest('hex');
    const message = statusMessage(t, outcome);
    const result = {
      uuid,
      historyId: id,
      testCaseId: id,
      fullName,
      titlePath: t.file.split('/'),
      name: root.name,
      status: ALLURE_STATUS[outcome],
      ...(message ? { statusDetails: { message: scrubText(message) } } : {}),
      stage: 'finished',
      description: root.description,
      start: root.start,
      stop: root.stop,
      labels: [...root.labels, { name: 'suite', value: t.capability }, { name: 'framework', value: info.tool.name }, { name: 'language', value: 'javascript' }],
      links: root.links,
      parameters: root.parameters,
      steps: root.steps,
      attachments: root.attachments,
    };
    const path = join(dir, `${uuid}-result.json`);
    writeFileSync(path, JSON.stringify(result));
    written.push(path);
  }
  return written;
}

/** The Allure HTML report (as engine/html-report.ts makes it for a run): a failure is said and returned. */
async function writeHtml(dir: string, allureResults: string, name: string, stderr: (s: string) => void): Promise<{ allureReport?: string; htmlError?: string }> {
  const allureReport = join(dir, REPORT_FILES.allureReport);
  try {
    await generateAllureHtml({ resultsDir: allureResults, outputDir: allureReport, historyPath: join(dir, REPORT_FILES.allureHistory), name });
    return { allureReport };
  } catch (e) {
    const htmlError = isToolkitError(e) ? e.toUserMessage() : String(e);
    stderr(`${htmlError}\n`);
    return { htmlError };
  }
}
