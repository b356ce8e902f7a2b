/**
 * The `run` flags as one declarative table, typed from the config: every option of `UserConfig`
 * must have a row (checked at compile time), and the parser, the environment names and the help
 * text are all derived from the rows.
 */
import type { Candidates } from './candidate.ts';
import { DEFAULTS } from './defaults.ts';
import { formatDuration } from './duration.ts';
import { type CommandSpec, type FlagRow, parseCommandLine } from './command-line.ts';
import * as p from './parsers.ts';
import { SIM_SETTINGS as SIM } from './sim-settings.ts';
import { booleanKind, choiceKind, durationFrom, integerKind, listOf, pathValue, valueOf, type SettingValue } from './value-kinds.ts';
import { COVERAGE_REQUIRABLE, PROFILE_NAMES, SUITE_NAMES, TERMINAL_MODES, type OptionKey } from './types.ts';

/** The help sections, in order. */
export type RunFlagGroup = 'target' | 'network' | 'run' | 'output' | 'simulator';

/** One row of {@link RUN_FLAGS}: a run option, declared once. */
export interface RunFlag extends FlagRow {
  /** The option it sets; a repeatable flag's items may also be comma-separated. */
  readonly key: OptionKey;
  readonly group: RunFlagGroup;
  /** Its value: the parser (flag, environment and config file alike, range included) and the config file's schema. */
  readonly value: SettingValue<unknown>;
}

