/**
 * The state of one conformance run and its tasks (run-conformance.ts lists them in order): each task
 * is a method that sets what the next ones read, and what it opens has its own teardown.
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ConfigSource, ResolvedConfig } from '../config/index.ts';
import { assertFaultIds } from '../simulator/index.ts';
import { shapingOptions } from '../config/index.ts';
import type { RunIo } from '../core/index.ts';
import { resolveProfile } from '../profile/index.ts';
import {
  CollectorReporter,
  type RunEvents,
  type RunRecord,
  SessionWriter,
  type TestRecord,
  type WarmAllure,
  prepareReportsDir,
  stagingDirectory,
  warmAllure,
  type WarmCharts,
  warmCharts,
} from '../report/index.ts';
import { type LedgerHub, type RunContext, startLedgerHub } from '../runtime/index.ts';
import { type Target, openTarget } from '../targets/index.ts';
import { TRANSCRIPT_FILE, type wholeRunCheckEvent } from '../transcript/index.ts';
import { findPairings, loadPrivateVault, prepareVault } from '../vault/index.ts';
import { assertCanListen } from '../webhooks/index.ts';
import { releaseRunPairings } from './release-run-pairings.ts';
import { type RunInputs, readRunInputs } from './run-inputs.ts';
import { type RunPlan, planRun } from './run-plan.ts';
import { type RunResult, judgeWholeRun, runInfoOfRun, runSummaryOf, writeRunReports } from './run-report.ts';
import { runSuites, suiteFileCount } from './run-suites.ts';

/** Where `run` was given its fault switches, as a message names it. */
const SIM_FAULTS_WHERE: Record<ConfigSource, string> = {
  flag: '--sim-fault',
  env: 'PAYCONNECT_SIM_FAULT',
  file: 'sim.faults of the config file',
  default: 'the default sim.faults',
};

/** The run's target, with the suites it can serve when fewer than asked (a Pact mock keeps to its pact). */
async function openRunTarget(config: ResolvedConfig, inputs: RunInputs): Promise<Target & { suites?: string[] }> {
  const profile = resolveProfile(config.profile);
  if (config.target.kind === 'pact') {
    const { pactSuites } = await import('../pact/index.ts');
    const suites = pactSuites(config.suites, config.terminal);
    return {
      ...(await openTarget({
        kind: 'pact',
        profile,
        integratorId: config.integratorId,
        pactDir: join(config.reportsDir, 'pacts'),
        webhookListen: config.webhookListen,
        ...(config.webhookPublicUrl ? { webhookPublicUrl: config.webhookPublicUrl } : {}),
      })),
      suites,
    };
  }
  if (config.target.kind === 'sim') {
    // A switch the simulator does not have is named as the user gave it, before anything starts.
    assertFaultIds(config.sim.faults, SIM_FAULTS_WHERE[config.sources['sim.faults']]);
    return openTarget({ kind: 'sim', profile, integratorId: config.integratorId, sim: { seed: config.seed, ...config.sim } });
  }
  return openTarget({
    kind: 'url',
    profile,
    baseUrl: config.target.baseUrl,
    integratorId: config.integratorId,
    vaultPath: config.vaultPath,
    allowProduction: config.allowProduction,
    transport: inputs.transport,
  });
}

/** One run: what its tasks have set so far. A field is read only by tasks after the one that sets it. */
export class ConformanceRun {
  readonly runDeadlineAt: number;
  inputs!: RunInputs;
  target?: Target & { suites?: string[] };
  suites: string[] = [];
  startedAt = '';
  plan!: RunPlan;
  ctx!: RunContext;
  ledger?: LedgerHub;
  /** The workers' transcript files, assembled into transcript.jsonl.gz once the suites are done. */
  transcriptDir?: string;
  /** The HTML report's generator, started once the first test has ended (see runTheSuites). */
  warm?: WarmAllure;
  /** The timing charts' drawer, started with the HTML report's generator (the charts are drawn with or without HTML). */
  charts?: WarmCharts;
  collector!: CollectorReporter;
  confirmed = { tests: 0, runs: 0 };
  record!: RunRecord;
  wholeRunCheck: ReturnType<typeof wholeRunCheckEvent> | undefined;
  /** Whether the reports were begun: a run stopped before them leaves no pact file in the folder either. */
  reported = false;
  result?: RunResult;

  constructor(
    public config: ResolvedConfig,
    readonly io: RunIo,
    readonly events: RunEvents,
  ) {
    this.runDeadlineAt = Date.now() + config.maxDurationMs;
  }

  /** Bad input (a baseline, a key, a session to resume) is exit 2 before anything runs. */
  async readInputs(): Promise<void> {
    this.inputs = await readRunInputs(this.config, this.io);
    this.config = this.inputs.config;
    await prepareReportsDir(this.config.reportsDir);
  }

