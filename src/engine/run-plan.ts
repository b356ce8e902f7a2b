/**
 * The run's plan: how many terminals, vitest workers and lanes, which pool, how the run waits on its
 * target and how long a test may take. A pure function of the settings, the open target and what
 * the vault holds (planRun), tested on its own; the run's tasks (run-conformance.ts) carry it out.
 */
import { availableParallelism } from 'node:os';
import type { ResolvedConfig } from '../config/index.ts';
import type { Target, TargetPace } from '../targets/index.ts';

/**
 * How many terminals the run uses, and why fewer than asked. Each terminal is paired or taken on its
 * own, so it needs OTPs the target mints, or pairings of its own in the vault or `--otp`.
 */
export function terminalsFor(
  config: ResolvedConfig,
  target: Pick<Target, 'mintOtps'>,
  vaultPairings: number,
): { terminals: number; reason?: string } {
  const asked = config.terminals;
  if (asked <= 1) return { terminals: 1 };
  if (config.terminal === 'manual') return { terminals: 1, reason: 'a person at the terminal drives one terminal' };
  if (config.target.kind === 'pact') return { terminals: 1, reason: 'the Pact mock keeps to one pairing' };
  if (config.webhookListen.port !== 0)
    return { terminals: 1, reason: `the webhook receiver listens on the fixed port ${config.webhookListen.port}` };
  if (target.mintOtps) return { terminals: asked };
  const own = vaultPairings + config.otps.length;
  if (config.sources.terminals === 'default')
    return { terminals: 1, reason: 'a service that does not mint OTPs gets one terminal unless --terminals says otherwise' };
  const terminals = Math.max(1, Math.min(asked, own));
  return terminals < asked
    ? { terminals, reason: `only ${own} pairing${own === 1 ? '' : 's'} (vault and --otp) for ${asked} terminals` }
    : { terminals };
}

/** Suite files a worker takes before another one is worth its start. */
const FILES_PER_WORKER = 4;

/**
 * Against a service (a URL: its terminals take their own time), the fewest terminals a worker drives:
 * two (the default 16 terminals over 19 files: five workers of up to four).
 * There the tests wait on the clock, not the cores (a URL run keeps 0.8 of 2 cores busy), and a
 * worker's chain of files is what a run lasts: a worker runs one file at a time, and a file lasts as
 * long as its longest test (the model-based parts, the expiry at the deadline, the token renewal),
 * its other lanes idle meanwhile. Two lanes a worker idle fewer terminals behind each such test, and
 * more workers split the chain. Measured on 2 cores against `sim --step-delay 100 --deadline 2500`,
 * 8 terminals (seed 101, twice each): three workers 15.6-16.1 s; four of two lanes 14.0-14.1 s for
 * 0.5 CPU-s and about 100 MB more (the run's processes together: 600 to 700 MB); six (2, 2, 1, 1, 1,
 * 1) 15.3-16.1 s: a one-lane worker runs a file's tests one after another.
 */
const LANES_AGAINST_A_SERVICE = 2;

/** The most workers a run against a service starts (each a process of about 100 MB), on up to five cores. */
const MAX_WORKERS_AGAINST_A_SERVICE = 6;

/**
 * How many vitest workers drive `terminals`: one per {@link FILES_PER_WORKER} suite files (vitest
 * hands a worker whole files; fewer files a worker do not pay for its start: four of the suites
 * against a URL took 6.9 s and 3.0 CPU-s on one worker, 5.9-6.2 s and 4.9-5.4 CPU-s on four), within
 * a cap. Against the embedded simulator (`againstAService` false: its clock skips the waits, so the
 * tests are bound by the cores) the cap is the cores: a worker's tests mostly compute, so one worker
 * drives several terminals, a test on each at once (its lanes), instead of a process per terminal:
 * each costs a start (about 0.6 CPU-s) and competes for the cores. On 2 cores a third worker once
 * paid for itself (a full sim run 9.4-11.1 s with two, 7.0-8.1 s with three); since the runs'
 * processes start faster and the token renewal's wait starts first (run-suites.ts), two beat three:
 * default runs interleaved with the same seed, two workers won 17 of 21 for 1-2 CPU-s less each
 * (medians of five, 9.31 s against 9.52; of six, 9.08 against 9.59).
 * Against a service the cap is a worker per {@link LANES_AGAINST_A_SERVICE} terminals, at most
 * {@link MAX_WORKERS_AGAINST_A_SERVICE} or one more than the cores: there the tests wait on the clock.
 *
 * One core keeps its one worker, a thread of the run's process ({@link poolFor}). `alone` of the
 * files are long and hold fewer tests than a worker's lanes (the model-based parts, two a file): one
 * after another in one worker they would take twice as long as side by side, so each gets a worker
 * of its own, within the cap.
 */
export function workersFor(
  terminals: number,
  files: number,
  cores: number = availableParallelism(),
  alone = 0,
  againstAService = false,
): number {
  if (cores <= 1) return 1;
  const cap = againstAService
    ? Math.min(Math.ceil(terminals / LANES_AGAINST_A_SERVICE), Math.max(MAX_WORKERS_AGAINST_A_SERVICE, cores + 1))
    : Math.min(terminals, cores);
  return Math.max(1, Math.min(cap, Math.max(alone, Math.ceil(files / FILES_PER_WORKER))));
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

/** What the run will do, decided before anything runs. */
export interface RunPlan {
  terminals: number;
  /** Why fewer terminals than asked, when so. */
  terminalsReason?: string;
  workers: number;
  /** Tests at once in a worker: one per terminal of its own (the first workers may have one more). */
  lanes: number;
  pool: 'threads' | 'forks';
  /** How the run waits on the target: the target's own pace, or `--settle` where given. */
  pace: TargetPace;
  /** How long one test (and one hook) may take before vitest gives it up. */
  perTestMs: number;
  /**
   * The run's pairings are its own: a receiver on a port chosen for this run and a target that mints
   * OTPs, so pairing again costs nothing and they are unpaired at the end. An OTP a person read off a
   * terminal is precious: that pairing stays for the next run.
   */
  ephemeralPairings: boolean;
}

/**
 * The plan of a run of `config` on `target`, whose vault holds `vaultPairings` of its pairings, over
 * `suiteFiles` files, `alone` of which want a worker each (see {@link workersFor}).
 */
export function planRun(
  config: ResolvedConfig,
  target: Pick<Target, 'kind' | 'mintOtps' | 'pace' | 'webhookListen'>,
  vaultPairings: number,
  suiteFiles: number,
  cores?: number,
  alone = 0,
): RunPlan {
  const { terminals, reason } = terminalsFor(config, target, vaultPairings);
  const workers = workersFor(terminals, suiteFiles, cores, alone, target.kind === 'url');
  const listen = target.webhookListen ?? config.webhookListen;
  return {
    terminals,
    ...(reason ? { terminalsReason: reason } : {}),
    workers,
    lanes: Math.ceil(terminals / workers),
    pool: poolFor(workers),
    pace: config.settleMs === undefined ? target.pace : { settleMs: config.settleMs, webhookGraceMs: target.pace.webhookGraceMs },
    perTestMs: config.terminal === 'manual' ? 30 * 60_000 : Math.max(60_000, config.deadlineMs * 6),
    ephemeralPairings: target.kind === 'url' && target.mintOtps && listen.port === 0 && !config.webhookPublicUrl,
  };
}
