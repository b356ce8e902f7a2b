/**
 * The embedded simulator's settings, one row each: `sim`'s flag, `run`'s option (its flag and config
 * key are run's row of that key, flags.ts), the value's kind (parser, range, JSON Schema), the
 * simulator's default and run's where it differs, and what it means. Read by `sim`
 * (cli/sim-command.ts), by `run`'s --sim-* rows, their resolution and their schema (flags.ts,
 * resolve.ts, json-schema.ts) and by the simulator's own check of its options (simulator/options.ts),
 * so a range is the same whether a user types it, writes it in a config file or passes it to
 * startSimulator. It imports only parsers: the simulator may import this one file of config.
 */
import { InvalidValue, durationWithin, faultId, list } from './parsers.ts';
import type { OptionKey } from './types.ts';
import { booleanKind, choiceKind, durationKind, integerKind, probabilityKind, type ValueKind } from './value-kinds.ts';

/** One setting of the simulator (see the module comment). */
export interface SimSetting<T> {
  /** `sim`'s flag; absent: only the API sets it. */
  readonly simFlag?: string;
  /** `run`'s option that sets it, where run does; absent: only `sim` and the API set it. */
  readonly runKey?: OptionKey;
  readonly kind: ValueKind<T>;
  /** The simulator's default, as `sim` and startSimulator use it; absent: none (the seed: random). */
  readonly default?: T;
  /** `run`'s default, where it differs from the simulator's (the doc says why). */
  readonly runDefault?: T;
  /** What it means, as help shows it. */
  readonly doc: string;
}

/** The longest idle time `keepAlive` takes. */
export const KEEP_ALIVE_MAX_MS = 600_000;
const keepAliveDuration = durationWithin(1, KEEP_ALIVE_MAX_MS);
/** `announced`, `close`, or a duration of idle after which a connection is closed unannounced. */
const keepAliveKind: ValueKind<'announced' | 'close' | number> = {
  parse: (value, fromText) => (value === 'announced' || value === 'close' ? value : keepAliveDuration(value, fromText)),
  schema: { oneOf: [{ enum: ['announced', 'close'] }, { type: 'integer', minimum: 1, maximum: KEEP_ALIVE_MAX_MS }] },
  range: 'announced|close|1ms to 10m',
  expected: `"announced", "close" or a whole number of ms from 1 to ${KEEP_ALIVE_MAX_MS}`,
  accepts: (value): value is 'announced' | 'close' | number =>
    value === 'announced' ||
    value === 'close' ||
    (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= KEEP_ALIVE_MAX_MS),
};

/** Fault ids, by shape: which ids exist is the simulator's to say (its fault table). */
const faultsKind: ValueKind<string[]> = {
  parse: list(faultId, 'give fault ids as an array of strings'),
  schema: { type: 'array', items: { type: 'string' } },
  range: 'fault ids',
  expected: 'an array of fault ids',
  accepts: (value): value is string[] => Array.isArray(value) && value.every((v) => typeof v === 'string'),
};

const hostKind: ValueKind<string> = {
  parse: (value) => {
    if (typeof value !== 'string' || value.trim() === '') throw new InvalidValue('is empty', 'give an address, e.g. 127.0.0.1');
    return value.trim();
  },
  schema: { type: 'string', minLength: 1 },
  range: 'an address',
  expected: 'a host name or IP address',
  accepts: (value): value is string => typeof value === 'string' && value !== '',
};

/** The highest seed: the simulator reads a seed's 32 bits, unsigned. */
const SEED_MAX = 2 ** 32 - 1;

