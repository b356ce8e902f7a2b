/**
 * The end of a run: what only the whole run shows judged, the run's facts and summary made once each,
 * and every report written by the one writer, the transcript and the signature after the files, the
 * comparison with an earlier run beside them.
 */
import type { ResolvedConfig } from '../config/index.ts';
import { type BaselineEntry, type RunIo, countsAsFailure, markKnown } from '../core/index.ts';
import { resolveProfile } from '../profile/index.ts';
import {
  type AllReports,
  PACKAGE_ROOT,
  type RunEvents,
  type RunInfo,
  type RunRecord,
  type Summary,
  type TestRecord,
  type WarmAllure,
  type WarmCharts,
  buildSummary,
  isCompleteRun,
  judgeBaseline,
  reportMessageOptions,
  runInfoOf,
  writeReports,
  writeShardRecord,
} from '../report/index.ts';
import { signReports } from '../attest/index.ts';
import { type Comparison, compareExitCode } from '../compare/index.ts';
import type { Target } from '../targets/index.ts';
import { proxyFor } from '../transport/index.ts';
import { assembleTranscript, summaryExtras, wholeRunCheckEvent } from '../transcript/index.ts';
import { compareWithBase, writeComparison } from './compare-to.ts';
import { judgeRun, webhookObservationOf } from './judge-run.ts';
import type { RunInputs } from './run-inputs.ts';
import type { RunPlan } from './run-plan.ts';

export interface RunResult {
  exitCode: 0 | 1 | 2;
  summary: Summary;
  record: RunRecord;
  /** The simulator's base URL or the target's. */
  baseUrl: string;
  /** The report files written, and the certification verdict. */
  reports: AllReports;
  /** `--compare-to`: this run against the earlier one. */
  comparison?: Comparison;
}

/** Marks what a baseline entry knows among a test's findings; a test failed only on known defects passes. */
function knowBaseline(t: TestRecord, entries: readonly BaselineEntry[], now: number): void {
  t.findings = markKnown(t.findings, entries, now);
  if (t.state === 'failed' && !t.toolkitError && !t.findings.some(countsAsFailure)) {
    t.state = 'passed';
    t.errors = [];
  }
}

/**
 * What only the whole run shows (a service that sends no webhook at all), put ahead of the tests in
 * `record`, met by the baseline as each test's findings were in its worker. Returns the whole run's
 * check and its input, for the transcript (re-judged like every other check).
 */
export function judgeWholeRun(
  record: RunRecord,
  suites: readonly string[],
  config: ResolvedConfig,
  inputs: RunInputs,
  events: RunEvents,
): ReturnType<typeof wholeRunCheckEvent> | undefined {
  if (record.tests.length === 0) {
    if (record.unhandled.length === 0) record.unhandled.push(`no test ran (suites: ${suites.join(', ') || 'all'})`);
    return undefined;
  }
  const wholeRun = judgeRun(record, {
    profile: resolveProfile(config.profile),
    strict: config.strict,
    disabledChecks: config.disabledChecks,
  });
  const check = config.disabledChecks.includes('webhook.service-sends')
    ? undefined
    : wholeRunCheckEvent(webhookObservationOf(record), wholeRun[0]);
  if (inputs.baseline) for (const t of wholeRun) knowBaseline(t, inputs.baseline.file.entries, inputs.baseline.now);
  record.tests.unshift(...wholeRun);
  for (const t of wholeRun) events.onTest?.(t);
  return check;
}

/** The run's facts, as every report states them: made here once. */
export function runInfoOfRun(
  config: ResolvedConfig,
  inputs: RunInputs,
  target: Pick<Target, 'baseUrl' | 'integratorId'>,
  suites: readonly string[],
  when: { startedAt: string; finishedAt: string },
): RunInfo {
  const { baseline, signer, transport } = inputs;
  // A proxy is named only where the target's connections went through it (not to loopback, not to a NO_PROXY host).
  const connection = config.target.kind === 'url' ? transport.describe() : undefined;
  if (connection?.proxy && !proxyFor(transport, target.baseUrl)) delete connection.proxy;
  const sim = config.target.kind === 'sim' ? config.sim : undefined;
  return runInfoOf({
    tool: inputs.tool,
    contract: inputs.contract,
    target: { kind: config.target.kind, baseUrl: target.baseUrl },
    profile: config.profile,
    terminalMode: config.terminal,
    seed: config.seed,
    strict: config.strict,
    integratorId: target.integratorId,
    suitesSelected: [...suites],
    ...(config.grep ? { grep: config.grep } : {}),
    faults: sim ? [...sim.faults] : [],
    ...(sim && sim.faults.length > 0 && sim.faultRate < 1 ? { faultRate: sim.faultRate } : {}),
    certifyWithKnownDefects: resolveProfile(config.profile).certifyWithKnownDefects,
    ...(baseline ? { baseline: { file: config.baseline!, entries: baseline.file.entries, now: baseline.now } } : {}),
    ...(signer ? { signedBy: { keyid: signer.keyid } } : {}),
    ...(config.requireCoverage.length > 0 ? { requireCoverage: [...config.requireCoverage] } : {}),
    ...(config.coverageExclude.length > 0 ? { coverageExclude: config.coverageExclude.map((e) => ({ ...e })) } : {}),
    checksDisabled: [...config.disabledChecks],
    labels: { ...config.labels },
    ...(connection ? { connection } : {}),
    ...when,
  });
}

