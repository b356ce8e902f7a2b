import { SIM_SETTINGS } from './sim-settings.ts';

/**
 * Every default of the configuration, in one place. The help text and the resolver both read them
 * from here, so a default changed here is changed everywhere.
 */
export const DEFAULTS = Object.freeze({
  /** @default 'sim' */
  target: 'sim',
  /** The integrator id used with the simulator when none is given. @default 'sim-integrator' */
  simIntegratorId: 'sim-integrator',
  /** Relative to the working directory. @default '.payconnect/vault.json' */
  vault: '.payconnect/vault.json',
  /** @default 'sandbox' */
  profile: 'sandbox',
  /** @default 'auto' */
  terminal: 'auto',
  /** Loopback only, any free port. @default '127.0.0.1:0' */
  webhookListen: '127.0.0.1:0',
  /** Convergence deadline with the simulator, which answers fast. @default 10_000 */
  deadlineSimMs: 10_000,
  /** A manual session: the wait for a person at the terminal (the terminal itself times out sooner). */
  deadlineManualMs: 300_000,
  /** Convergence deadline with a real or Pact target, where a person may be at the terminal. @default 120_000 */
  deadlineMs: 120_000,
  /**
   * Convergence deadline against a sandbox URL driven by amount (auto mode): a sandbox expires a
   * waiting transaction within 10 s (sandbox.md), and a delivery refused twice comes back after the
   * profile's first two retries (5 + 10 s): 20 s fits both, so the retry scenario runs. A wait for a
   * service that never converges then costs seconds, not minutes. @default 20_000
   */
  deadlineSandboxMs: 20_000,
  /** The run's time budget with the simulator (a clean run takes under a minute). @default 300_000 */
  maxDurationSimMs: 300_000,
  /** The run's time budget against a URL or Pact target. @default 900_000 */
  maxDurationMs: 900_000,
  /** A manual session's time budget: an afternoon at the terminal (interrupted ones go on with --resume). */
  maxDurationManualMs: 4 * 3_600_000,
  /** Absent: every suite runs. @default [] */
  suites: Object.freeze([]) as readonly never[],
  /** @default false */
  strict: false,
  /** Relative to the working directory. @default 'reports' */
  reports: 'reports',
  /** @default false */
  allowProduction: false,
  /** One euro, in cents. @default 100 */
  maxAmount: 100,
  /** @default true */
  html: true,
  /**
   * Terminals used at once (each a pairing, a test at a time on it) where new pairings can be had,
   * against a URL: the tests mostly wait for the service's terminal steps and answers, so terminals pay
   * off beyond the cores. They are driven by a worker per four suite files, a worker per two of them
   * at most (engine workersFor), each running a test on each of its terminals at once. A sandbox pairs
   * a fresh virtual terminal for every OTP (sandbox.md, Pairing). Measured on 2 cores against `sim
   * --step-delay 100 --deadline 2500` (HTML included): 8 terminals 12.6-15.2 s (median 14.0), 12
   * 12.8-14.4 s, 16 11.7-12.9 s (median 11.7), about the same CPU (12-19 CPU-s; the processes together
   * about 90 MB more); with every answer 300 ms late, 8 took 48.3-48.8 s, 12 38 s and 16 32.9-35.2 s.
   * @default 16
   */
  terminals: 16,
  /**
   * The same against the embedded simulator, whose terminals cost only a pairing: the workers (a
   * start each) and not the terminals cost CPU. Measured on 2 cores (HTML included, two workers):
   * 8 terminals 15.0-15.2 s, 4 terminals 16.3-16.7 s, both about 18 CPU-s; one worker per terminal
   * took 16.8 s and 22.9 CPU-s with 4.
   * @default 8
   */
  terminalsSim: 8,
  /** The same on a one-core machine: one worker, whose tests queue up for the core. @default 2 */
  terminalsOneCore: 2,
  /** @default 'quick' */
  runs: 'quick',
  /** What each `runs` preset means. @default { quick: 50, thorough: 1000 } */
  runsPresets: Object.freeze({ quick: 50, thorough: 1000 }),
  /** Failed tests are not run again unless --confirm says so. @default 0 */
  confirm: 0,
  /** The simulator's settings as `run` starts it: its table's run defaults (sim-settings.ts says why they differ from `sim`'s). */
  sim: Object.freeze({
    /** @default [] */
    faults: Object.freeze([]) as readonly string[],
    /** Fault switches act every time they are consulted. @default 1 */
    faultRate: SIM_SETTINGS.faultRate.default,
    /** @default 20 */
    stepDelayMs: SIM_SETTINGS.stepDelayMs.runDefault,
    /** @default 1500 */
    deadlineMs: SIM_SETTINGS.deadlineMs.runDefault,
  }),
  /**
   * Looked for in the working directory, in this order, when no config file is named.
   * @default ['payconnect.config.ts', 'payconnect.config.mjs', 'payconnect.config.js']
   */
  configFiles: Object.freeze(['payconnect.config.ts', 'payconnect.config.mjs', 'payconnect.config.js'] as const),
  /** The name `pair` gives a pairing unless --name says otherwise. @default 'payconnect-conformance' */
  pairName: 'payconnect-conformance',
  /** `report`: the port the report is served on, on 127.0.0.1 (0: a free one). @default 0 */
  reportPort: 0,
  /** `check-pact`: where its reports go. @default 'reports/pact-check' */
  checkPactReports: 'reports/pact-check',
  /** `check-receiver`: an answer later than this is a warning; and where its reports go. */
  checkReceiver: Object.freeze({
    /** @default 10_000 */
    timeoutMs: 10_000,
    /** @default 'reports/receiver' */
    reports: 'reports/receiver',
  }),
  /** `certify-client`. */
  certifyClient: Object.freeze({
    /** The client's command is killed after this long. @default 120_000 */
    timeoutMs: 120_000,
    /** The integrator id given to the client. @default 'pos-client' */
    integratorId: 'pos-client',
  }),
  /** `sim`: how many fresh OTPs it prints at the start. @default 5 */
  simOtps: 5,
} as const);
