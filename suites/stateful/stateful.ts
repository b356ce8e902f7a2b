/**
 * Model-based testing (architecture point 8): fast-check draws command sequences (generate,
 * preauth, increment, complete, cancel, wait, slip, revert, linked and independent refund), runs
 * each against a fresh virtual terminal and against a model of sandbox.md, and checks every answer
 * and every final state through registered checks. A failing sequence is shrunk to the shortest
 * one; the finding prints it with the seed, fast-check's path and a one-line replay command.
 *
 * The sequences are dealt out over {@link STATEFUL_PARTS} scenarios, two a file (stateful.suite.ts,
 * stateful-parts-3-4.suite.ts), which the run's workers run side by side: part k draws with seed
 * `seed + k` (k from 0) and runs its share of the sequences. A replay names the part with `--grep`.
 */
import { appendFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe } from 'vitest';
import { RUNS_IN_RESERVE, type ScenarioNeeds, TimeBox, scenario, workerContext } from '../../src/suite.ts';
import { Ahead } from '../_setup/ahead.ts';
import { type Commands, commandsArb, commandsKey, markRan } from './commands/index.ts';
import { TerminalModel } from './model.ts';
import { type FailedCheck, ModelDeviation, Real, RecordingScope, slimPassedExchanges } from './real.ts';
import { clockSkipper } from '../_setup/steps/clock.ts';
import { REPLAY_COMMANDS_ENV, REPLAY_ENV, replayCommand, replayFromEnv, replayPathIn } from './replay.ts';

/**
 * How many sequences and how long: `quick` (50 runs) gives 10 sequences, each closed after 10
 * convergences (waits and operations) or 30 commands; `thorough` (1000) 200 sequences of 14.
 */
export function settingsFor(runs: number): { numRuns: number; maxCommands: number } {
  return { numRuns: Math.max(1, Math.min(200, Math.round(runs / 5))), maxCommands: runs > 50 ? 14 : 10 };
}

/** How many scenarios share the sequences. */
export const STATEFUL_PARTS = 4;

/** The sequences part `part` (from 0) of `parts` runs out of `numRuns`: the first ones get one more. */
export function sequencesOfPart(numRuns: number, part: number, parts: number): number {
  return Math.floor(numRuns / parts) + (part < numRuns % parts ? 1 : 0);
}

function declaredTimeout(part: number): number {
  try {
    const { numRuns } = settingsFor(workerContext().ctx.runs);
    return Math.max(180_000, sequencesOfPart(numRuns, part, STATEFUL_PARTS) * 20_000);
  } catch {
    return 180_000;
  }
}

/** What the model needs of a run: it predicts sandbox.md's virtual terminal on fresh pairings. */
const NEEDS: ScenarioNeeds = {
  terminal: {
    modes: ['auto'],
    why: 'the model predicts the virtual terminal of sandbox.md: it needs --terminal auto (this run: {terminal})',
  },
  sandboxProfile: 'the model predicts sandbox.md outcomes: it needs the sandbox profile (a sandbox target)',
  mintedOtps: 'every command sequence pairs a fresh virtual terminal: that needs OTPs minted as sandbox.md allows (a sandbox target)',
};

/** A failure of the real side that is not the model's business (no OTP, pairing refused...). */
class SetupFailure extends Error {}

/** What one sequence gave: judged in fast-check's order, which may be after later ones ran. */
interface SequenceOutcome {
  /** The test's exchange count when it started: its exchanges come after. */
  from: number;
  failed: FailedCheck[];
  trace: string[];
  executed: number;
  /** What stopped the model run, when something did (a ModelDeviation, or not the model's business). */
  error?: unknown;
  /** The fresh terminal could not be paired: not the model's business. */
  setup?: unknown;
}

/**
 * How many sequences are under way at once in a part against a target with its own time: each on a
 * fresh terminal of its own (sandbox.md: any OTP pairs "a fresh virtual terminal"), mostly waiting on
 * that terminal's steps and deadlines. On the embedded simulator the terminal's clock is skipped instead.
 */
const SEQUENCES_AHEAD = 3;

/** Sequences as runs sent ahead see them: a pass is no error and no failed check; compared command by command. */
const SEQUENCES = {
  passed: (o: SequenceOutcome) => o.error === undefined && o.failed.length === 0 && o.setup === undefined,
  key: commandsKey,
};