  async openTarget(): Promise<void> {
    this.target = await openRunTarget(this.config, this.inputs);
    this.suites = this.target.suites ?? this.config.suites;
    this.startedAt = new Date().toISOString();
    this.transcriptDir = stagingDirectory(join(this.config.reportsDir, TRANSCRIPT_FILE), 'transcript');
  }

  async closeTarget(): Promise<void> {
    if (this.transcriptDir) rmSync(this.transcriptDir, { recursive: true, force: true });
    await this.target?.close(this.reported ? undefined : { discard: true });
  }

  /** The plan, from the settings, the target and the vault; the ledger the workers share; the run's context. */
  async planTheRun(): Promise<void> {
    const { config, target } = this;
    // A fixed receiver port that is busy is one usage error now, not a toolkit error in every test.
    const listen = target!.webhookListen ?? config.webhookListen;
    if (listen.port !== 0) await assertCanListen(listen.host, listen.port);
    // Against a service the run may pair (an OTP given or minted), and CI credentials from the
    // environment become the vault; a sim's vault is its own, throw-away one.
    const vault =
      target!.vault === 'service'
        ? await prepareVault(target!.vaultPath, process.env, { mayPair: true })
        : target!.vault === 'private'
          ? await loadPrivateVault(target!.vaultPath)
          : undefined;
    const known = vault ? findPairings(vault.vault, target!.baseUrl, target!.integratorId).map((e) => e.credentials.client_id) : [];
    const { files, alone } = suiteFileCount(this.suites, config.shard);
    this.plan = planRun(config, target!, known.length, files, undefined, alone);
    if (this.plan.terminalsReason && config.sources.terminals !== 'default')
      this.io.stderr(`terminals: ${this.plan.terminals} of ${config.terminals} (${this.plan.terminalsReason})\n`);
    // One ledger for the run: a defect is filed once, and a futile kind of wait ends in every worker.
    this.ledger = this.plan.workers > 1 ? await startLedgerHub() : undefined;
    this.ctx = this.contextOf(listen, known);
  }

  /** What every test of the run is given (the suite runtime's fixtures read it). */
  private contextOf(listen: { host: string; port: number }, vaultPairings: string[]): RunContext {
    const { config, target, plan, inputs } = this;
    const { pace } = plan;
    const carried = inputs.resumed?.passed ?? [];
    return {
      targetKind: config.target.kind,
      baseUrl: target!.baseUrl,
      integratorId: target!.integratorId,
      profile: config.profile,
      strict: config.strict,
      terminal: config.terminal,
      interactive: this.io.interactive,
      deadlineMs: config.deadlineMs,
      settleMs: pace.settleMs,
      ...(pace.settleScale ? { settleScale: pace.settleScale } : {}),
      webhookGraceMs: pace.webhookGraceMs,
      seed: config.seed,
      runs: config.runs,
      vaultPath: target!.vaultPath,
      otps: [...config.otps, ...(target!.otps ?? [])],
      mintOtps: target!.mintOtps,
      webhookListen: listen,
      webhookPublicUrl: config.webhookPublicUrl,
      ...(config.webhookTls ? { webhookTls: config.webhookTls } : {}),
      maxAmount: config.maxAmount,
      sandbox: target!.sandbox,
      timeoutMs: 10_000,
      ...(config.maxResponseTimeMs !== undefined ? { maxResponseTimeMs: config.maxResponseTimeMs } : {}),
      transport: config.transport,
      runDeadlineAt: this.runDeadlineAt,
      disabledChecks: [...config.disabledChecks],
      ...(config.argv ? { rerunOptions: shapingOptions(config.argv) } : {}),
      workers: plan.workers,
      terminals: plan.terminals,
      ...(this.ledger ? { ledgerPort: this.ledger.port } : {}),
      ...(plan.ephemeralPairings ? { ephemeralRun: randomUUID() } : {}),
      vaultPairings,
      ...(carried.length > 0 ? { carried: carried.map((t) => t.name) } : {}),
      ...(inputs.baseline ? { baseline: { entries: inputs.baseline.file.entries, now: inputs.baseline.now } } : {}),
      transcriptDir: this.transcriptDir!,
    };
  }

  async closeLedger(): Promise<void> {
    await this.ledger?.close();
  }

