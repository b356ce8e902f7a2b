/**
 * `run`: one conformance run against one target. Starts the embedded simulator for `sim`, checks a URL
 * target is allowed and reachable, runs the vitest suites in one worker with the run context, and
 * writes the reports: summary.json, junit.xml, the certification summary, allure-results and (unless
 * --no-html) the Allure HTML report. Never calls process.exit: it returns the exit code.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BaseSequencer, type TestSpecification, createVitest, startVitest } from 'vitest/node';
import { type ResolvedConfig, SUITE_NAMES, shapingOptions } from '../config/index.ts';
import { canonicalRuleId, validateDisableCheck } from '../checks/index.ts';
import { type BaselineEntry, OPERATOR_META_KEY, ToolkitError, countsAsFailure, markKnown } from '../core/index.ts';
import { resolveProfile } from '../profile/index.ts';
import {
  checkCoverageExclusions,
  CollectorReporter,
  type SessionFingerprint,
  SessionWriter,
  assertSameSession,
  capabilityOfFile,
  peekSession,
  readSession,
  type RunEvents,
  type RunInfo,
  type RunRecord,
  type Summary,
  type TestRecord,
  isCompleteRun,
  judgeBaseline,
  readBaseline,
  type BaselineFile,
  type AllReports,
  buildSummary,
  prepareReportsDir,
  reportMessageOptions,
  sha256Hex,
  type WarmAllure,
  warmAllure,
  stagingDirectory,
  writeReports,
  writeShardRecord,
} from '../report/index.ts';
import { loadSigningKey, signReports } from '../attest/index.ts';
import { confirmFailures, namePattern } from './confirm.ts';
import { moduleCacheOptions, nodeEnvAsVitestStarts } from './module-cache.ts';
import { harnessLoading } from './built-harness.ts';
import { judgeRun, webhookObservationOf } from './judge-run.ts';
import { TRANSCRIPT_FILE, assembleTranscript, summaryExtras, wholeRunCheckEvent } from '../transcript/index.ts';
import { releaseRunPairings } from './release-run-pairings.ts';
import { compareWithBase, readCompareBase, writeComparison } from './compare-to.ts';
import { type Comparison, compareExitCode } from '../compare/index.ts';
import { URL_SETTLE_SCALE } from '../convergence/index.ts';
import { type LedgerHub, RUN_CONTEXT_KEY, type RunContext, startLedgerHub } from '../runtime/index.ts';
import { type Target, openTarget } from '../targets/index.ts';
import { type ConsoleIo, OperatorConsole } from '../terminal/operator-console.ts';
import { type Outcome } from '../terminal/driver.ts';
import { type PlanStep, planSession } from '../terminal/session-plan.ts';
import { findPairings, loadPrivateVault, prepareVault } from '../vault/index.ts';
import { assertCanListen, readDeliveryTls } from '../webhooks/index.ts';
import { loadTransport, proxyFor, type Transport } from '../transport/index.ts';

/** The package root (suites live under it, wherever the user runs from). */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The tool's name and version, from package.json. */
export function toolInfo(): { name: string; version: string } {
  const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
  return { name: pkg.name, version: pkg.version };
}

/** Where output goes; tests capture it. */
export interface RunIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  /** Whether a person can be prompted. */
  interactive: boolean;
  /** Whether live progress is drawn (stdout is a terminal). @default interactive */
  progress?: boolean;
  /** Where a manual session's plan is confirmed (tests); else stdin and stdout when interactive. */
  operator?: ConsoleIo;
}

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

/** The contract file the toolkit checks against (its hash goes into every report). */
export const CONTRACT_FILE = 'contracts/pay-connect.openapi.yaml';

/** The SHA-256 of the contract file. */
export function contractSha256(): string {
  return sha256Hex(readFileSync(join(PACKAGE_ROOT, CONTRACT_FILE)));
}

