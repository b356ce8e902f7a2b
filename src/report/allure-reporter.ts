/**
 * The Allure reporter of a run: allure-vitest (its setup file runs in every suite, its reporter writes
 * `allure-results/`), fed with what the suites left in each test's meta. Each test gets its labels,
 * parameters, clause links and one step per exchange and delivery (see allure-messages.ts); its status
 * says what kind of failure it is: `failed` for a broken requirement, `broken` for a toolkit error.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import AllureVitestReporter from 'allure-vitest/reporter';
import type { Reporter, TestCase, TestModule, Vitest } from 'vitest/node';
import { type AllureMessageOptions, allureMessagesFor } from './allure-messages.ts';
import { carriedOr, testRecordOf } from './collector.ts';
import { type Outcome, findingLine, knownOf, knownText, outcomeOf, warningsOf } from './outcome.ts';
import type { TestRecord } from './records.ts';
import { terminalIdText, terminalIdsOf } from './run-info.ts';
import { scrubSecrets, scrubText } from './scrub.ts';
import { writeReportFile } from './write.ts';

/** Options of {@link AllureReporter}. */
export interface AllureReporterOptions {
  /** Where allure-results are written (emptied by the caller). */
  resultsDir: string;
  /** The environment block of the report (never a secret); `terminal.id` is added from the run's answers. */
  environment: Record<string, string>;
  /** The package root: test paths in the report are relative to it, wherever the run started. */
  root: string;
  /** Clause links, endpoints for the feature label. */
  messages?: AllureMessageOptions;
  /** A resumed session's passed tests, by name: a carried test is reported with its earlier record. */
  carried?: { tests: ReadonlyMap<string, TestRecord>; since: string };
}

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

/**
 * The categories for Allure 2 readers (`categories.json`): by status and message. Allure 3 takes the
 * label-based ones of {@link allure3Categories} from the report configuration.
 */