const TABLE = [
  {
    name: 'target',
    key: 'target',
    value: valueOf(p.target, {
      type: 'string',
      description: 'sim, pact, or the base URL of a service (http or https; with the path a gateway mounts the API under, if any)',
    }),
    type: 'string',
    placeholder: 'sim|<url>|pact',
    group: 'target',
    description:
      'What to test: the embedded simulator, the base URL of a service (http or https; a path where a gateway mounts the API), or the Pact mock',
    defaultText: DEFAULTS.target,
  },
  {
    name: 'integrator-id',
    key: 'integratorId',
    value: valueOf(p.headerToken, { type: 'string', minLength: 1 }),
    type: 'string',
    placeholder: '<id>',
    group: 'target',
    description: 'The integrator id sent with every request; required for a URL target',
    defaultText: `${DEFAULTS.simIntegratorId} with --target sim`,
  },
  {
    name: 'otp',
    key: 'otp',
    value: listOf(p.otp, 'give OTPs as an array of six-digit strings', { type: 'string', pattern: '^\\d{6}$' }),
    type: 'string',
    multiple: true,
    placeholder: '<six digits>',
    group: 'target',
    description: 'A pairing one-time password from the terminal; repeat (or separate with commas) for several',
  },
  {
    name: 'vault',
    key: 'vault',
    value: pathValue,
    type: 'string',
    placeholder: '<file>',
    group: 'target',
    description: 'The file of pairing credentials, reused across runs',
    defaultText: DEFAULTS.vault,
  },
  {
    name: 'profile',
    key: 'profile',
    value: choiceKind(PROFILE_NAMES),
    type: 'string',
    placeholder: PROFILE_NAMES.join('|'),
    group: 'target',
    description: 'The behaviour the checks assume; --target sim implies sandbox',
    defaultText: DEFAULTS.profile,
  },
  {
    name: 'terminal',
    key: 'terminal',
    value: choiceKind(TERMINAL_MODES),
    type: 'string',
    placeholder: TERMINAL_MODES.join('|'),
    group: 'target',
    description: 'How the terminal is driven: sandbox outcomes, operator prompts, or watch only',
    defaultText: DEFAULTS.terminal,
  },
  {
    name: 'webhook-listen',
    key: 'webhookListen',
    value: valueOf(p.listen, { type: 'string', pattern: '^(\\[[^\\]]*\\]|[^:\\[\\]]*):\\d{1,5}$' }),
    type: 'string',
    placeholder: '<host:port>',
    group: 'target',
    description: "Where the run's one webhook receiver listens (port 0: any free port); each pairing gets the path /webhooks/<slot>",
    defaultText: DEFAULTS.webhookListen,
  },
  {
    name: 'webhook-public-url',
    key: 'webhookPublicUrl',
    value: valueOf(p.httpUrl, { type: 'string', pattern: '^https?://' }),
    type: 'string',
    placeholder: '<url>',
    group: 'target',
    description:
      'The public base URL that forwards to the receiver, when the service cannot reach it directly (/webhooks/<slot> is appended)',
  },
  {
    name: 'webhook-tls-cert',
    key: 'webhookTlsCert',
    value: pathValue,
    type: 'string',
    placeholder: '<file>',
    group: 'target',
    description:
      'Serve the webhook receiver over HTTPS with this PEM certificate (for a service that posts only to https URLs); with --webhook-tls-key',
  },
  {
    name: 'webhook-tls-key',
    key: 'webhookTlsKey',
    value: pathValue,
    type: 'string',
    placeholder: '<file>',
    group: 'target',
    description: 'The PEM private key of --webhook-tls-cert',
  },
  {
    name: 'ca-file',
    key: 'tls.caFile',
    value: pathValue,
    type: 'string',
    placeholder: '<file>',
    group: 'network',
    description: "A PEM file of CA certificates to trust besides the system's (a private CA in front of staging)",
  },
  {
    name: 'client-cert',
    key: 'tls.clientCert',
    value: pathValue,
    type: 'string',
    placeholder: '<file>',
    group: 'network',
    description:
      "A client certificate for mTLS: PEM (with --client-key) or PKCS#12 (.p12, .pfx); a key's passphrase is read from PAYCONNECT_CLIENT_KEY_PASSPHRASE only",
  },
  {
    name: 'client-key',
    key: 'tls.clientKey',
    value: pathValue,
    type: 'string',
    placeholder: '<file>',
    group: 'network',
    description: 'The PEM private key of --client-cert',
  },
  {
    name: 'proxy',
    key: 'proxy',
    value: valueOf(p.proxyUrl, { type: 'string', pattern: '^(https?|socks5?)://' }),
    type: 'string',
    placeholder: '<url>',
    group: 'network',
    description: 'A forward proxy for every connection to the service (NO_PROXY still applies)',
    defaultText: 'HTTPS_PROXY / HTTP_PROXY',
  },
  {
    name: 'deadline',
    key: 'deadline',
    value: durationFrom(1),
    type: 'string',
    placeholder: '<duration>',
    group: 'run',
    description: 'How long an operation may take to converge (500ms, 30s, 2m, or milliseconds)',
    defaultText:
      `${formatDuration(DEFAULTS.deadlineSimMs)} with sim, ${formatDuration(DEFAULTS.deadlineManualMs)} ` +
      `in manual mode, ${formatDuration(DEFAULTS.deadlineSandboxMs)} against a sandbox URL in auto ` +
      `mode, ${formatDuration(DEFAULTS.deadlineMs)} otherwise`,
  },
  {
    name: 'max-duration',
    key: 'maxDuration',
    value: durationFrom(1),
    type: 'string',
    placeholder: '<duration>',
    group: 'run',
    description: 'The run\'s time budget: past it, unfinished tests stop, not checked ("run budget exceeded"): the run is not certified',
    defaultText:
      `${formatDuration(DEFAULTS.maxDurationSimMs)} with sim, ${formatDuration(DEFAULTS.maxDurationManualMs)} ` +
      `in manual mode, ${formatDuration(DEFAULTS.maxDurationMs)} otherwise`,
  },
  {
    name: 'max-response-time',
    key: 'maxResponseTime',
    value: durationFrom(1),
    type: 'string',
    placeholder: '<duration>',
    group: 'run',
    description:
      'Opt-in gate: a finding (response.time-within-limit) for every answer slower than this. No ' +
      'document sets a time limit: without it slowness is never judged, and budgets and property runs ' +
      "follow the service's measured pace",
    defaultText: 'none',
  },
  {
    name: 'settle',
    key: 'settle',
    value: durationFrom(0),
    type: 'string',
    placeholder: '<duration>',
    group: 'run',
    description: 'How long to keep watching a transaction after its final status, to see a change',
    defaultText: 'four simulator steps with sim, 1s otherwise',
  },
  {
    name: 'seed',
    key: 'seed',
    value: integerKind(
      -(2 ** 31),
      2 ** 32 - 1,
      'use a 32-bit integer, such as the seed shown in an earlier report (negative ones too: --seed -5)',
    ),
    type: 'string',
    placeholder: '<integer>',
    group: 'run',
    description: 'The seed of every random choice, to replay a run (negative ones too: --seed -5)',
    defaultText: 'random, shown in the report',
  },
  {
    name: 'suite',
    key: 'suites',
    value: listOf(p.member(SUITE_NAMES, 'suite'), `give suite names as an array: ${SUITE_NAMES.join(', ')}`, { enum: [...SUITE_NAMES] }),
    type: 'string',
    multiple: true,
    placeholder: '<name>',
    group: 'run',
    description: `A suite to run; repeat for several. One of: ${SUITE_NAMES.join(', ')}`,
    defaultText: 'all',
  },
  {
    name: 'grep',
    key: 'grep',
    value: valueOf(p.regex, { type: 'string', description: 'a regular expression scenario names must match' }),
    type: 'string',
    placeholder: '<regex>',
    group: 'run',
    description: 'Only the scenarios whose name matches this regular expression, e.g. to re-run one',
  },
  {
    name: 'runs',
    key: 'runs',
    value: valueOf(p.runs(DEFAULTS.runsPresets), { oneOf: [{ enum: Object.keys(DEFAULTS.runsPresets) }, { type: 'integer', minimum: 1 }] }),
    type: 'string',
    placeholder: 'quick|thorough|<n>',
    group: 'run',
    description: `Property and stateful runs (quick = ${DEFAULTS.runsPresets.quick}, thorough = ${DEFAULTS.runsPresets.thorough})`,
    defaultText: DEFAULTS.runs,
  },
  {
    name: 'terminals',
    key: 'terminals',
    value: integerKind(1, 32, 'give a whole number of terminals from 1 to 32, such as 4'),
    type: 'string',
    placeholder: '<n>',
    group: 'run',
    description:
      'Terminals used at once, one pairing and one test at a time each, on one worker per four suite ' +
      'files, as many as the cores at most on the simulator (where OTPs can be minted; else one)',
    defaultText: `${DEFAULTS.terminalsSim} with sim, ${DEFAULTS.terminals} otherwise (${DEFAULTS.terminalsOneCore} on a one-core machine)`,
  },
  {
    name: 'shard',
    key: 'shard',
    value: valueOf(p.shard, { type: 'string', pattern: '^\\s*\\d{1,4}\\s*/\\s*\\d{1,4}\\s*$' }),
    type: 'string',
    placeholder: '<i/n>',
    group: 'run',
    description: 'Run the i-th of n parts of the test files (CI shards); merge the reports with merge-reports',
  },
  {
    name: 'label',
    key: 'labels',
    value: valueOf(p.labels, {
      oneOf: [
        {
          type: 'object',
          propertyNames: { pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$' },
          additionalProperties: { type: 'string', minLength: 1, maxLength: 200 },
        },
        { type: 'array', items: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}=.+$' } },
      ],
    }),
    type: 'string',
    multiple: true,
    placeholder: '<key=value>',
    group: 'run',
    description: 'A label of the run shown in every report (firmware=4.2.1, terminal=SN-0042, tester=...); repeat for several',
  },
  {
    name: 'resume',
    key: 'resume',
    value: booleanKind,
    type: 'boolean',
    group: 'run',
    description: 'Continue the interrupted session kept in the reports folder: what passed is not run again',
  },
  {
    name: 'baseline',
    key: 'baseline',
    value: pathValue,
    type: 'string',
    placeholder: '<file>',
    group: 'run',
    description:
      'Known defects (JSON or YAML; "baseline write" makes one from a run): a finding an entry matches ' +
      'is reported as known and fails nothing; an expired entry fails the run',
  },
  {
    name: 'compare-to',
    key: 'compareTo',
    value: pathValue,
    type: 'string',
    placeholder: '<dir>',
    group: 'run',
    description:
      "At the end, compare this run with an earlier run's reports folder (as the compare command " +
      'does): the result in the console, the certification and compare.json; a regression exits 1',
  },
  {
    name: 'sign-key',
    key: 'signKey',
    value: pathValue,
    type: 'string',
    placeholder: '<file>',
    group: 'output',
    description:
      'Sign the reports with this Ed25519 private key (PEM; passphrase from PAYCONNECT_SIGNING_KEY_PASSPHRASE): ' +
      'certificate.intoto.json, checked by verify-certificate. Also PAYCONNECT_SIGNING_KEY_FILE',
  },
  {
    name: 'confirm',
    key: 'confirm',
    value: integerKind(0, 20, 'give how many times a failed test runs again, from 0 to 20, such as 5'),
    type: 'string',
    placeholder: '<n>',
    group: 'run',
    description:
      'Run each failed test again up to n times on a fresh scope: a finding seen every time is deterministic, ' +
      'else intermittent (still a finding, with its rate)',
    defaultText: String(DEFAULTS.confirm),
  },
  { name: 'strict', key: 'strict', value: booleanKind, type: 'boolean', group: 'run', description: 'Count warnings as failures' },
  {
    name: 'quiet',
    key: 'quiet',
    value: booleanKind,
    type: 'boolean',
    group: 'run',
    description: 'Progress as a line per finished suite file instead of one per test',
  },
  {
    name: 'allow-production',
    key: 'allowProduction',
    value: booleanKind,
    type: 'boolean',
    group: 'run',
    description: 'Allow a production target',
  },
  {
    name: 'disable-check',
    key: 'checks.disable',
    value: listOf(p.checkId, 'give check ids as an array of strings, such as ["webhook.retried"]'),
    type: 'string',
    multiple: true,
    placeholder: '<check id>',
    group: 'run',
    description: 'A check not to run (its id as the reports show it); repeat for several. The reports list it as disabled',
  },
  {
    name: 'require-coverage',
    key: 'coverage.require',
    value: listOf(p.member(COVERAGE_REQUIRABLE, 'coverage kind'), `give coverage kinds: ${COVERAGE_REQUIRABLE.join(', ')}`, {
      enum: [...COVERAGE_REQUIRABLE],
    }),
    type: 'string',
    multiple: true,
    placeholder: '<kinds>',
    group: 'run',
    description: `Fail the run (exit 1) naming every item never covered of these kinds, comma-separated: ${COVERAGE_REQUIRABLE.join(', ')}`,
  },
  {
    name: 'coverage-exclude',
    key: 'coverage.exclude',
    value: valueOf(p.coverageExclusions, {
      type: 'array',
      description: 'Coverage items the gate does not require, each with why (named as the reports name them; * matches any text)',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['item', 'reason'],
        properties: { item: { type: 'string', minLength: 1 }, reason: { type: 'string', minLength: 1 } },
      },
    }),
    type: 'string',
    multiple: true,
    placeholder: '<item>: <reason>',
    group: 'run',
    description:
      'A coverage item the gate does not require, and why ("getToken 500: a server error cannot be ' +
      'caused from outside"); repeat, or separate with ";". Named as the reports name it; * matches any text',
  },
  {
    name: 'max-amount',
    key: 'maxAmount',
    value: integerKind(1, Number.MAX_SAFE_INTEGER, 'give a positive whole number of cents, such as 100 for 1.00'),
    type: 'string',
    placeholder: '<cents>',
    group: 'run',
    description: 'The largest amount sent to a non-sandbox target, in cents',
    defaultText: String(DEFAULTS.maxAmount),
  },
  {
    name: 'config',
    key: 'config',
    value: pathValue,
    type: 'string',
    placeholder: '<file>',
    group: 'run',
    description: 'The config file (a missing one is an error)',
    defaultText: `${DEFAULTS.configFiles.join(', ')} in the working directory, if any`,
  },
  {
    name: 'reports',
    key: 'reports',
    value: pathValue,
    type: 'string',
    placeholder: '<dir>',
    group: 'output',
    description: 'The folder reports are written to',
    defaultText: DEFAULTS.reports,
  },
  {
    name: 'html',
    key: 'html',
    value: booleanKind,
    type: 'boolean',
    negated: true,
    group: 'output',
    description: 'Do not write the HTML report',
  },
  {
    name: 'sim-fault',
    key: SIM.faults.runKey,
    value: SIM.faults.kind,
    type: 'string',
    multiple: true,
    placeholder: '<id>',
    group: 'simulator',
    description: 'Turn on a simulator fault switch; repeat for several',
  },
  {
    name: 'sim-fault-rate',
    key: SIM.faultRate.runKey,
    value: SIM.faultRate.kind,
    type: 'string',
    placeholder: '<p>',
    group: 'simulator',
    description: SIM.faultRate.doc,
    defaultText: String(SIM.faultRate.default),
  },
  {
    name: 'sim-step-delay',
    key: SIM.stepDelayMs.runKey,
    value: SIM.stepDelayMs.kind,
    type: 'string',
    placeholder: '<duration>',
    group: 'simulator',
    description: `${SIM.stepDelayMs.doc}, ${SIM.stepDelayMs.kind.range}`,
    defaultText: formatDuration(DEFAULTS.sim.stepDelayMs),
  },
  {
    name: 'sim-terminal',
    key: SIM.terminal.runKey,
    value: SIM.terminal.kind,
    type: 'string',
    placeholder: SIM.terminal.kind.range,
    group: 'simulator',
    description:
      'manual: the virtual terminal waits for an operator action (keys or POST /_sim/terminals/<id>/actions); implies --terminal manual',
    defaultText: SIM.terminal.default,
  },
  {
    name: 'sim-liberal',
    key: SIM.liberal.runKey,
    value: SIM.liberal.kind,
    type: 'boolean',
    group: 'simulator',
    description:
      'The liberal sandbox: the simulator takes every liberty the documents leave open (slow answers, ' +
      'JSON of its own, its own ids and clock, webhooks late, twice and out of order, ...: src/simulator/liberties.ts), ' +
      'as sim --liberal does',
  },
  {
    name: 'sim-deadline',
    key: SIM.deadlineMs.runKey,
    value: SIM.deadlineMs.kind,
    type: 'string',
    placeholder: '<duration>',
    group: 'simulator',
    description: `${SIM.deadlineMs.doc}, ${SIM.deadlineMs.kind.range}`,
    defaultText: formatDuration(DEFAULTS.sim.deadlineMs),
  },
] as const satisfies readonly RunFlag[];