/** The run's target, with the suites it can serve when fewer than asked (a Pact mock keeps to its pact). */
async function openRunTarget(config: ResolvedConfig, transport: Transport): Promise<Target & { suites?: string[] }> {
  const profile = resolveProfile(config.profile);
  if (config.target.kind === 'pact') {
    const { pactSuites } = await import('../pact/index.ts');
    const suites = pactSuites(config.suites, config.terminal);
    return {
      ...(await openTarget({
        kind: 'pact', profile, integratorId: config.integratorId, pactDir: join(config.reportsDir, 'pacts'),
        webhookListen: config.webhookListen, ...(config.webhookPublicUrl ? { webhookPublicUrl: config.webhookPublicUrl } : {}),
      })),
      suites,
    };
  }
  if (config.target.kind === 'sim') return openTarget({ kind: 'sim', profile, integratorId: config.integratorId, sim: { seed: config.seed, ...config.sim } });
  return openTarget({ kind: 'url', profile, baseUrl: config.target.baseUrl, integratorId: config.integratorId, vaultPath: config.vaultPath, allowProduction: config.allowProduction, transport });
}

/**
 * How many terminals the run uses, and why fewer than asked. Each terminal is paired or taken on its
 * own, so it needs OTPs the target mints, or pairings of its own in the vault or `--otp`.
 */
export function terminalsFor(config: ResolvedConfig, target: Pick<Target, 'mintOtps'>, vaultPairings: number): { terminals: number; reason?: string } {
  const asked = config.terminals;
  if (asked <= 1) return { terminals: 1 };
  if (config.terminal === 'manual') return { terminals: 1, reason: 'a person at the terminal drives one terminal' };
  if (config.target.kind === 'pact') return { terminals: 1, reason: 'the Pact mock keeps to one pairing' };
  if (config.webhookListen.port !== 0) return { terminals: 1, reason: `the webhook receiver listens on the fixed port ${config.webhookListen.port}` };
  if (target.mintOtps) return { terminals: asked };
  const own = vaultPairings + config.otps.length;
  if (config.sources.terminals === 'default') return { terminals: 1, reason: 'a service that does not mint OTPs gets one terminal unless --terminals says otherwise' };
  const terminals = Math.max(1, Math.min(asked, own));
  return terminals < asked ? { terminals, reason: `only ${own} pairing${own === 1 ? '' : 's'} (vault and --otp) for ${asked} terminals` } : { terminals };
}

/** Suite files a worker takes before another one is worth its start. */
const FILES_PER_WORKER = 4;

/**
 * How many vitest workers drive `terminals`: one per {@link FILES_PER_WORKER} suite files (vitest
 * hands a worker whole files), and on a machine of several cores one more than the cores at most. A
 * worker's tests mostly wait on their terminals, so one worker drives several, a test on each at once
 * (its lanes), instead of a process per terminal: each costs a start and competes for the cores. But
 * a worker runs one file at a time, and a file's lanes idle while a few of its tests wait on the
 * clock (the token renewal holds its worker 3.2 s alone): the workers are bound by their files, not
 * the cores. Measured on 2 cores, a full sim run (8 terminals, HTML included) keeps 0.8 of them busy
 * with two workers; a third took 9.4-11.1 s to 7.0-8.1 s for 0.2-0.5 CPU-s more, a URL run 22-26 s to
 * 19-25 s, and a fourth lost to the third (8.7-9.8 s, 1 CPU-s more). One core keeps its one worker, a
 * thread of the run's process ({@link poolFor}).
 */
export function workersFor(terminals: number, files: number, cores: number = availableParallelism()): number {
  return Math.max(1, Math.min(terminals, cores > 1 ? cores + 1 : 1, Math.ceil(files / FILES_PER_WORKER)));
}

/**
 * The pool of a run's `workers`. One worker is a thread of the run's process, which saves a process
 * start and a second Node (a fifth of a small run's CPU: 2.5 to 2.05 CPU-s for the config suite).
 * Processes for several workers, so the run's process does not hold every worker's heap (a full sim
 * run's would go from 280 to 410 MB). A manual session is no exception: its console reads /dev/tty
 * through a tty handle of the thread's own loop (the stall once put down to a thread was the driving
 * script's race, scripts/check-manual-session.sh).
 */
export function poolFor(workers: number): 'threads' | 'forks' {
  return workers === 1 ? 'threads' : 'forks';
}

/** How many suite files the run's selection holds (of this shard's share). */
function suiteFileCount(suites: readonly string[], shard: { count: number } | undefined): number {
  let files = 0;
  for (const name of suites.length > 0 ? suites : SUITE_NAMES) {
    const dir = join(PACKAGE_ROOT, 'suites', name);
    if (!existsSync(dir)) continue;
    files += readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith('.suite.ts')).length;
  }
  return Math.ceil(files / (shard?.count ?? 1));
}