export const ALLURE2_CATEGORIES: NonNullable<ConstructorParameters<typeof AllureVitestReporter>[0]['categories']> = [
  { name: ALLURE_CATEGORIES.spec, matchedStatuses: ['failed' as never], messageRegex: '[\\s\\S]*\\(spec#[\\s\\S]*' },
  { name: ALLURE_CATEGORIES.profile, matchedStatuses: ['failed' as never] },
  { name: ALLURE_CATEGORIES.warning, matchedStatuses: ['passed' as never], messageRegex: '^warning[\\s\\S]*' },
  { name: ALLURE_CATEGORIES.blocked, matchedStatuses: ['skipped' as never], messageRegex: '^blocked by[\\s\\S]*' },
  { name: ALLURE_CATEGORIES.known, matchedStatuses: ['skipped' as never], messageRegex: '^known defect[\\s\\S]*' },
  { name: ALLURE_CATEGORIES.notFinished, matchedStatuses: ['failed' as never, 'skipped' as never], messageRegex: '[\\s\\S]*(budget|stopped the session)[\\s\\S]*' },
  { name: ALLURE_CATEGORIES.toolkit, matchedStatuses: ['broken' as never] },
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

/** How each kind of outcome shows in Allure (the run's reporter and record-reports alike). */
export const ALLURE_STATUS: Record<Outcome, 'passed' | 'failed' | 'broken' | 'skipped'> = {
  'spec-failure': 'failed',
  'profile-failure': 'failed',
  'toolkit-error': 'broken',
  // As pytest's xfail: the test failed on a defect that is known, tracked and due; it fails nothing.
  'known-defect': 'skipped',
  warning: 'passed',
  blocked: 'skipped',
  'not-finished': 'failed',
  // Allure has no status for it: it ran and failed nothing; its category and description say the rest.
  'not-checked': 'passed',
  passed: 'passed',
  skipped: 'skipped',
};

const REF_LABEL = 'pcc_ref';

/** Adds entries to the `environment.properties` of an allure-results folder (the run's facts widget). */
export function appendAllureEnvironment(resultsDir: string, env: Record<string, string>): void {
  const file = join(resultsDir, 'environment.properties');
  const before = existsSync(file) ? readFileSync(file, 'utf8') : '';
  writeReportFile(file, `${before}${environmentProperties(env)}`);
}

/** The status message of a test failed only on known defects: each with its entry (the category matches its start). */
export function knownMessage(t: TestRecord): string {
  return knownOf(t).map((f) => `${knownText(f.known!)}\n  ${findingLine(f)}`).join('\n');
}

/** Java properties text (Allure's `environment.properties`), keys and values escaped. */
export function environmentProperties(env: Record<string, string>): string {
  const esc = (s: string, key: boolean) =>
    s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t').replace(key ? /[=: #!]/g : /^[ #!]/g, (c) => `\\${c}`)
      .replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return Object.entries(env).map(([k, v]) => `${esc(k, true)}=${esc(v, false)}`).join('\n') + '\n';
}

interface Extra {
  outcome: Outcome;
  message?: string;
  fullName: string;
  titlePath: string[];
  packageName: string;
}

interface AllureResultLike {
  fullName?: string;
  titlePath?: string[];
  status?: string;
  statusDetails?: { message?: string; trace?: string };
  labels: { name: string; value?: string }[];
}

/** Vitest's task as allure-vitest's `handleTask` walks it. */
interface InnerTask {
  type: string;
  tasks?: InnerTask[];
}

export class AllureReporter implements Reporter {
  readonly #inner: AllureVitestReporter & { handleTask(task: InnerTask): void };
  readonly #extras = new Map<string, Extra>();
  readonly #written = new Set<string>();
  readonly #records: TestRecord[] = [];

  constructor(private readonly opts: AllureReporterOptions) {
    this.#inner = new AllureVitestReporter({
      resultsDir: opts.resultsDir,
      categories: ALLURE2_CATEGORIES,
      listeners: [{ beforeTestResultStop: (r) => this.#finish(r as unknown as AllureResultLike) }],
    });
  }

  onInit(vitest: Vitest): void {
    this.#inner.onInit(vitest);
  }

  /**
   * Each test's result goes to disk as the test ends (allure-vitest itself writes them all at the
   * end): the writing overlaps the run's waits instead of following it, and nothing is held for it.
   */
  onTestCaseResult(tc: TestCase): void {
    this.#write(tc);
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    for (const m of modules) {
      for (const tc of m.children.allTests()) this.#write(tc);
    }
    // What is left is per suite: errors of its hooks (each suite without its tests, written above).
    const suites = (task: InnerTask): InnerTask[] => (task.type === 'suite' ? [{ ...task, tasks: [] }, ...(task.tasks ?? []).flatMap(suites)] : []);
    for (const m of modules) for (const s of suites((m as unknown as { task: InnerTask }).task)) this.#inner.handleTask(s);
    this.#inner.onTestRunEnd([]);
    const terminalIds = terminalIdsOf({ tests: this.#records, unhandled: [], startedAt: '', durationMs: 0 });
    writeReportFile(join(this.opts.resultsDir, 'environment.properties'), environmentProperties({ ...this.opts.environment, 'terminal.id': terminalIdText(terminalIds) }));
  }

  /** Writes one test's result once. */
  #write(tc: TestCase): void {
    if (this.#written.has(tc.id)) return;
    this.#written.add(tc.id);
    this.#records.push(this.#prepare(tc));
    this.#inner.handleTask((tc as unknown as { task: InnerTask }).task);
  }

  /** Adds the test's messages to its meta, where allure-vitest reads them. */
  #prepare(tc: TestCase): TestRecord {
    const meta = tc.meta() as Record<string, unknown>;
    const record = scrubSecrets(carriedOr(testRecordOf(tc), this.opts.carried?.tests, this.opts.carried?.since ?? ''));
    const list = ((meta.allureRuntimeMessages as unknown[] | undefined) ??= []);
    list.push(...allureMessagesFor(record, this.opts.messages));
    list.push({ type: 'metadata', data: { labels: [{ name: REF_LABEL, value: tc.id }] } });
    const relFile = relative(this.opts.root, tc.module.moduleId).split(sep).join('/');
    const suitePath: string[] = [];
    for (let s = tc.parent; s.type === 'suite'; s = s.parent) suitePath.unshift(s.name);
    const outcome = outcomeOf(record);
    const warnings = warningsOf(record);
    this.#extras.set(tc.id, {
      outcome,
      message: outcome === 'known-defect' ? knownMessage(record) : outcome === 'warning' ? `warning${warnings.length > 1 ? 's' : ''}:\n${warnings.map(findingLine).join('\n')}` : outcome === 'skipped' || outcome === 'blocked' || outcome === 'not-finished' ? record.skipReason ?? record.notFinished : undefined,
      fullName: `${relFile}#${[...suitePath, tc.name].join(' ')}`,
      titlePath: [...relFile.split('/'), ...suitePath],
      packageName: relFile.replace(/\//g, '.'),
    });
    return record;
  }

  /** Status by kind of outcome, and test paths relative to the package (stable history ids). */
  #finish(r: AllureResultLike): void {
    const ref = r.labels.find((l) => l.name === REF_LABEL)?.value;
    r.labels = r.labels.filter((l) => l.name !== REF_LABEL);
    const extra = ref === undefined ? undefined : this.#extras.get(ref);
    if (!extra) return;
    r.status = ALLURE_STATUS[extra.outcome];
    if (extra.message) r.statusDetails = { ...r.statusDetails, message: extra.message };
    if (r.statusDetails?.message) r.statusDetails.message = scrubText(r.statusDetails.message);
    if (r.statusDetails?.trace) r.statusDetails.trace = scrubText(r.statusDetails.trace);
    r.fullName = extra.fullName;
    r.titlePath = extra.titlePath;
    for (const l of r.labels) {
      if (l.name === 'package') l.value = extra.packageName;
      if (l.name === '_fallbackTestCaseId') l.value = createHash('md5').update(extra.fullName).digest('hex');
    }
  }
}