  /** The suites, with the session file kept as tests end and the HTML report's generator warmed meanwhile. */
  async runTheSuites(): Promise<void> {
    const { config, inputs, io, events } = this;
    const { resumed, earlier } = inputs;
    const carried = new Map<string, TestRecord>((resumed?.passed ?? []).map((t) => [t.name, t]));
    const since = resumed?.startedAt ?? this.startedAt;
    if (resumed)
      io.stderr(
        `resuming the session of ${resumed.startedAt}: ${carried.size} passed test${carried.size === 1 ? '' : 's'} carried over, not run again\n`,
      );
    else if (earlier && earlier.passed.length > 0 && earlier.passed.length < earlier.total) {
      const of = Number.isFinite(earlier.total)
        ? `${earlier.passed.length} of ${earlier.total} passed`
        : `${earlier.passed.length} passed before it was interrupted`;
      io.stderr(
        `a new session: the one of ${earlier.startedAt} in ${config.reportsDir} (${of}) is replaced; --resume goes on with a session instead\n`,
      );
    }
    // Written once the tests start: a session refused at its plan leaves the folder's one as it was.
    let session: SessionWriter | undefined;
    // Progress is often a class instance: its hooks are called through it, not copied off it. The HTML
    // report's modules load while the tests mostly wait, not while the workers start.
    this.collector = new CollectorReporter(
      {
        onSuiteStart: (e) => events.onSuiteStart?.(e),
        onTestStart: (e) => events.onTestStart?.(e),
        onTest: (r) => {
          session?.add(r);
          if (config.html && !this.warm) this.warm = warmAllure();
          this.charts ??= warmCharts();
          events.onTest?.(r);
        },
        onSuiteEnd: (e) => events.onSuiteEnd?.(e),
      },
      carried.size > 0 ? { tests: carried, since } : undefined,
    );
    const run = await runSuites({
      config,
      inputs,
      plan: this.plan,
      suites: this.suites,
      ctx: this.ctx,
      collector: this.collector,
      carried,
      io,
      onStart: () => {
        session = new SessionWriter(
          config.reportsDir,
          { fingerprint: inputs.fingerprint, seed: config.seed, labels: config.labels, startedAt: since, runs: (resumed?.runs ?? 0) + 1 },
          resumed?.passed ?? [],
          { throttleMs: config.terminal === 'manual' ? 0 : 5000, evidence: config.terminal === 'manual' },
        );
      },
    });
    this.confirmed = run.confirmed;
    session?.flush(this.collector.tests.length);
  }

  /** The helpers started ahead end: the HTML report's generator, unused when none was written, once told; the chart thread. */
  dropWarm(): void {
    void this.warm?.close();
    void this.charts?.close();
  }

  /** The release of the run's own pairings, under way while the reports are written. */
  private releasing?: Promise<void>;

  /**
   * Starts {@link releasePairings}: the reports read neither the vault nor the service, so the
   * unpairing (a token request and an unpair a terminal, 0.1 s against the bench's sandbox, more
   * against a service far away) need not hold them up. {@link pairingsReleased} waits for it.
   */
  startReleasingPairings(): void {
    this.releasing = this.releasePairings();
    // Its error is the run's when awaited (pairingsReleased), not an unhandled rejection meanwhile.
    this.releasing.catch(() => undefined);
  }

  /** Once the reports are written (or the run failed): the release started by {@link startReleasingPairings} is over. */
  async pairingsReleased(): Promise<void> {
    await this.releasing;
  }

  /** The pairings this run made on its own receiver are unpaired and leave the vault. */
  async releasePairings(): Promise<void> {
    const { ctx, target } = this;
    if (!ctx.ephemeralRun) return;
    const { released, kept } = await releaseRunPairings({
      vaultPath: target!.vaultPath,
      baseUrl: target!.baseUrl,
      integratorId: target!.integratorId,
      runId: ctx.ephemeralRun,
      timeoutMs: ctx.timeoutMs,
      transport: this.inputs.transport,
    });
    const keptText = kept.length > 0 ? `; ${kept.length} kept (${kept.join('; ')})` : '';
    if (released + kept.length > 0)
      this.io.stdout(`pairings this run made on its own receiver: ${released} unpaired and removed from the vault${keptText}\n`);
  }

  /** What only the whole run shows, judged and put ahead of the tests. */
  judgeTheWholeRun(): void {
    // Redacted in the worker, and by shape as each record was made; the report writer scrubs once more.
    this.record = this.collector.record();
    this.wholeRunCheck = judgeWholeRun(this.record, this.suites, this.config, this.inputs, this.events);
  }

  /** The run's facts and summary, each made once, and every report. */
  async writeTheReports(): Promise<void> {
    const { config, inputs, record } = this;
    const info = runInfoOfRun(config, inputs, this.target!, this.suites, {
      startedAt: this.startedAt,
      finishedAt: new Date().toISOString(),
    });
    const summary = runSummaryOf(record, info, config, inputs, this.plan, this.confirmed);
    this.reported = true;
    this.result = await writeRunReports({
      config,
      inputs,
      record,
      summary,
      info,
      baseUrl: this.target!.baseUrl,
      transcriptDir: this.transcriptDir!,
      wholeRunCheck: this.wholeRunCheck,
      warm: this.warm,
      charts: this.charts,
      io: this.io,
    });
  }
}
