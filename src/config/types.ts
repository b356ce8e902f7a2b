/**
 * The vocabulary of the configuration: what a user may write (all optional) and what the run gets
 * (everything resolved). The CLI flags, the environment variables and the config-file keys are all
 * typed from {@link UserConfig}, so adding an option here is what makes the rest fail to compile.
 */
import type { TransportSettings } from '../transport/transport.ts';

/** Every suite a run can select, by name (the folders of `suites/`). */
/** The coverage kinds `--require-coverage` takes (the report's REQUIRABLE_COVERAGE_KINDS; a test keeps them equal). */
export const COVERAGE_REQUIRABLE = ['operations', 'statuses', 'enums', 'transitions', 'events', 'clauses'] as const;

export const SUITE_NAMES = [
  'pairing',
  'auth',
  'config',
  'payment',
  'cancel',
  'preauth',
  'print-slip',
  'webhooks',
  'isolation',
  'refund',
  'properties',
  'stateful',
] as const;

/** A suite name. */
export type SuiteName = (typeof SUITE_NAMES)[number];

/** The behaviour profiles the checks can assume (see the profile/ folder). */
export const PROFILE_NAMES = ['sandbox', 'public'] as const;

/** A behaviour profile: `sandbox` (documented sandbox outcomes) or `public` (the public spec only). */
export type ProfileName = (typeof PROFILE_NAMES)[number];

/** How the physical terminal is driven. */
export const TERMINAL_MODES = ['auto', 'manual', 'observe'] as const;

/** `auto` (sandbox outcomes), `manual` (operator prompts) or `observe` (watch only). */
export type TerminalMode = (typeof TERMINAL_MODES)[number];

/** The named presets of `runs`. */
export const RUNS_PRESETS = ['quick', 'thorough'] as const;

/** A named preset of property/stateful runs. */
export type RunsPreset = (typeof RUNS_PRESETS)[number];

/** A duration: `500ms`, `30s`, `2m`, a digit string of milliseconds, or a number of milliseconds. */
export type Duration = string | number;

/** Settings of the embedded simulator; only meaningful with `target: 'sim'`. */
export interface SimUserConfig {
  /** Fault switches to turn on (ids of the simulator's fault table). */
  faults?: readonly string[];
  /** Delay between two steps of the virtual terminal. */
  stepDelay?: Duration;
  /** The simulator's own deadline for a terminal operation. */
  deadline?: Duration;
  /**
   * The probability, above 0 and at most 1, that an active fault switch acts each time it is consulted
   * (drawn from the run's seed): below 1 the faults are intermittent defects. @default 1
   */
  faultRate?: number;
  /**
   * `manual`: the virtual terminal waits for an operator action (`POST /_sim/terminals/{id}/actions`)
   * instead of deciding by the amount; the run then drives the terminal in manual mode. @default 'auto'
   */
  terminal?: SimTerminalMode;
  /**
   * The liberal sandbox: the simulator takes every liberty the documents leave open
   * (src/simulator/liberties.ts), and the run paces itself as against a URL. @default false
   */
  liberal?: boolean;
}

/** How the embedded simulator's virtual terminal decides an outcome. */
export const SIM_TERMINAL_MODES = ['auto', 'manual'] as const;
export type SimTerminalMode = (typeof SIM_TERMINAL_MODES)[number];

/**
 * What a user writes in `payconnect.config.ts` (every key optional). Each key is also a `run` flag
 * and a `PAYCONNECT_*` environment variable; precedence is flag > environment > file > default.
 * Relative paths in a config file are resolved against the file's folder.
 */