/** Every setting of the simulator that has a range, by its option name (SimulatorOptions). */
export const SIM_SETTINGS = {
  host: { simFlag: 'host', kind: hostKind, default: '127.0.0.1', doc: 'The address to listen on' } satisfies SimSetting<string>,
  port: {
    simFlag: 'port',
    kind: integerKind(0, 65_535, 'give a port number from 0 to 65535 (0 picks a free one)'),
    default: 0,
    doc: 'The port to listen on (0: any free port)',
  } satisfies SimSetting<number>,
  // The two defaults differ on purpose: `sim` paces its terminal for a person or a client under
  // development to watch; `run` takes a quicker one (and a deadline shorter in step) so a run is short.
  stepDelayMs: {
    simFlag: 'step-delay',
    runKey: 'sim.stepDelay',
    kind: durationKind(0, 1000),
    default: 50,
    runDefault: 20,
    doc: 'Delay of each step of the virtual terminal (pick up, finish, cancel signal)',
  } satisfies SimSetting<number>,
  deadlineMs: {
    simFlag: 'deadline',
    runKey: 'sim.deadline',
    kind: durationKind(1, 10_000),
    default: 3000,
    runDefault: 1500,
    doc: 'How long a transaction may wait before it is EXPIRED, more than two step delays',
  } satisfies SimSetting<number>,
  manualDeadlineMs: {
    simFlag: 'manual-deadline',
    kind: durationKind(1000, 3_600_000),
    default: 120_000,
    doc: 'With a manual terminal: a transaction given no action expires after this long, more than two step delays',
  } satisfies SimSetting<number>,
  webhookRetryScale: {
    simFlag: 'webhook-retry-scale',
    kind: probabilityKind('give a number above 0 and at most 1, e.g. 0.01'),
    default: 0.01,
    doc: 'A factor on the 5/10/20/40/80 s webhook retry schedule, above 0 and at most 1',
  } satisfies SimSetting<number>,
  seed: {
    simFlag: 'seed',
    kind: integerKind(0, SEED_MAX, `give a whole number from 0 to ${SEED_MAX}`),
    doc: `The seed of ids and OTPs, 0 to ${SEED_MAX} (run: derived from --seed, see simulatorSeedOf)`,
  } satisfies SimSetting<number>,
  faults: {
    simFlag: 'fault',
    runKey: 'sim.faults',
    kind: faultsKind,
    default: [],
    doc: 'A fault switch; repeat for several',
  } satisfies SimSetting<string[]>,
  faultRate: {
    simFlag: 'fault-rate',
    runKey: 'sim.faultRate',
    kind: probabilityKind(
      'give a probability above 0 and at most 1 (a probability such as 0.3: 30 % of the decisions a fault switch makes; 1: always)',
    ),
    default: 1,
    doc:
      'The probability, above 0 and at most 1, that an active fault switch acts each time it is consulted (a request, a terminal ' +
      'step, a delivery), drawn from the seed: below 1 the defects are intermittent',
  } satisfies SimSetting<number>,
  terminal: {
    simFlag: 'terminal',
    runKey: 'sim.terminal',
    kind: choiceKind(['auto', 'manual']),
    default: 'auto',
    doc: "auto: the amount's last two digits decide the outcome; manual: the virtual terminal waits for an operator action",
  } satisfies SimSetting<'auto' | 'manual'>,
  liberal: {
    simFlag: 'liberal',
    runKey: 'sim.liberal',
    kind: booleanKind,
    default: false,
    doc: 'The liberal sandbox: the simulator takes every liberty the documents leave open (src/simulator/liberties.ts)',
  } satisfies SimSetting<boolean>,
  keepAlive: {
    simFlag: 'keep-alive',
    kind: keepAliveKind,
    default: 'announced',
    doc: 'What the server does with a connection after an answer: announced (kept 5 s), close, or closed after a duration idle',
  } satisfies SimSetting<'announced' | 'close' | number>,
  tokenLifetimeSec: {
    kind: integerKind(1, 86_400 * 365, 'give a positive whole number of seconds'),
    default: 3600,
    doc: 'Token lifetime in seconds, reported as expires_in',
  } satisfies SimSetting<number>,
  maxFinalPerTerminal: {
    kind: integerKind(1, 1_000_000, 'give a whole number from 1 to 1000000'),
    default: 1000,
    doc: 'Final transactions kept per terminal; older ones are evicted and answer 404',
  } satisfies SimSetting<number>,
} as const;

/** A simulator option of the table. */
export type SimSettingName = keyof typeof SIM_SETTINGS;

/**
 * The rule between two settings: a deadline the virtual terminal can meet takes more than two step
 * delays (a pick-up and a finish).
 */
export function holdsTwoSteps(deadlineMs: number, stepDelayMs: number): boolean {
  return deadlineMs > 2 * stepDelayMs;
}

/**
 * The simulator's seed for a run's seed. A run's seed is any 32-bit integer, signed or not (the help
 * offers `--seed -5`); the simulator's is 0 to 2^32 - 1 (`sim --seed`), and its random source reads a
 * seed's 32 bits unsigned. Their unsigned reading is the same stream a negative seed would give, and
 * leaves every seed from 0 up as it is, so a run replays with the seed it printed.
 */
export function simulatorSeedOf(runSeed: number): number {
  return runSeed >>> 0;
}