/** Declares part `part` (from 0) of the model-based scenario. */
export function declareStatefulPart(part: number): void {
  const TIMEOUT = declaredTimeout(part);
  const label = `part ${part + 1} of ${STATEFUL_PARTS}`;
  describe('stateful', () => {
    scenario(
      `model-based, ${label}: command sequences against a model of the sandbox`,
      { capability: 'stateful', clause: 'sandbox#transactions', timeout: TIMEOUT, needs: NEEDS },
      async (t) => {
        const ctx = t.harness.ctx;

        const { numRuns: allRuns, maxCommands } = settingsFor(ctx.runs);
        const numRuns = sequencesOfPart(allRuns, part, STATEFUL_PARTS);
        if (numRuns === 0) t.skip(`this run's ${allRuns} sequence(s) are drawn by the first parts (--runs ${ctx.runs})`);
        const seed = (ctx.seed + part) | 0;
        // The embedded simulator's terminal time is skipped, not waited for (_setup/steps/clock.ts).
        const skipAhead = clockSkipper(ctx);
        const replay = replayFromEnv(process.env);
        t.param('seed', `${ctx.seed} (this part draws with ${seed})`);
        t.param('sequences', replay ? `replay of path ${replay.path}` : `${numRuns} of ${allRuns}`);
        t.param('per sequence', `at most ${maxCommands} convergences, ${3 * maxCommands} commands`);

        let runIndex = 0;
        // The test's exchanges before this index are slimmed already, or belong to a sequence that failed.
        let slimmedTo = t.scope.exchanges.length;
        // Where the exchanges of each sequence started and not judged yet begin: they are not slimmed before it is.
        const unjudged: number[] = [];
        const judged = (from: number) => unjudged.splice(unjudged.indexOf(from) >>> 0, 1);
        let last: { failed: FailedCheck[]; error: unknown; trace: string[]; executed: number } | undefined;

        // An error that is not a deviation from the model (pairing refused, network, a toolkit bug) ends
        // the search: the remaining runs pass at once, so fast-check does not shrink it. Set when that
        // sequence is judged, not when it ran: a sequence run ahead does not stop the shrinking of an earlier one.
        let fatal: unknown;

        /** Runs one sequence on a fresh terminal; what it gave, never thrown. */
        const runSequence = async (cmds: Commands): Promise<SequenceOutcome> => {
          const from = t.scope.exchanges.length;
          unjudged.push(from);
          if (fatal !== undefined) return { from, failed: [], trace: [], executed: 0 };
          const scope = new RecordingScope(t.harness, t.scope.testName);
          // The pairing answer is judged on the test's own scope: a defect of pairing is not the model's.
          const run = ++runIndex;
          let attempt: Awaited<ReturnType<typeof t.harness.pairNew>>;
          try {
            attempt = await t.harness.pairNew(t.scope, { webhook: true, name: `stateful-${ctx.seed}-p${part + 1}-${run}` });
          } catch (e) {
            return { from, failed: [], trace: [], executed: 0, setup: e };
          }
          if (!attempt?.pairing) {
            const why = attempt ? `pairing a fresh terminal answered ${attempt.response.status}` : 'no OTP left for a fresh terminal';
            return { from, failed: [], trace: [], executed: 0, setup: new SetupFailure(why) };
          }
          const real = new Real(attempt.pairing, scope, skipAhead);
          const model = new TerminalModel(maxCommands);
          let error: unknown;
          try {
            await fc.asyncModelRun(() => ({ model, real }), cmds);
          } catch (e) {
            error = e;
          }
          try {
            await real.settled(t.scope);
          } catch (e) {
            // An error of the toolkit in a watch behind the sequence is never hidden behind a deviation.
            if (error === undefined || !(e instanceof ModelDeviation)) error = e;
          } finally {
            // The terminal is thrown away: whatever is still pending dies with the pairing.
            await real.call('unpair').catch(() => undefined);
            await t.harness.forget(attempt.pairing);
          }
          // PAYCONNECT_STATEFUL_TRACE=<file>: every sequence's trace, for reading what the model did.
          const traceFile = process.env.PAYCONNECT_STATEFUL_TRACE;
          if (traceFile)
            appendFileSync(
              traceFile,
              `--- run ${run}: ${String(cmds)}\n${real.trace.join('\n')}\n${error ? `!! ${String((error as Error)?.message ?? error)}\n` : ''}`,
            );
          return {
            from,
            failed: [...scope.failed],
            trace: real.trace,
            executed: model.executed,
            ...(error === undefined ? {} : { error }),
          };
        };

        /** Judges a sequence's outcome in fast-check's order: throws to tell fast-check it failed. */
        const judge = (o: SequenceOutcome): void => {
          judged(o.from);
          if (o.setup !== undefined) {
            fatal = o.setup;
            throw o.setup;
          }
          if (o.error === undefined && o.failed.length === 0) {
            // Only up to the first sequence still under way or not judged: its exchanges may yet be a counterexample's.
            const to = Math.min(t.scope.exchanges.length - 10, ...unjudged);
            slimPassedExchanges(t.scope, slimmedTo, to);
            slimmedTo = Math.max(slimmedTo, to);
            return;
          }
          // A failed sequence's runs ahead were waited for (Ahead) and are never judged: fast-check shrinks next.
          unjudged.length = 0;
          slimmedTo = t.scope.exchanges.length;
          if (o.error !== undefined && !(o.error instanceof ModelDeviation) && o.failed.length === 0) {
            fatal = o.error;
            throw o.error;
          }
          last = { failed: o.failed, error: o.error, trace: o.trace, executed: o.executed };
          throw o.error ?? new ModelDeviation(o.failed[0]!.message);
        };

        // Against a target with its own time (no clock to skip), sequences go ahead, each on its own
        // fresh terminal: a sequence mostly waits on that terminal's steps and deadlines.
        const ahead = skipAhead || replay ? 1 : SEQUENCES_AHEAD;
        const runs = new Ahead(ahead > 1 ? fc.sample(commandsArb(maxCommands), { seed, numRuns }) : [], ahead, runSequence, SEQUENCES);
        // A sequence starts only while the scenario's budget can hold it at the pace of those so far
        // (with sequences under way at once, the time left once the longest so far would end).
        const timeLeft = () => t.timeLeft() - (ahead > 1 ? runs.longestMs : 0);
        const box = new TimeBox({ timeLeft, exchanges: () => t.scope.exchanges, budgetCut: () => t.budgetCut() }, numRuns, 'sequence');
        const mayStartAhead = () => timeLeft() >= RUNS_IN_RESERVE * box.paceMs;
        const property = fc.asyncProperty(commandsArb(maxCommands, replay?.replayPath), (cmds) =>
          box.run(async () => {
            if (fatal !== undefined) return;
            const taken = await runs.take(cmds, mayStartAhead);
            // fast-check shrinks and prints the commands of its own value that ran: those the run ahead ran.
            if (taken.ahead) markRan(taken.ran, cmds);
            judge(taken.result);
          }, undefined),
        );

        const started = Date.now();
        const details = await fc.check(property, {
          seed,
          numRuns,
          // A replay runs the reported sequence once: no new search, no further shrinking.
          ...(replay ? { path: replay.path, endOnFailure: true } : {}),
        });
        await runs.drain();
        t.param('duration', `${((Date.now() - started) / 1000).toFixed(1)} s, ${runIndex} sequence runs`);
        t.param('sequences run', box.summary());
        const unchecked = details.failed ? undefined : box.notChecked(`model-based, ${label}`);
        if (unchecked) t.scope.notChecked.add(unchecked);
        if (fatal instanceof SetupFailure) t.scope.block(fatal.message);
        if (fatal !== undefined) throw fatal instanceof Error ? fatal : new Error(String(fatal));
        if (!details.failed) {
          if (replay) t.param('replay', `path ${replay.path} passed: the failure did not reproduce`);
          return;
        }

        const error = details.errorInstance;
        const failures = last?.failed ?? [];

        const sequence = String(details.counterexample?.[0] ?? '');
        const path = details.counterexamplePath ?? '';
        const replayPath = replayPathIn(sequence) ?? replay?.replayPath;
        const replayCmd = replayCommand(ctx, ctx.seed, path, replayPath, `part.${part + 1}.of.${STATEFUL_PARTS}`);
        const stateful = {
          sequence,
          seed: ctx.seed,
          part: part + 1,
          path,
          replay: replayCmd,
          env: { [REPLAY_ENV]: path, [REPLAY_COMMANDS_ENV]: replayPath },
        };
        const [findingsBefore, repeatsBefore] = [t.scope.findings.length, t.scope.repeats.length];
        for (const f of failures) t.scope.checkRecorded(f.id, f.input, { ...f.extra, stateful, trace: last?.trace });
        t.param('counterexample', sequence);
        t.param('replay', replayCmd);
        // A sequence that broke only on defects earlier tests reported is one more sighting of them (the
        // repeats say so), not a defect of its own: one defect, one finding.
        if (failures.length > 0 && t.scope.findings.length === findingsBefore && t.scope.repeats.length > repeatsBefore) return;
        t.scope.check('model.counterexample', {
          sequence,
          commands: last?.executed ?? 0,
          seed: ctx.seed,
          path,
          replay: replayCmd,
          failures: failures.length > 0 ? failures.map((f) => `[${f.id}] ${f.message}`) : [String((error as Error)?.message ?? error)],
          trace: last?.trace ?? [],
          numShrinks: details.numShrinks,
        });
      },
    );
  });
}
