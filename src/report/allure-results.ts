/**
 * The allure-results folder, written from the run's records and nothing else (for `run`, merged
 * shards, check-receiver, certify-client and check-pact alike): one `<uuid>-result.json` per test with
 * its attachments, built from {@link allureMessagesFor}; `environment.properties` (the run's facts,
 * from {@link allureEnvironment}); `categories.json`. Each test's status says what kind of outcome it
 * is: `failed` for a broken requirement, `broken` for a toolkit error (see {@link ALLURE_STATUS}).
 */
import { createHash, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { type AllureMessage, type AllureMessageOptions, type AllureStatus, allureMessagesFor } from './allure-messages.ts';
import {
  type Outcome,
  failuresOf,
  findingLine,
  foldFindings,
  followUpLine,
  knownOf,
  knownText,
  outcomeOf,
  scenarioOf,
  warningsOf,
} from './outcome.ts';
import type { RunRecord, TestRecord } from './records.ts';
import { type RunInfo, labelKey, terminalIdText, terminalIdsOf } from './run-info.ts';
import { scrubText } from './scrub.ts';
import { writeReportFile } from './write.ts';

/** The category names of the reports, one per kind of outcome. */
export const ALLURE_CATEGORIES = {
  spec: 'Spec failures',
  profile: 'Profile rule failures (--strict)',
  warning: 'Profile warnings',
  blocked: 'Blocked by a service defect',
  known: 'Known defects (baseline)',
  notChecked: 'Not checked (part of what the test judges could not be observed)',
  notFinished: 'Not finished (time budget, or the operator stopped the session)',
  toolkit: 'Toolkit errors',
} as const;

/** An Allure 2 category (`categories.json`). */
export interface Allure2Category {
  name: string;
  matchedStatuses?: AllureStatus[];
  messageRegex?: string;
}

/**
 * The categories for Allure 2 readers (`categories.json`): by status and message. Allure 3 takes the
 * label-based ones of {@link allure3Categories} from the report configuration.
 */
export const ALLURE2_CATEGORIES: readonly Allure2Category[] = [
  { name: ALLURE_CATEGORIES.spec, matchedStatuses: ['failed'], messageRegex: '(?!known defect)[\\s\\S]*\\(spec#[\\s\\S]*' },
  { name: ALLURE_CATEGORIES.profile, matchedStatuses: ['failed'], messageRegex: '(?!known defect)[\\s\\S]*' },
  { name: ALLURE_CATEGORIES.known, matchedStatuses: ['failed'], messageRegex: '^known defect[\\s\\S]*' },
  { name: ALLURE_CATEGORIES.warning, matchedStatuses: ['passed'], messageRegex: '^warning[\\s\\S]*' },
  { name: ALLURE_CATEGORIES.blocked, matchedStatuses: ['skipped'], messageRegex: '^blocked by[\\s\\S]*' },
  {
    name: ALLURE_CATEGORIES.notFinished,
    matchedStatuses: ['failed', 'skipped'],
    messageRegex: '[\\s\\S]*(budget|stopped the session)[\\s\\S]*',
  },
  { name: ALLURE_CATEGORIES.toolkit, matchedStatuses: ['broken'] },
];

/** Allure 3 categories, matched on the `conformance` label every test carries. */
export function allure3Categories() {
  const by = (value: string) => ({ labels: { conformance: `^${value}$` } });
  return [
    { id: 'pcc-spec-failures', name: ALLURE_CATEGORIES.spec, matchers: by('spec-failure'), expand: true },
    { id: 'pcc-profile-failures', name: ALLURE_CATEGORIES.profile, matchers: by('profile-failure') },
    { id: 'pcc-known-defects', name: ALLURE_CATEGORIES.known, matchers: by('known-defect'), expand: true },
    { id: 'pcc-blocked', name: ALLURE_CATEGORIES.blocked, matchers: by('blocked'), expand: true },
    { id: 'pcc-not-finished', name: ALLURE_CATEGORIES.notFinished, matchers: by('not-finished') },
    { id: 'pcc-not-checked', name: ALLURE_CATEGORIES.notChecked, matchers: by('not-checked'), expand: true },
    { id: 'pcc-warnings', name: ALLURE_CATEGORIES.warning, matchers: by('warning') },
    { id: 'pcc-toolkit-errors', name: ALLURE_CATEGORIES.toolkit, matchers: by('toolkit-error') },
  ];
}

/** How each kind of outcome shows in Allure. */
export const ALLURE_STATUS: Record<Outcome, AllureStatus> = {
  'spec-failure': 'failed',
  'profile-failure': 'failed',
  'toolkit-error': 'broken',
  // Failed, and known (statusDetails.known): Allure 3 gives it the "accepted" resolution, so it is
  // counted apart from failures and skips, and blocks nothing (as pytest's xfail); Allure 2 lists it
  // under its category. It never reads as skipped: the test ran, and the defect is there.
  'known-defect': 'failed',
  warning: 'passed',
  blocked: 'skipped',
  'not-finished': 'failed',
  // Allure has no status for it: it ran and failed nothing; its category and description say the rest.
  'not-checked': 'passed',
  passed: 'passed',
  skipped: 'skipped',
};

/** The status message of a test failed only on known defects: each with its entry (the category matches its start). */
export function knownMessage(t: TestRecord): string {
  return knownOf(t)
    .map((f) => `${knownText(f.known!)}\n  ${findingLine(f)}`)
    .join('\n');
}

/** Java properties text (Allure's `environment.properties`), keys and values escaped. */
export function environmentProperties(env: Record<string, string>): string {
  const esc = (s: string, key: boolean) =>
    s
      .replace(/\\/g, '\\\\')
      .replace(/\n/g, '\\n')
      .replace(/\r/g, '\\r')
      .replace(/\t/g, '\\t')
      .replace(key ? /[=: #!]/g : /^[ #!]/g, (c) => `\\${c}`)
      .replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return (
    Object.entries(env)
      .map(([k, v]) => `${esc(k, true)}=${esc(v, false)}`)
      .join('\n') + '\n'
  );
}

/**
 * The run's facts for Allure's environment widget (never a secret), from the run's description and
 * records: target, toolkit, contract, integrator, profile, mode, seed, faults, terminal id, coverage
 * (a one-line tally), and the labels (a label named like a fact of the run keeps both: `label.<key>`).
 * A fact the run does not have (no integrator id, seed 0, no terminal seen by a run that pairs none) is left out.
 */
export function allureEnvironment(info: RunInfo, record: RunRecord, coverage?: string): Record<string, string> {
  const terminalIds = terminalIdsOf(record);
  const env: Record<string, string> = {
    target: info.target.kind === 'url' ? info.target.baseUrl : `${info.target.kind} (${info.target.baseUrl})`,
    'toolkit.version': `${info.tool.name} ${info.tool.version}`,
    'contract.sha256': info.contract.sha256,
    ...(info.integratorId ? { 'integrator.id': info.integratorId } : {}),
    profile: info.profile,
    'terminal.mode': info.terminalMode,
    strict: String(info.strict),
    ...(info.seed !== 0 ? { seed: String(info.seed) } : {}),
    ...(info.faults.length > 0 ? { 'sim.faults': info.faults.join(', ') } : {}),
    ...(info.faults.length > 0 && info.faultRate !== undefined && info.faultRate < 1 ? { 'sim.fault-rate': String(info.faultRate) } : {}),
    // A run that pairs says so even when it saw none; a command without terminals has no such fact.
    ...(info.integratorId || terminalIds.length > 0 ? { 'terminal.id': terminalIdText(terminalIds) } : {}),
    ...(coverage ? { coverage } : {}),
  };
  const own = { ...env };
  for (const [k, v] of Object.entries(info.labels ?? {})) env[labelKey(k, own)] = v;
  return env;
}

/** Options of {@link writeAllureResults}. */
export interface AllureResultsOptions {
  /** The package root: a test file under it is named relative to it (stable history ids wherever the run started). */
  root?: string;
  /** Clause links, endpoints for the feature label, clause texts. */
  messages?: AllureMessageOptions;
  /** The environment block (see {@link allureEnvironment}). */
  environment: Record<string, string>;
}

interface AllureAttachment {
  name: string;
  source: string;
  type: string;
}

interface AllureStep {
  name: string;
  status?: AllureStatus;
  statusDetails: { message?: string };
  stage: 'running' | 'finished';
  start: number;
  stop?: number;
  steps: AllureStep[];
  attachments: AllureAttachment[];
  parameters: { name: string; value: string; excluded?: boolean }[];
}

/** The status message of a test: what its outcome says, else its first error, else its failures. */
export function statusMessage(t: TestRecord, outcome: Outcome = outcomeOf(t)): string | undefined {
  if (outcome === 'known-defect') return knownMessage(t);
  if (outcome === 'warning') {
    const w = foldFindings(warningsOf(t));
    const lines = w.map(({ finding, followUps }) => [findingLine(finding), ...followUps.map((g) => `  ${followUpLine(g)}`)].join('\n'));
    return `warning${w.length > 1 ? 's' : ''}:\n${lines.join('\n')}`;
  }
  if (outcome === 'skipped' || outcome === 'blocked' || outcome === 'not-finished') {
    return t.skipReason ?? t.notFinished ?? (t.blockedBy ? `blocked by [${t.blockedBy.check}] ${t.blockedBy.message}` : t.errors[0]);
  }
  if (t.errors.length > 0) return t.errors[0];
  if (outcome === 'toolkit-error') return t.toolkitError ? `${t.toolkitError.code}: ${t.toolkitError.message}` : undefined;
  const failures = failuresOf(t);
  return failures.length > 0 ? failures.map(findingLine).join('\n') : undefined;
}

const md5 = (s: string) => createHash('md5').update(s).digest('hex');

/** Where a test is, for Allure: its file relative to `root`, its full name and title path. */
export function allurePathOf(t: TestRecord, root?: string): { file: string; fullName: string; titlePath: string[] } {
  const abs = root !== undefined && t.file.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);
  const file = abs ? relative(root, t.file).split(sep).join('/') : t.file;
  const suitePath = t.suitePath ?? [];
  // A vitest test is named by its describe blocks and title (as allure-vitest named it); a test built
  // directly by its record's name: the history ids of both stay those of earlier reports.
  const fullName = `${file}#${t.suitePath ? [...suitePath, scenarioOf(t)].join(' ') : t.name}`;
  return { file, fullName, titlePath: [...file.split('/'), ...suitePath] };
}

/** Allure's suite labels from the describe blocks: parentSuite, suite, subSuite. */
function suiteLabels(t: TestRecord): { name: string; value: string }[] {
  const [parent, suite, ...sub] = t.suitePath ?? [];
  if (parent === undefined) return [{ name: 'suite', value: t.capability }];
  return [
    { name: 'parentSuite', value: parent },
    ...(suite !== undefined ? [{ name: 'suite', value: suite }] : []),
    ...(sub.length > 0 ? [{ name: 'subSuite', value: sub.join(' > ') }] : []),
  ];
}

/** A test's root step as its Allure messages build it: metadata, nested steps, attachments (written into `dir`). */
type AllureRoot = AllureStep & {
  labels: { name: string; value: string }[];
  links: { name?: string; url: string; type?: string }[];
  description?: string;
};

/** The root step of test `t`, from its Allure messages; its attachments are written into `dir`. */
function allureRootOf(dir: string, t: TestRecord, start: number, messages: AllureResultsOptions['messages']): AllureRoot {
  const root: AllureRoot = {
    name: scenarioOf(t),
    stage: 'finished',
    statusDetails: {},
    start,
    stop: start + Math.round(t.durationMs),
    steps: [],
    attachments: [],
    parameters: [],
    labels: [],
    links: [],
  };
  const stack: AllureStep[] = [root];
  const apply = (m: AllureMessage) => {
    const top = stack.at(-1)!;
    if (m.type === 'metadata') {
      root.labels.push(...(m.data.labels ?? []));
      root.links.push(...(m.data.links ?? []));
      root.parameters.push(...(m.data.parameters ?? []));
      if (m.data.description !== undefined) root.description = m.data.description;
    } else if (m.type === 'step_start') {
      const step: AllureStep = {
        name: m.data.name,
        stage: 'running',
        statusDetails: {},
        start: m.data.start,
        steps: [],
        attachments: [],
        parameters: [],
      };
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
  for (const m of allureMessagesFor(t, messages)) apply(m);
  return root;
}

/**
 * One Allure result (`<uuid>-result.json`) per test of `record` and its attachments
 * (`<uuid>-attachment.<ext>`); returns the result files.
 */
export function writeAllureTestResults(
  dir: string,
  record: RunRecord,
  info: Pick<RunInfo, 'tool'>,
  opts: Omit<AllureResultsOptions, 'environment'> = {},
): string[] {
  const written: string[] = [];
  for (const t of record.tests) {
    const uuid = randomUUID();
    const outcome = outcomeOf(t);
    const start = Date.parse(t.startedAt ?? '') || Date.parse(record.startedAt) || 0;
    const root = allureRootOf(dir, t, start, opts.messages);
    const { file, fullName, titlePath } = allurePathOf(t, opts.root);
    const id = md5(fullName);
    // As allure-js: the parameters that are not excluded tell runs of one test apart (none are, today).
    const params = root.parameters
      .filter((p) => !p.excluded)
      .map((p) => `${p.name}:${p.value}`)
      .sort()
      .join(',');
    const message = statusMessage(t, outcome);
    // testCaseId is set, so allure-js's fallback label for it is not written.
    const result = {
      uuid,
      historyId: `${id}:${md5(params)}`,
      testCaseId: id,
      fullName,
      titlePath,
      name: root.name,
      status: ALLURE_STATUS[outcome],
      statusDetails: {
        ...(message ? { message: scrubText(message) } : {}),
        ...(outcome === 'known-defect' ? { known: true } : {}),
        // A finding about the service is traced to its evidence, never to the toolkit's own code:
        // only a toolkit error (a bug of ours, or the environment) keeps its stack.
        ...(outcome === 'spec-failure' || outcome === 'profile-failure'
          ? {
              trace: scrubText(
                failuresOf(t)
                  .map((f) => `FAIL ${findingLine(f)}\n  evidence: ${JSON.stringify(f.evidence ?? null).slice(0, 2000)}`)
                  .join('\n'),
              ),
            }
          : {}),
        ...(t.trace && outcome === 'toolkit-error' ? { trace: scrubText(t.trace) } : {}),
      },
      stage: 'finished',
      description: root.description,
      start: root.start,
      stop: root.stop,
      labels: [
        { name: 'framework', value: t.suitePath ? 'vitest' : info.tool.name },
        { name: 'language', value: 'javascript' },
        ...suiteLabels(t),
        ...(t.host ? [{ name: 'host', value: t.host }] : []),
        ...(t.harness ? [{ name: 'thread', value: `vitest-worker-${t.harness.worker}` }] : []),
        { name: 'package', value: file.replace(/\//g, '.') },
        ...root.labels,
      ],
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

/**
 * The run's errors outside its tests (a suite file that failed to load, a describe block's failed
 * hook) as one Allure globals file (`<uuid>-globals.json`, the format allure-js writes): Allure 3 lists
 * them as the run's errors. Nothing is written when there are none.
 */
export function writeAllureGlobals(dir: string, record: RunRecord): string | undefined {
  const errors = [...record.unhandled, ...(record.suiteErrors ?? [])];
  if (errors.length === 0) return undefined;
  const timestamp = Date.parse(record.startedAt) + record.durationMs || Date.now();
  const path = join(dir, `${randomUUID()}-globals.json`);
  writeFileSync(
    path,
    JSON.stringify({
      attachments: [],
      errors: errors.map((e) => ({ message: scrubText(e.split('\n')[0] ?? ''), trace: scrubText(e), timestamp })),
    }),
  );
  return path;
}

/** Every test's result (see {@link writeAllureTestResults}), the errors outside them, environment.properties and categories.json. */
export function writeAllureResults(dir: string, record: RunRecord, info: RunInfo, opts: AllureResultsOptions): string[] {
  const written = writeAllureTestResults(dir, record, info, opts);
  writeAllureGlobals(dir, record);
  writeReportFile(join(dir, 'environment.properties'), environmentProperties(opts.environment));
  writeReportFile(join(dir, 'categories.json'), `${JSON.stringify(ALLURE2_CATEGORIES, null, 2)}\n`);
  return written;
}