// Compile-time: an option without a flag row is an error here, not a silently missing flag.
type Uncovered = Exclude<OptionKey, (typeof TABLE)[number]['key']>;
const _everyOptionHasAFlag: [Uncovered] extends [never] ? true : Uncovered = true;

/** Every flag of `run`, in help order. */
export const RUN_FLAGS: readonly RunFlag[] = TABLE;

/** The environment variable of a flag: `PAYCONNECT_` + the flag in upper snake case. */
export function envVarOf(flag: Pick<RunFlag, 'name'>): string {
  return `PAYCONNECT_${flag.name.toUpperCase().replaceAll('-', '_')}`;
}

/** The flag row of an option. */
export function flagOf(key: OptionKey): RunFlag {
  return RUN_FLAGS.find((f) => f.key === key)!;
}

type TableRow = (typeof TABLE)[number];
type WithEnv<R> = R & { readonly envText: string };

/** The value an option resolves to, as its row's parser returns it. */
export type OptionValue<K extends OptionKey> = Extract<TableRow, { key: K }>['value'] extends SettingValue<infer T> ? T : never;

/** The parser of an option, typed by its row: the one place its range and hint are written. */
export function parserOf<K extends OptionKey>(key: K): p.Parser<OptionValue<K>> {
  return flagOf(key).value.parse as p.Parser<OptionValue<K>>;
}

