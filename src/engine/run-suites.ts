/**
 * The suites, run by vitest with the run's context: the options of the run's plan, the order (the
 * long files first; a manual session's plan, confirmed by the operator, first of all), then with
 * `--confirm` each failed test again on fresh scopes.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { BaseSequencer, type TestSpecification, createVitest, startVitest } from 'vitest/node';
import { type ResolvedConfig, SUITE_NAMES } from '../config/index.ts';
import { OPERATOR_META_KEY, type RunIo, ToolkitError } from '../core/index.ts';
import { CollectorReporter, PACKAGE_ROOT, type TestRecord, capabilityOfFile } from '../report/index.ts';
import { RUN_CONTEXT_KEY, type RunContext, startLedgerHub } from '../runtime/index.ts';
import { type NeedsContext, unmetNeed } from '../suite/needs.ts';
import { SCENARIO_META_KEY } from '../suite/scenario-declaration.ts';
import type { Outcome } from '../terminal/driver.ts';
import { OperatorConsole } from '../terminal/operator-console.ts';
import { type PlanStep, planSession } from '../terminal/session-plan.ts';
import { confirmFailures, namePattern } from './confirm.ts';
import { nodeEnvAsVitestStarts } from './module-cache.ts';
import type { RunInputs } from './run-inputs.ts';
import { poolFor, type RunPlan } from './run-plan.ts';

/**
 * The files of the model-based parts (two parts a file): long, and fewer tests than a worker's lanes,
 * so each is worth a worker of its own (run-plan.ts workersFor).
 */
const ALONE = /\/stateful\/[^/]*\.suite\.ts$/;

/**
 * How many suite files the run's selection holds (of this shard's share), and how many of them want
 * a worker of their own ({@link ALONE}).
 */
export function suiteFileCount(suites: readonly string[], shard: { count: number } | undefined): { files: number; alone: number } {
  let files = 0;
  let alone = 0;
  for (const name of suites.length > 0 ? suites : SUITE_NAMES) {
    const dir = join(PACKAGE_ROOT, 'suites', name);
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir, { recursive: true }).map(String)) {
      if (!f.endsWith('.suite.ts')) continue;
      files++;
      if (ALONE.test(`/${name}/${f.split('\\').join('/')}`)) alone++;
    }
  }
  const share = shard?.count ?? 1;
  return { files: Math.ceil(files / share), alone: Math.ceil(alone / share) };
}

/**
 * The suite files that hold their worker longest, by what they do: model-based sequences and valid
 * bodies that start real transactions. Started first, they do not end a pooled run alone; vitest's
 * own order (its timing cache, else file size) ranks these small files of parts last. The valid
 * request bodies come before the second file of model-based parts: the first files go to the workers
 * in order, and a worker with fewer terminals than others (8 over 3: 3, 3, 2) is filled by two parts,
 * where the request bodies would wait (when they were one file of nineteen tests, 58 s there at
 * 300 ms an answer, 40 s on three terminals).
 */
const LONG_FIRST = [
  /\/stateful\/stateful\.suite\.ts$/,
  /\/properties\/request-bodies\.suite\.ts$/,
  /\/stateful\/stateful-parts-3-4\.suite\.ts$/,
];

/**
 * The token renewal's file: against a service among the files started first (below); on the embedded
 * simulator before them all, the model's parts included: its one long test waits (calls
 * 400 ms apart over 2.8 s, the service's real time) while the other workers take the CPU-bound
 * files. Started where vitest's order put it, after those files, it was the last worker's last
 * 3.4 s, with the cores idle: the default run's medians of 6, interleaved, 8.15 s before and 7.2 s
 * after, 11.8 and 10.9 CPU-s.
 */
const TOKEN_RENEWAL = /\/auth\/token\.suite\.ts$/;

/**
 * Against a service (not the embedded simulator), after those, the two files whose one long test
 * waits on the service's clock, then the two longest of the CPU-bound ones:
 * - the token renewal (calls 400 ms apart over 2.8 s) and the payments (a transaction left INITIATED
 *   until the deadline) take the last two workers at the start, where the workers' start and the
 *   model's first sequences keep both cores busy: their waits cost nothing there;
 * - the probes (54 tests, a third of them one at a time) and the invalid request bodies (eleven
 *   tests of 2-5 s each at 300 ms an answer) follow, on the first workers those free: at 300 ms an
 *   answer the probes took 26 s (16 s since they share the worker's terminals), and left to
 *   vitest's order such a file ended the run alone.
 * Started first instead (probes, invalid bodies, token renewal), the probes took 2.7-5.1 s and the
 * invalid bodies 4.3-5.8 s, slowed by the start; after the waiting files 1.4 s each, and the waits no
 * longer ended the run: against `sim --step-delay 100 --deadline 2500`, seeds 51 to 81 in turn,
 * 12.0-13.5 s before and 11.1-12.4 s after (4 of 4), 33.8 s against 34.7 s at 300 ms an answer.
 * On the embedded simulator the probes and the invalid bodies take about a second, and starting them
 * first cost the default run 0.5-1 s (the CPU-bound files started later); the token renewal is first
 * there too, for another reason (above).
 */