/** The run's summary: made from the record and the run's facts, once. */
export function runSummaryOf(
  record: RunRecord,
  info: RunInfo,
  config: ResolvedConfig,
  inputs: RunInputs,
  plan: RunPlan,
  confirmed: { tests: number; runs: number },
): Summary {
  // Only a run of everything, to its end, shows that an entry is no longer needed.
  const complete = isCompleteRun(record, { suitesSelected: info.suitesSelected, grep: config.grep, oneShard: config.shard !== undefined });
  const baseline = inputs.baseline
    ? judgeBaseline(config.baseline!, inputs.baseline.file, record, { now: inputs.baseline.now, complete })
    : undefined;
  const built = buildSummary(record, info.tool, info.target, {
    seed: info.seed,
    startedAt: info.startedAt,
    finishedAt: info.finishedAt,
    labels: config.labels,
    ...(baseline ? { baseline } : {}),
  });
  const harness = built.harness
    ? (() => {
        // This process's CPU time; a worker thread's figure is this process's too, so it is not added again.
        const own = process.cpuUsage();
        const workersCpu = plan.pool === 'threads' ? 0 : built.harness.cpuSeconds;
        return {
          terminals: plan.terminals,
          ...built.harness,
          cpuSeconds: Math.round((workersCpu + (own.user + own.system) / 1e6) * 100) / 100,
        };
      })()
    : undefined;
  return {
    ...built,
    ...(confirmed.tests > 0 ? { confirmed: { tests: confirmed.tests, runs: confirmed.runs, attempts: config.confirm } } : {}),
    ...(config.disabledChecks.length > 0 ? { checksDisabled: [...config.disabledChecks] } : {}),
    ...(info.connection ? { connection: info.connection } : {}),
    ...(harness ? { harness } : {}),
    ...(config.shard
      ? {
          shards: [
            {
              ...config.shard,
              seed: config.seed,
              baseUrl: info.target.baseUrl,
              startedAt: info.startedAt,
              finishedAt: info.finishedAt,
              tests: record.tests.length,
            },
          ],
        }
      : {}),
  };
}

/**
 * Writes every report of the run: a shard's record for merge-reports, the one writer's files, the
 * transcript and the signature after them, the comparison with an earlier run.
 */
export async function writeRunReports(o: {
  config: ResolvedConfig;
  inputs: RunInputs;
  record: RunRecord;
  summary: Summary;
  info: RunInfo;
  baseUrl: string;
  transcriptDir: string;
  wholeRunCheck: ReturnType<typeof wholeRunCheckEvent> | undefined;
  warm: WarmAllure | undefined;
  charts?: WarmCharts | undefined;
  io: RunIo;
}): Promise<RunResult> {
  const { config, inputs, record, summary, info } = o;
  if (config.shard) writeShardRecord(config.reportsDir, config.shard, info, record, PACKAGE_ROOT);
  const compared = inputs.compareBase
    ? compareWithBase(inputs.compareBase, config.reportsDir, summary, record, config.terminal)
    : undefined;
  const baseline = inputs.baseline ? { baseline: { entries: inputs.baseline.file.entries, now: inputs.baseline.now } } : {};
  const {
    exitCode,
    record: written,
    reports,
  } = await writeReports(config.reportsDir, record, summary, info, {
    html: config.html,
    root: PACKAGE_ROOT,
    messages: reportMessageOptions(process.env),
    stderr: o.io.stderr,
    ...(o.warm ? { warm: o.warm } : {}),
    ...(o.charts ? { charts: o.charts } : {}),
    ...(compared ? { certification: { sections: [compared.section] } } : {}),
    afterFiles: async (held) => {
      await assembleTranscript({
        stagingDir: o.transcriptDir,
        reportsDir: config.reportsDir,
        tests: held.tests,
        ...(o.wholeRunCheck ? { extra: [o.wholeRunCheck] } : {}),
        header: {
          info,
          settings: { profile: config.profile, strict: config.strict, disabledChecks: [...config.disabledChecks], ...baseline },
          run: { startedAt: held.startedAt, durationMs: held.durationMs, unhandled: [...held.unhandled] },
          summary: summaryExtras(summary),
        },
      });
      // Signed last, over the transcript and summary.json as written.
      if (inputs.signer)
        signReports(config.reportsDir, { privateKey: inputs.signer.privateKey, record: held, summary, info, root: PACKAGE_ROOT });
    },
  });
  if (compared) writeComparison(config.reportsDir, compared.comparison);
  // A regression against the earlier run is a finding about the service: exit 1 (a toolkit error stays 2).
  const compareExit = compared ? compareExitCode(compared.comparison) : 0;
  return {
    exitCode: exitCode === 0 ? compareExit : exitCode,
    summary,
    record: written,
    baseUrl: o.baseUrl,
    reports,
    ...(compared ? { comparison: compared.comparison } : {}),
  };
}