/** A row of `run` as another command shows it: with its environment variable, which resolveConfig reads. */
function withEnv<R extends RunFlag>(flag: R): WithEnv<R> {
  const env = flag.negated ? `${envVarOf(flag)}=0 or PAYCONNECT_NO_${flag.name.toUpperCase()}=1` : envVarOf(flag);
  return { ...flag, envText: env };
}

/** Rows of `run`'s table by name, for the shared groups (literal names kept, so values stay typed). */
export function runFlagsNamed<const N extends TableRow['name']>(...names: N[]): WithEnv<Extract<TableRow, { name: N }>>[] {
  return names.map((n) => withEnv(TABLE.find((f) => f.name === n)!)) as WithEnv<Extract<TableRow, { name: N }>>[];
}

/**
 * TARGET: how a command reaches the service (pair, unpair, verify-pacts, run). Resolved like `run`'s
 * (flag > env > config file > default) by resolveConfig.
 */
export const TARGET_FLAGS = runFlagsNamed('target', 'integrator-id', 'otp', 'vault', 'allow-production');

/** The webhook receiver's address and public URL (verify-pacts, run). */
export const WEBHOOK_FLAGS = runFlagsNamed('webhook-listen', 'webhook-public-url');

/** NETWORK: TLS and proxy towards the service (pair, unpair, verify-pacts, check-receiver, run). */
export const NETWORK_FLAGS = runFlagsNamed('ca-file', 'client-cert', 'client-key', 'proxy');