export interface UserConfig {
  /** `sim` (the embedded simulator), `pact` (the Pact mock), or the base URL of a service. */
  target?: string;
  /** The integrator id sent with every request; required for a URL target. */
  integratorId?: string;
  /** Pairing one-time passwords (six digits each), used in order. */
  otp?: readonly string[];
  /** The vault file holding pairing credentials. */
  vault?: string;
  /** The behaviour profile the checks assume (`sim` implies `sandbox`). */
  profile?: ProfileName;
  /** How the terminal is driven. */
  terminal?: TerminalMode;
  /** Where the webhook receiver listens, `host:port` (port 0 picks a free one). */
  webhookListen?: string;
  /** The public URL that forwards to the receiver, when the service cannot reach it directly. */
  webhookPublicUrl?: string;
  /** Serve the receiver over HTTPS with this PEM certificate (with webhookTlsKey). */
  webhookTlsCert?: string;
  /** The PEM private key of webhookTlsCert. */
  webhookTlsKey?: string;
  /** The convergence deadline of an operation. */
  deadline?: Duration;
  /** How long to keep watching after a final status (a status must not change after it). */
  settle?: Duration;
  /** The run's time budget: past it, unfinished tests stop and the run fails. */
  maxDuration?: Duration;
  /**
   * Opt-in gate: every answer slower than this is a finding (`response.time-within-limit`). No
   * document sets a time limit, so without it slowness is never judged. @default none
   */
  maxResponseTime?: Duration;
  /** The seed of every random choice (property and stateful tests), to replay a run. */
  seed?: number;
  /** The suites to run; empty or absent means all. */
  suites?: readonly SuiteName[];
  /** Only the scenarios whose name matches this regular expression (like vitest's -t). */
  grep?: string;
  /** Turn warnings into failures. */
  strict?: boolean;
  /** Progress as a line per finished suite file instead of one per test. */
  quiet?: boolean;
  /** The folder the reports are written to. */
  reports?: string;
  /** Allow a production target (the safety policy lives elsewhere; this only carries the choice). */
  allowProduction?: boolean;
  /** The largest amount, in cents, that may be sent to a non-sandbox target. */
  maxAmount?: number;
  /** Write the HTML report. */
  html?: boolean;
  /** Property/stateful runs: `quick`, `thorough` or a positive number. */
  runs?: RunsPreset | number;
  /**
   * How many terminals the run uses at once: that many workers, each on its own pairing. Used where
   * new pairings can be had (a sandbox mints OTPs); elsewhere one. @default 4 with sim, 8 against a URL
   * (2 on a one-core machine)
   */
  terminals?: number;
  /** Run only this part of the test files, `i/n` (CI shards; merge the reports with `merge-reports`). */
  shard?: string;
  /**
   * Labels of the run (`firmware: '4.2.1'`, `terminal: 'SN-0042'`, `tester: '...'`), shown in every
   * report. As flags and in the environment: `key=value` items.
   */
  labels?: Readonly<Record<string, string>> | readonly string[];
  /** Continue the interrupted session whose state is in the reports folder, without repeating what passed. */
  resume?: boolean;
  /**
   * A baseline file of known defects (JSON, or YAML for .yaml/.yml): a finding an entry matches is
   * reported as known and fails nothing; an expired entry fails the run. Relative: from the config file's folder.
   */
  baseline?: string;
  /** An earlier run's reports folder to compare this run with at its end (the compare command's BASE). */
  compareTo?: string;
  /**
   * An Ed25519 private key (PEM) to sign the run's reports with: certificate.intoto.json, an in-toto
   * test-result statement in a DSSE envelope (`verify-certificate` checks it). Its passphrase comes
   * from PAYCONNECT_SIGNING_KEY_PASSPHRASE only. Also PAYCONNECT_SIGNING_KEY_FILE.
   */
  signKey?: string;
  /**
   * Run each failed test again up to this many times, each on a fresh scope: a finding seen every time
   * is deterministic, one that is not is intermittent (still a finding, with its rate). @default 0
   */
  confirm?: number;
  /** Settings of the embedded simulator. */
  sim?: SimUserConfig;
  /** Settings of the checks. */
  checks?: ChecksUserConfig;
  /** The coverage the run must reach. */
  coverage?: CoverageUserConfig;
  /** TLS towards the service: a private CA, a client certificate. Relative paths: from the config file's folder. */
  tls?: TlsUserConfig;
  /** A forward proxy for every connection to the service (else HTTPS_PROXY / HTTP_PROXY; NO_PROXY applies). */
  proxy?: string;
}

/** TLS towards the service. */
export interface TlsUserConfig {
  /** A PEM file of CA certificates to trust besides the system's. */
  caFile?: string;
  /** A client certificate: PEM (with clientKey) or PKCS#12 (.p12, .pfx). */
  clientCert?: string;
  /** The PEM private key of clientCert (its passphrase: PAYCONNECT_CLIENT_KEY_PASSPHRASE). */
  clientKey?: string;
}

/** Settings of the checks. */
export interface ChecksUserConfig {
  /**
   * Check ids not to run (see the reports for ids): their findings are not made, and the reports and
   * the certification list them as disabled. An unknown id is an error.
   */
  disable?: readonly string[];
}

/** Settings of the coverage the run must reach. */
export interface CoverageUserConfig {
  /**
   * Kinds that must be covered whole (operations, statuses, enums, transitions, events, clauses): an
   * item never seen fails the run (exit 1), named in the console, summary.json and the certification.
   */
  require?: readonly string[];
  /**
   * Items the gate does not require, each with why: what the service cannot be made to show from
   * outside (`{ item: 'getToken 500', reason: 'a server error cannot be caused from outside' }`). An
   * item is named as the reports name it (`PrintSlip.tags[]=overpaid`, `operation INITIATED -> FAILED`,
   * `spec#versioning`); `*` matches any text. Excluded items are listed, with the reason, in
   * summary.json, coverage.json and the certification; one that names no item is an error.
   */
  exclude?: readonly CoverageExclusionConfig[];
}