/**
 * The suite files that run longest, by what they do (model-based sequences, valid bodies that start
 * real transactions). Started first, they do not end a pooled run alone; vitest's own order (its
 * timing cache, else file size) ranks these small files of parts last.
 */
const LONG_FIRST = [/\/stateful\/stateful\.suite\.ts$/, /\/properties\/request-bodies\.suite\.ts$/];

/** Vitest's order, with {@link LONG_FIRST} ahead of the rest (sharding stays vitest's). */
export class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = LONG_FIRST.findIndex((r) => r.test(f.moduleId.split('\\').join('/')));
      return i < 0 ? LONG_FIRST.length : i;
    };
    return [...(await super.sort(files))].sort((a, b) => rank(a) - rank(b));
  }
}

/** A sequencer that runs the files in `order` (a manual session's plan), the others after them. */
function inFileOrder(order: readonly string[]): typeof BaseSequencer {
  return class PlannedSequencer extends LongFirstSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      const rank = (f: TestSpecification) => {
        const i = order.indexOf(f.moduleId);
        return i < 0 ? order.length : i;
      };
      return [...(await super.sort(files))].sort((a, b) => rank(a) - rank(b));
    }
  };
}

/**
 * The steps a person does in a manual session: the operator steps the scenarios declare, read from
 * vitest's collection of the run's files (nothing runs), in the files' declaration order; a scenario
 * whose declared needs this run does not meet is left out (it is skipped before it starts), and
 * listed in `skipped` with its reason.
 */
async function collectOperatorSteps(options: Parameters<typeof createVitest>[1], viteOverrides: Parameters<typeof createVitest>[2], needs: NeedsContext): Promise<{ steps: PlanStep[]; skipped: { test: string; reason: string }[] }> {
  nodeEnvAsVitestStarts();
  const vitest = await createVitest('test', { ...options, reporters: [] }, viteOverrides, { stdout: devNull(), stderr: devNull() });
  try {
    const { testModules } = await vitest.collect();
    const steps: PlanStep[] = [];
    const skipped: { test: string; reason: string }[] = [];
    for (const m of testModules) {
      for (const tc of m.children.allTests()) {
        const declared = tc.meta()[OPERATOR_META_KEY];
        if (!Array.isArray(declared) || tc.options.mode === 'skip' || tc.options.mode === 'todo') continue;
        const test = `${capabilityOfFile(m.moduleId)} > ${tc.name}`;
        const unmet = unmetNeed(tc.meta()[SCENARIO_META_KEY]?.needs, needs);
        if (unmet !== undefined) {
          skipped.push({ test, reason: unmet });
          continue;
        }
        for (const outcome of declared as Outcome[]) steps.push({ test, file: m.moduleId, outcome });
      }
    }
    return { steps, skipped };
  } finally {
    await vitest.close();
  }
}

/** A writable that hands what is written to `write` (the run's stdout function). */
function writerOf(write: (s: string) => void): Writable {
  return new Writable({
    write: (chunk, _e, cb) => {
      write(String(chunk));
      cb();
    },
  });
}

function suiteGlobs(suites: string[]): string[] {
  const names = suites.length > 0 ? suites : SUITE_NAMES;
  return names.map((s) => `suites/${s}/**/*.suite.ts`);
}

/** A baseline whose entries each name a check the run judges, by its current id (a former one is renamed). */
function canonicalBaseline(file: BaselineFile, path: string): BaselineFile {
  validateDisableCheck(file.entries.map((e) => e.check), 'run', { where: `baseline ${path}`, code: 'PCC_CONFIG_INVALID' });
  return { ...file, entries: file.entries.map((e) => ({ ...e, check: canonicalRuleId(e.check) ?? e.check })) };
}