/** REPORT: where the reports go and whether the HTML is written (every command that writes reports). */
export const REPORT_FLAGS = runFlagsNamed('reports', 'html');

const HEADINGS: Record<RunFlagGroup, string> = {
  target: 'Target',
  network: 'Network (TLS and proxies towards a URL target)',
  run: 'Run',
  output: 'Output',
  simulator: 'Simulator (only with --target sim)',
};

/** `run` as a command of the kit: its rows by group, each with its environment variable. */
export const RUN_COMMAND = {
  name: 'run',
  synopsis: '[flags]',
  about:
    'Runs the Pay-Connect conformance suites against a target. Every flag can also be set by its ' +
    'environment variable (lists comma-separated, booleans 1, true, 0 or false) or in ' +
    'payconnect.config.ts with `export default defineConfig({ ... })`. ' +
    'Precedence: flag > environment > config file > default.',
  sections: (Object.keys(HEADINGS) as RunFlagGroup[]).map((group) => ({
    heading: HEADINGS[group],
    flags: RUN_FLAGS.filter((f) => f.group === group).map(withEnv),
  })),
} as const satisfies CommandSpec;

/**
 * Parses the `run` arguments (after the command name) into candidates, one per flag given.
 *
 * @throws ToolkitError PCC_USAGE for an unknown flag (naming it and the close valid ones), a
 *   missing or ambiguous value, a value given to a boolean, or a positional argument
 */
export function parseRunFlags(argv: readonly string[]): Candidates {
  const { values } = parseCommandLine(RUN_COMMAND, argv);
  const given = values as Record<string, unknown>;
  const out: Candidates = {};
  for (const flag of RUN_FLAGS) {
    const value = given[flag.name];
    if (value === undefined) continue;
    const spelled = value === false ? `--no-${flag.name}` : `--${flag.name}`;
    out[flag.key] = { value, source: 'flag', where: `flag ${spelled}` };
  }
  return out;
}