/** One item of `coverage.exclude`: the item (as the reports name it; `*` matches any text) and why it is not required. */
export interface CoverageExclusionConfig {
  item: string;
  reason: string;
}

/** Where a resolved value came from. */
export type ConfigSource = 'flag' | 'env' | 'file' | 'default';

/** The name of an option: a {@link UserConfig} key, `sim.*` dotted, or `config` (the file itself). */
export type OptionKey =
  | Exclude<keyof UserConfig, 'sim' | 'checks' | 'tls' | 'coverage'>
  | `sim.${keyof SimUserConfig}`
  | `checks.${keyof ChecksUserConfig}`
  | `tls.${keyof TlsUserConfig}`
  | `coverage.${keyof CoverageUserConfig}`
  | 'config';

/** The resolved target. */
export type ResolvedTarget = { kind: 'sim' } | { kind: 'url'; baseUrl: string } | { kind: 'pact' };

/** The configuration a run works with: every value resolved, validated and normalized. */
export interface ResolvedConfig {
  readonly target: ResolvedTarget;
  /** Undefined only for a `pact` target without an explicit id. */
  readonly integratorId: string | undefined;
  readonly otps: string[];
  /** Absolute. */
  readonly vaultPath: string;
  readonly profile: ProfileName;
  readonly terminal: TerminalMode;
  readonly webhookListen: { host: string; port: number };
  readonly webhookPublicUrl: string | undefined;
  /** The receiver serves HTTPS with these PEM files (absolute paths); undefined: HTTP. */
  readonly webhookTls: { certFile: string; keyFile: string } | undefined;
  readonly deadlineMs: number;
  /** Undefined: four simulator steps with sim, 1 s otherwise. */
  readonly settleMs: number | undefined;
  readonly maxDurationMs: number;
  /** --max-response-time: answers slower than this are findings; undefined: slowness is not judged. */
  readonly maxResponseTimeMs: number | undefined;
  readonly seed: number;
  /** Empty means all suites. */
  readonly suites: SuiteName[];
  /** A regular expression scenario names must match; undefined: all. */
  readonly grep: string | undefined;
  readonly strict: boolean;
  readonly quiet: boolean;
  /** Absolute. */
  readonly reportsDir: string;
  readonly allowProduction: boolean;
  readonly maxAmount: number;
  readonly html: boolean;
  /** Number of property/stateful runs (a preset resolved to its number). */
  readonly runs: number;
  /** Terminals (workers) asked for; the run uses fewer where it cannot pair that many. */
  readonly terminals: number;
  /** This run's part of the test files; undefined: all. */
  readonly shard: { index: number; count: number } | undefined;
  /** key -> value, in the order given. */
  readonly labels: Record<string, string>;
  readonly resume: boolean;
  /** The baseline file (absolute), if any. */
  readonly baseline: string | undefined;
  /** The reports folder (absolute) this run is compared with at its end, if any. */
  readonly compareTo: string | undefined;
  /** The signing key file (absolute), if any. */
  readonly signKey: string | undefined;
  /** How many times each failed test runs again to confirm its findings; 0: none. */
  readonly confirm: number;
  readonly sim: {
    faults: string[];
    faultRate: number;
    stepDelayMs: number;
    deadlineMs: number;
    terminal: SimTerminalMode;
    liberal: boolean;
  };
  /** Check ids not to run (checked against the registry when the run starts). */
  readonly disabledChecks: string[];
  /** Coverage kinds the run must cover whole (`--require-coverage`); empty: none. */
  readonly requireCoverage: string[];
  /** Coverage items the gate does not require, with why (`coverage.exclude`; checked against the items when the run starts); empty: none. */
  readonly coverageExclude: CoverageExclusionConfig[];
  /** CA file, client certificate and proxy of the connections to the service (absolute paths). */
  readonly transport: TransportSettings;
  /** The config file that was loaded (absolute), if any. */
  readonly configFile: string | undefined;
  /** The command line it was resolved from (after `run`), for the options a re-run repeats; absent when not resolved from one. */
  readonly argv?: readonly string[];
  /** Where each value came from, for the report. */
  readonly sources: Record<OptionKey, ConfigSource>;
}

/** The inputs of `resolveConfig`: nothing is read from the process implicitly. */
export interface ResolveConfigInput {
  /** The arguments after `run` (no program name, no command). */
  argv: readonly string[];
  env: NodeJS.ProcessEnv;
  /** Relative flag/env paths and config-file discovery start here. */
  cwd: string;
  /**
   * False for a command that only reads or writes reports (merge-reports, report): settings of the
   * target it never opens are not its to question. Default true.
   */
  usesTarget?: boolean;
}