const FIRST_AGAINST_A_SERVICE = [
  TOKEN_RENEWAL,
  /\/payment\/payment\.suite\.ts$/,
  /\/auth\/probes\.suite\.ts$/,
  /\/properties\/invalid-bodies\.suite\.ts$/,
];

/** The files started first on a target of `kind` (the run's; none known: as against a service). */
export function longFirst(kind: string | undefined): readonly RegExp[] {
  return kind === 'sim' ? [TOKEN_RENEWAL, ...LONG_FIRST] : [...LONG_FIRST, ...FIRST_AGAINST_A_SERVICE];
}

/** Vitest's order, with {@link longFirst} ahead of the rest (sharding stays vitest's). */
export class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // The run's context, as the engine provides it to the workers (none in a collection of the suites).
    const run: Partial<RunContext> | undefined = this.ctx.getProvidedContext?.()[RUN_CONTEXT_KEY];
    const first = longFirst(run?.targetKind);
    const rank = (f: TestSpecification) => {
      const i = first.findIndex((r) => r.test(f.moduleId.split('\\').join('/')));
      return i < 0 ? first.length : i;
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

function devNull(): Writable {
  return new Writable({ write: (_c, _e, cb) => cb() });
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

/**
 * The Node options of a worker process. V8's young generation is 4 MB a semi-space instead of 16: a
 * worker's objects mostly live for one request or one test, and the larger nursery only let the
 * resident set grow (a thorough run's model-based workers: 217-227 MB; the same run with every
 * process at 4 MB peaked at 223 MB instead of 238-254, for a CPU-second or two more in 75; the
 * default sim run's CPU was no higher). A worker thread shares its process's heap settings.
 */
const WORKER_EXEC_ARGV = ['--max-semi-space-size=4'];

/** What vitest is given: the run's files, context, pool and order. */
export type VitestOptions = ReturnType<typeof vitestOptions>;

/** The vitest options of the run's plan, in `sequencer`'s order. */
function vitestOptions(
  config: ResolvedConfig,
  inputs: RunInputs,
  plan: RunPlan,
  suites: readonly string[],
  ctx: RunContext,
  sequencer: typeof BaseSequencer,
) {
  return {
    watch: false,
    config: false as const,
    root: PACKAGE_ROOT,
    include: (suites.length > 0 ? suites : SUITE_NAMES).map((s) => `suites/${s}/**/*.suite.ts`),
    ...(config.grep ? { testNamePattern: config.grep } : {}),
    provide: { [RUN_CONTEXT_KEY]: ctx },
    pool: plan.pool,
    maxWorkers: plan.workers,
    fileParallelism: plan.workers > 1,
    // A worker with several terminals runs as many of a file's tests at once, each on a lane of its own.
    sequence: { sequencer, concurrent: plan.lanes > 1 },
    maxConcurrency: plan.lanes,
    ...(config.shard ? { shard: `${config.shard.index}/${config.shard.count}` } : {}),
    isolate: false,
    testTimeout: plan.perTestMs,
    hookTimeout: plan.perTestMs,
    passWithNoTests: false,
    silent: true,
    ...(plan.pool === 'forks' ? { execArgv: [...WORKER_EXEC_ARGV] } : {}),
    ...inputs.loading.harness.test,
    ...inputs.loading.moduleCache,
  };
}

/**
 * The steps a person does in a manual session: the operator steps the scenarios declare, read from
 * vitest's collection of the run's files (nothing runs), in the files' declaration order; a scenario
 * whose declared needs this run does not meet is left out (it is skipped before it starts), and
 * listed in `skipped` with its reason.
 */
async function collectOperatorSteps(
  options: VitestOptions,
  viteOverrides: Parameters<typeof createVitest>[2],
  needs: NeedsContext,
): Promise<{ steps: PlanStep[]; skipped: { test: string; reason: string }[] }> {
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

/**
 * A manual session's plan: the operator's steps in file order (those carried over from a resumed
 * session left out), shown, and confirmed by the operator at a terminal. Returns the files' order.
 * @throws ToolkitError PCC_USAGE when the operator does not start the session
 */
async function confirmManualPlan(
  options: VitestOptions,
  viteOverrides: Parameters<typeof createVitest>[2],
  ctx: RunContext,
  carried: ReadonlyMap<string, unknown>,
  io: RunIo,
  deadlineMs: number,
): Promise<typeof BaseSequencer> {
  const { steps, skipped } = await collectOperatorSteps(options, viteOverrides, ctx);
  if (skipped.length > 0) {
    // Known before the session: what this run's settings skip, so the operator is not asked for it.
    const reasons = new Map<string, number>();
    for (const x of skipped) reasons.set(x.reason, (reasons.get(x.reason) ?? 0) + 1);
    io.stdout(
      `${skipped.length} scenario${skipped.length === 1 ? '' : 's'} with operator steps will be skipped, ` +
        `their needs unmet by this run: ${[...reasons].map(([r, n]) => `${n}x ${r}`).join('; ')}\n`,
    );
  }
  const plan = planSession(
    steps.filter((st) => !carried.has(st.test)),
    { expireMs: Math.min(deadlineMs, 120_000) },
  );
  ctx.manualPlan = plan.steps.map((st) => ({ test: st.test, outcome: st.outcome }));
  const operatorIo = io.operator ?? (io.interactive ? { input: process.stdin, output: process.stdout } : undefined);
  const planConsole = new OperatorConsole(operatorIo ?? { input: new PassThrough(), output: writerOf(io.stdout) });
  try {
    planConsole.showPlan(plan, carried.size);
    if (operatorIo && !(await planConsole.confirmStart())) {
      throw new ToolkitError(
        'PCC_USAGE',
        'the operator did not start the session',
        'run again when the terminal and the test cards are ready',
      );
    }
  } finally {
    planConsole.close();
  }
  return inFileOrder(plan.files);
}

/** What ran: the collector holds the tests; `confirmed` how many failed tests ran again, how often. */
export interface SuitesRun {
  confirmed: { tests: number; runs: number };
}

/**
 * Runs the suites into `collector`. `onStart` is called once the tests are about to start (a manual
 * session's plan confirmed): the session file is written from then on.
 */
export async function runSuites(o: {
  config: ResolvedConfig;
  inputs: RunInputs;
  plan: RunPlan;
  suites: readonly string[];
  ctx: RunContext;
  collector: CollectorReporter;
  carried: ReadonlyMap<string, TestRecord>;
  io: RunIo;
  onStart: () => void;
}): Promise<SuitesRun> {
  const { config, inputs, plan, suites, ctx, io } = o;
  const viteOverrides = { logLevel: 'silent' as const, server: { watch: null }, ...inputs.loading.harness.vite };
  const options = (sequencer: typeof BaseSequencer) => vitestOptions(config, inputs, plan, suites, ctx, sequencer);
  const sequencer =
    config.terminal === 'manual'
      ? await confirmManualPlan(options(LongFirstSequencer), viteOverrides, ctx, o.carried, io, config.deadlineMs)
      : LongFirstSequencer;
  o.onStart();
  const vitest = await startVitest('test', [], { ...options(sequencer), reporters: [o.collector] }, viteOverrides, {
    stdout: devNull(),
    stderr: devNull(),
  });
  await vitest.close();
  if (config.confirm === 0) return { confirmed: { tests: 0, runs: 0 } };
  // Each failed test again, on fresh scopes: a fresh vitest run of just those tests, a ledger of its own.
  const confirmed = await confirmFailures(o.collector.tests, config.confirm, async (due, attempt) => {
    io.stderr(`confirming: ${due.length} failed test${due.length === 1 ? '' : 's'} again (run ${attempt})\n`);
    const records = new CollectorReporter({});
    const files = [...new Set(due.map((t) => t.file))];
    // The run's terminals, on no more workers than there are files to run.
    const again = Math.min(plan.workers, files.length);
    const hub = again > 1 ? await startLedgerHub() : undefined;
    try {
      const { ledgerPort: _port, carried: _carried, transcriptDir: _transcript, ...rest } = ctx;
      const base = options(LongFirstSequencer);
      const vitest = await startVitest(
        'test',
        [],
        {
          ...base,
          include: files,
          testNamePattern: namePattern(due),
          shard: undefined,
          pool: poolFor(again),
          maxWorkers: again,
          fileParallelism: again > 1,
          sequence: { ...base.sequence, concurrent: plan.terminals > again },
          maxConcurrency: Math.ceil(plan.terminals / again),
          provide: { [RUN_CONTEXT_KEY]: { ...rest, workers: again, ...(hub ? { ledgerPort: hub.port } : {}) } },
          reporters: [records],
        },
        viteOverrides,
        { stdout: devNull(), stderr: devNull() },
      );
      await vitest.close();
    } finally {
      await hub?.close();
    }
    return records.record().tests;
  });
  return { confirmed };
}