/** Runs the suites against the configured target and writes the reports. `events` feed live progress. */
export async function runConformance(config: ResolvedConfig, io: RunIo, events: RunEvents = {}): Promise<RunResult> {
  const runDeadlineAt = Date.now() + config.maxDurationMs;
  // The rule registry knows every check, and the former ids of renamed ones: those mean the current id.
  config = { ...config, disabledChecks: validateDisableCheck(config.disabledChecks, 'run', { where: config.sources['checks.disable'] === 'flag' ? '--disable-check' : 'checks.disable', code: 'PCC_CONFIG_INVALID' }) };
  // Each coverage exclusion must name an item the coverage lists (a misspelt one names the nearest).
  config = { ...config, coverageExclude: checkCoverageExclusions(config.coverageExclude, config.profile, { where: config.sources['coverage.exclude'] === 'flag' ? '--coverage-exclude' : 'coverage.exclude' }) };
  // A baseline is read before anything starts: a bad file, or an entry naming no check, stops the run here.
  const baseline = config.baseline ? canonicalBaseline(readBaseline(config.baseline), config.baseline) : undefined;
  const baselineNow = Date.now();
  // So is the run to compare with (--compare-to): a folder that is not a run's reports is exit 2 now.
  const compareBase = await readCompareBase(config.compareTo);
  // The signing key is read now too: a wrong path, a key that is not Ed25519 or a wrong passphrase is exit 2 before anything runs.
  const signer = config.signKey ? loadSigningKey(config.signKey, process.env) : undefined;
  // Files named by --ca-file and --client-cert are read now: a wrong path stops the run before anything is written.
  const transport = loadTransport(config.transport);
  if (config.webhookTls) readDeliveryTls(config.webhookTls);
  // So is a module cache folder PAYCONNECT_MODULE_CACHE names that this user cannot write.
  const moduleCache = await moduleCacheOptions(PACKAGE_ROOT);
  const loading = harnessLoading(PACKAGE_ROOT);
  if (config.target.kind === 'url' && transport.verification === 'off') {
    io.stderr('warning: TLS certificates are not verified (NODE_TLS_REJECT_UNAUTHORIZED=0): whatever answers is taken for the service, so the run cannot be certified; trust its CA with --ca-file instead\n');
  }
  await prepareReportsDir(config.reportsDir);
  const tool = toolInfo();
  const contract = { file: CONTRACT_FILE, sha256: contractSha256() };
  const fingerprint: SessionFingerprint = {
    target: config.target.kind === 'url' ? config.target.baseUrl : config.target.kind,
    profile: config.profile, terminalMode: config.terminal, strict: config.strict, suites: [...config.suites].sort(),
    grep: config.grep ?? '', faults: config.target.kind === 'sim' ? [...config.sim.faults].sort() : [], contractSha256: contract.sha256, toolVersion: tool.version,
  };
  // A resumed session is the same run: its seed and labels, and its passed tests are not run again.
  const resumed = config.resume ? readSession(config.reportsDir) : undefined;
  if (resumed) {
    assertSameSession(resumed, fingerprint, {
      ...(config.sources.seed !== 'default' ? { seed: config.seed } : {}),
      ...(config.sources.labels !== 'default' ? { labels: config.labels } : {}),
    }, config.reportsDir);
    config = { ...config, seed: resumed.seed, labels: { ...resumed.labels } };
  }
  const carried = new Map((resumed?.passed ?? []).map((t) => [t.name, t]));
  // Not resuming: an unfinished session in the folder is replaced; say so (the user may have meant --resume).
  const earlier = resumed ? undefined : peekSession(config.reportsDir);
  const target = await openRunTarget(config, transport);
  let reported = false;
  const suites: string[] = target.suites ?? config.suites;
  const startedAt = new Date().toISOString();
  let ledger: LedgerHub | undefined;
  // The HTML report's generator, started once the first test has ended: its modules load while the
  // tests mostly wait, not while the workers start (a second of CPU that slowed their start up).
  let warm: WarmAllure | undefined;
  // The workers' transcript files, assembled into transcript.jsonl.gz once the suites are done.
  const transcriptDir = stagingDirectory(join(config.reportsDir, TRANSCRIPT_FILE), 'transcript');
  try {
    // A fixed receiver port that is busy is one usage error now, not a toolkit error in every test.
    const listen = target.webhookListen ?? config.webhookListen;
    if (listen.port !== 0) await assertCanListen(listen.host, listen.port);
    // Against a URL the run may pair (an OTP given or minted), and CI credentials from the
    // environment become the vault; a sim's vault is its own, throw-away one.
    const vault = config.target.kind === 'url' ? await prepareVault(target.vaultPath, process.env, { mayPair: true })
      : config.target.kind === 'sim' ? await loadPrivateVault(target.vaultPath) : undefined;
    const known = vault ? findPairings(vault.vault, target.baseUrl, target.integratorId).map((e) => e.credentials.client_id) : [];
    const { terminals, reason } = terminalsFor(config, target, known.length);
    if (reason && config.sources.terminals !== 'default') io.stderr(`terminals: ${terminals} of ${config.terminals} (${reason})\n`);
    const workers = workersFor(terminals, suiteFileCount(suites, config.shard));
    // Tests at once in a worker: one per terminal of its own (the first workers may have one more).
    const lanes = Math.ceil(terminals / workers);
    const pool = poolFor(workers);
    // One ledger for the run: a defect is filed once, and a futile kind of wait ends in every worker.
    ledger = workers > 1 ? await startLedgerHub() : undefined;
    // A receiver on a port chosen for this run: the pairings made on it are this run's alone, and where
    // the target mints OTPs, pairing again costs nothing: they are unpaired at the end. An OTP a person
    // read off a terminal is precious: that pairing stays for the next run.
    const ephemeralRun = config.target.kind === 'url' && target.mintOtps && listen.port === 0 && !config.webhookPublicUrl ? randomUUID() : undefined;
    const ctx: RunContext = {
      targetKind: config.target.kind,
      baseUrl: target.baseUrl,
      integratorId: target.integratorId,
      profile: config.profile,
      strict: config.strict,
      terminal: config.terminal,
      interactive: io.interactive,
      deadlineMs: config.deadlineMs,
      // Long enough to see a status that changes one terminal step after it was final.
      // The Pact mock's records are final at once and never change, its webhooks posted as it answers.
      // The liberal sandbox promises no pace of the simulator's: the run waits as against a URL.
      settleMs: config.settleMs ?? (config.target.kind === 'sim' && !config.sim.liberal ? Math.max(80, config.sim.stepDelayMs * 4) : config.target.kind === 'pact' ? 200 : 1000),
      // Against a URL, unless --settle says how long: two of the service's own steps (a status that
      // changes one step after it was final is seen), at least 200 ms, at most the second above.
      ...(config.target.kind === 'url' && config.settleMs === undefined ? { settleScale: { ...URL_SETTLE_SCALE } } : {}),
      // A webhook is posted as the status changes; a service whose first attempt was lost retries it
      // after 5 s (sandbox.md; the simulator shrinks that schedule): 6 s covers that retry and the way
      // there. Waiting to the deadline (minutes against a URL) would only slow a broken service's run;
      // a scenario that refuses deliveries on purpose passes its own retry window.
      webhookGraceMs: config.target.kind === 'sim' && !config.sim.liberal ? Math.max(1000, config.sim.stepDelayMs * 20) : config.target.kind === 'pact' ? 1000 : 6_000,
      seed: config.seed,
      runs: config.runs,
      vaultPath: target.vaultPath,
      otps: [...config.otps, ...(target.otps ?? [])],
      mintOtps: target.mintOtps,
      webhookListen: listen,
      webhookPublicUrl: config.webhookPublicUrl,
      ...(config.webhookTls ? { webhookTls: config.webhookTls } : {}),
      maxAmount: config.maxAmount,
      sandbox: target.sandbox,
      timeoutMs: 10_000,
      ...(config.maxResponseTimeMs !== undefined ? { maxResponseTimeMs: config.maxResponseTimeMs } : {}),
      transport: config.transport,
      runDeadlineAt,
      disabledChecks: [...config.disabledChecks],
      ...(config.argv ? { rerunOptions: shapingOptions(config.argv) } : {}),
      workers,
      terminals,
      ...(ledger ? { ledgerPort: ledger.port } : {}),
      ...(ephemeralRun ? { ephemeralRun } : {}),
      vaultPairings: known,
      ...(carried.size > 0 ? { carried: [...carried.keys()] } : {}),
      ...(baseline ? { baseline: { entries: baseline.entries, now: baselineNow } } : {}),
      transcriptDir,
    };
    const since = resumed?.startedAt ?? startedAt;
    // Written once the tests start: a session refused at its plan leaves the folder's one as it was.
    let session: SessionWriter | undefined;
    const startSession = () => new SessionWriter(config.reportsDir, { fingerprint, seed: config.seed, labels: config.labels, startedAt: since, runs: (resumed?.runs ?? 0) + 1 }, resumed?.passed ?? [],
      { throttleMs: config.terminal === 'manual' ? 0 : 5000, evidence: config.terminal === 'manual' });
    if (resumed) io.stderr(`resuming the session of ${resumed.startedAt}: ${carried.size} passed test${carried.size === 1 ? '' : 's'} carried over, not run again\n`);
    else if (earlier && earlier.passed.length > 0 && earlier.passed.length < earlier.total) {
      const of = Number.isFinite(earlier.total) ? `${earlier.passed.length} of ${earlier.total} passed` : `${earlier.passed.length} passed before it was interrupted`;
      io.stderr(`a new session: the one of ${earlier.startedAt} in ${config.reportsDir} (${of}) is replaced; --resume goes on with a session instead\n`);
    }
    const carriedOver = carried.size > 0 ? { tests: carried, since } : undefined;
    // Progress is often a class instance: its hooks are called through it, not copied off it.
    const collector = new CollectorReporter({
      onSuiteStart: (e) => events.onSuiteStart?.(e),
      onTestStart: (e) => events.onTestStart?.(e),
      onTest: (r) => {
        session?.add(r);
        if (config.html && !warm) warm = warmAllure();
        events.onTest?.(r);
      },
      onSuiteEnd: (e) => events.onSuiteEnd?.(e),
    }, carriedOver);
    const perTest = config.terminal === 'manual' ? 30 * 60_000 : Math.max(60_000, config.deadlineMs * 6);
    const options = (sequencer: typeof BaseSequencer) => ({
      watch: false,
      config: false as const,
      root: PACKAGE_ROOT,
      include: suiteGlobs(suites),
      ...(config.grep ? { testNamePattern: config.grep } : {}),
      provide: { [RUN_CONTEXT_KEY]: ctx },
      pool,
      maxWorkers: workers,
      fileParallelism: workers > 1,
      // A worker with several terminals runs as many of a file's tests at once, each on a lane of its own.
      sequence: { sequencer, concurrent: lanes > 1 },
      maxConcurrency: lanes,
      ...(config.shard ? { shard: `${config.shard.index}/${config.shard.count}` } : {}),
      isolate: false,
      testTimeout: perTest,
      hookTimeout: perTest,
      passWithNoTests: false,
      silent: true,
      ...loading.test,
      ...moduleCache,
    });
    const viteOverrides = { logLevel: 'silent' as const, server: { watch: null }, ...loading.vite };
    let sequencer: typeof BaseSequencer = LongFirstSequencer;
    if (config.terminal === 'manual') {
      const { steps, skipped } = await collectOperatorSteps(options(sequencer), viteOverrides, ctx);
      if (skipped.length > 0) {
        // Known before the session: what this run's settings skip, so the operator is not asked for it.
        const reasons = new Map<string, number>();
        for (const x of skipped) reasons.set(x.reason, (reasons.get(x.reason) ?? 0) + 1);
        io.stdout(`${skipped.length} scenario${skipped.length === 1 ? '' : 's'} with operator steps will be skipped, their needs unmet by this run: ${[...reasons].map(([r, n]) => `${n}x ${r}`).join('; ')}\n`);
      }
      const plan = planSession(steps.filter((st) => !carried.has(st.test)), { expireMs: Math.min(config.deadlineMs, 120_000) });
      ctx.manualPlan = plan.steps.map((st) => ({ test: st.test, outcome: st.outcome }));
      sequencer = inFileOrder(plan.files);
      const operatorIo = io.operator ?? (io.interactive ? { input: process.stdin, output: process.stdout } : undefined);
      const planConsole = new OperatorConsole(operatorIo ?? { input: new PassThrough(), output: writerOf(io.stdout) });
      try {
        planConsole.showPlan(plan, carried.size);
        if (operatorIo && !(await planConsole.confirmStart())) {
          throw new ToolkitError('PCC_USAGE', 'the operator did not start the session', 'run again when the terminal and the test cards are ready');
        }
      } finally {
        planConsole.close();
      }
    }
    session = startSession();
    let confirmed: { tests: number; runs: number } = { tests: 0, runs: 0 };
    // The suites, then (--confirm) the failed tests again; the block keeps its vitest instances to itself.
    {
      const vitest = await startVitest('test', [], { ...options(sequencer), reporters: [collector] }, viteOverrides, { stdout: devNull(), stderr: devNull() });
      await vitest.close();
      // Each failed test again, on fresh scopes: a fresh vitest run of just those tests, a ledger of its own.
      if (config.confirm > 0) {
        confirmed = await confirmFailures(collector.tests, config.confirm, async (due, attempt) => {
          io.stderr(`confirming: ${due.length} failed test${due.length === 1 ? '' : 's'} again (run ${attempt})\n`);
          const records = new CollectorReporter({});
          const files = [...new Set(due.map((t) => t.file))];
          // The run's terminals, on no more workers than there are files to run.
          const again = Math.min(workers, files.length);
          const hub = again > 1 ? await startLedgerHub() : undefined;
          try {
            const { ledgerPort: _port, carried: _carried, transcriptDir: _transcript, ...rest } = ctx;
            const base = options(LongFirstSequencer);
            const vitest = await startVitest('test', [], {
              ...base, include: files, testNamePattern: namePattern(due), shard: undefined,
              pool: poolFor(again), maxWorkers: again, fileParallelism: again > 1,
              sequence: { ...base.sequence, concurrent: terminals > again }, maxConcurrency: Math.ceil(terminals / again),
              provide: { [RUN_CONTEXT_KEY]: { ...rest, workers: again, ...(hub ? { ledgerPort: hub.port } : {}) } },
              reporters: [records],
            }, viteOverrides, { stdout: devNull(), stderr: devNull() });
            await vitest.close();
          } finally {
            await hub?.close();
          }
          return records.record().tests;
        });
      }
    }
    if (ephemeralRun) {
      const { released, kept } = await releaseRunPairings({ vaultPath: target.vaultPath, baseUrl: target.baseUrl, integratorId: target.integratorId, runId: ephemeralRun, timeoutMs: ctx.timeoutMs, transport });
      if (released + kept.length > 0) io.stdout(`pairings this run made on its own receiver: ${released} unpaired and removed from the vault${kept.length > 0 ? `; ${kept.length} kept (${kept.join('; ')})` : ''}\n`);
    }
    session.flush(collector.tests.length);
    // Redacted in the worker, and by shape as each record was made; the report writer scrubs once more.
    const record = collector.record();
    if (record.tests.length === 0 && record.unhandled.length === 0) {
      record.unhandled.push(`no test ran (suites: ${suites.join(', ') || 'all'})`);
    }
    // What only the whole run shows (a service that sends no webhook at all) leads the reports.
    const wholeRun = record.tests.length > 0 ? judgeRun(record, { profile: resolveProfile(config.profile), strict: config.strict, disabledChecks: config.disabledChecks }) : [];
    // The whole run's check and its input, for the transcript (re-judged like every other check).
    const wholeRunCheck = record.tests.length > 0 && !config.disabledChecks.includes('webhook.service-sends') ? wholeRunCheckEvent(webhookObservationOf(record), wholeRun[0]) : undefined;
    // The whole run's verdicts meet the baseline as each test's findings did in its worker.
    if (baseline) for (const t of wholeRun) knowBaseline(t, baseline.entries, baselineNow);
    record.tests.unshift(...wholeRun);
    for (const t of wholeRun) events.onTest?.(t);
    const finishedAt = new Date().toISOString();
    // Only a run of everything, to its end, shows that an entry is no longer needed.
    const complete = isCompleteRun(record, { suitesSelected: suites, grep: config.grep, oneShard: config.shard !== undefined });
    const baselineSummary = baseline ? judgeBaseline(config.baseline!, baseline, record, { now: baselineNow, complete }) : undefined;
    const summary = buildSummary(record, tool, { kind: config.target.kind, baseUrl: target.baseUrl }, { seed: config.seed, startedAt, finishedAt, labels: config.labels, ...(baselineSummary ? { baseline: baselineSummary } : {}) });
    if (confirmed.tests > 0) summary.confirmed = { tests: confirmed.tests, runs: confirmed.runs, attempts: config.confirm };
    if (config.disabledChecks.length > 0) summary.checksDisabled = [...config.disabledChecks];
    // A proxy is named only where the target's connections went through it (not to loopback, not to a NO_PROXY host).
    const connection = config.target.kind === 'url' ? transport.describe() : undefined;
    if (connection?.proxy && !proxyFor(transport, target.baseUrl)) delete connection.proxy;
    if (connection) summary.connection = connection;
    if (summary.harness) {
      // This process's CPU time; a worker thread's figure is this process's too, so it is not added again.
      const own = process.cpuUsage();
      const workersCpu = pool === 'threads' ? 0 : summary.harness.cpuSeconds;
      summary.harness = { terminals, ...summary.harness, cpuSeconds: Math.round((workersCpu + (own.user + own.system) / 1e6) * 100) / 100 };
    }
    const info: RunInfo = {
      tool,
      target: { kind: config.target.kind, baseUrl: target.baseUrl },
      profile: config.profile,
      terminalMode: config.terminal,
      seed: config.seed,
      strict: config.strict,
      integratorId: target.integratorId,
      suitesSelected: [...suites],
      ...(config.grep ? { grep: config.grep } : {}),
      contract,
      faults: config.target.kind === 'sim' ? [...config.sim.faults] : [],
      ...(config.target.kind === 'sim' && config.sim.faults.length > 0 && config.sim.faultRate < 1 ? { faultRate: config.sim.faultRate } : {}),
      certifyWithKnownDefects: resolveProfile(config.profile).certifyWithKnownDefects,
      ...(baseline ? { baseline: { file: config.baseline!, entries: baseline.entries, now: baselineNow } } : {}),
      ...(signer ? { signedBy: { keyid: signer.keyid } } : {}),
      ...(config.requireCoverage.length > 0 ? { requireCoverage: [...config.requireCoverage] } : {}),
      ...(config.coverageExclude.length > 0 ? { coverageExclude: config.coverageExclude.map((e) => ({ ...e })) } : {}),
      checksDisabled: [...config.disabledChecks],
      labels: { ...config.labels },
      ...(connection ? { connection } : {}),
      startedAt,
      finishedAt,
    };
    if (config.shard) {
      summary.shards = [{ ...config.shard, seed: config.seed, baseUrl: target.baseUrl, startedAt, finishedAt: info.finishedAt, tests: record.tests.length }];
      writeShardRecord(config.reportsDir, config.shard, info, record, PACKAGE_ROOT);
    }
    reported = true;
    // One writer for every report (the Allure results too, from the records); the transcript and the
    // signature follow the files, before the HTML report.
    const compared = compareBase ? compareWithBase(compareBase, config.reportsDir, summary, record) : undefined;
    const { exitCode, record: written, reports } = await writeReports(config.reportsDir, record, summary, info, {
      html: config.html, root: PACKAGE_ROOT, messages: reportMessageOptions(process.env), stderr: io.stderr, ...(warm ? { warm } : {}),
      ...(compared ? { certification: { sections: [compared.section] } } : {}),
      afterFiles: async (held) => {
        await assembleTranscript({
          stagingDir: transcriptDir, reportsDir: config.reportsDir, tests: held.tests, ...(wholeRunCheck ? { extra: [wholeRunCheck] } : {}),
          header: {
            info: info as unknown as Record<string, unknown>,
            settings: { profile: config.profile, strict: config.strict, disabledChecks: [...config.disabledChecks], ...(baseline ? { baseline: { entries: baseline.entries, now: baselineNow } } : {}) },
            run: { startedAt: held.startedAt, durationMs: held.durationMs, unhandled: [...held.unhandled] },
            summary: summaryExtras(summary),
          },
        });
        // Signed last, over the transcript and summary.json as written.
        if (signer) signReports(config.reportsDir, { privateKey: signer.privateKey, record: held, summary, info, root: PACKAGE_ROOT });
      },
    });
    if (compared) writeComparison(config.reportsDir, compared.comparison);
    // A regression against the earlier run is a finding about the service: exit 1 (a toolkit error stays 2).
    const compareExit = compared ? compareExitCode(compared.comparison) : 0;
    return { exitCode: exitCode === 0 ? compareExit : exitCode, summary, record: written, baseUrl: target.baseUrl, reports, ...(compared ? { comparison: compared.comparison } : {}) };
  } finally {
    // Unused (no HTML report was written): it ends by itself once told.
    void warm?.close();
    rmSync(transcriptDir, { recursive: true, force: true });
    await ledger?.close();
    // A run stopped before its reports (bad input found late) leaves no pact file in the folder either.
    await target.close(reported ? undefined : { discard: true });
  }
}

/** Marks what a baseline entry knows among a test's findings; a test failed only on known defects passes. */
function knowBaseline(t: TestRecord, entries: readonly BaselineEntry[], now: number): void {
  t.findings = markKnown(t.findings, entries, now);
  if (t.state === 'failed' && !t.toolkitError && !t.findings.some(countsAsFailure)) {
    t.state = 'passed';
    t.errors = [];
  }
}

import { type NeedsContext, unmetNeed } from '../suite/needs.ts';
import { SCENARIO_META_KEY } from '../suite/scenario-declaration.ts';
import { PassThrough, Writable } from 'node:stream';
function devNull(): Writable {
  return new Writable({ write: (_c, _e, cb) => cb() });
}
