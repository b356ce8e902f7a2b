/**
 * resolveConfig: flags, environment, config file and defaults merged into one validated
 * {@link ResolvedConfig}. Each option takes its whole value from the first source that sets it
 * (flag > env > file > default; lists are replaced, not merged), then the cross-option rules run.
 * No safety policy here (production hosts, amounts): that is decided where the target is built.
 */
import { randomInt } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { resolve as resolvePath } from 'node:path';
import { conflict, invalidValue, type Candidate, type Candidates } from './candidate.ts';
import { DEFAULTS } from './defaults.ts';
import { readEnv } from './env.ts';
import { readConfigFile } from './file.ts';
import { flagOf, parseRunFlags, parserOf, type OptionValue } from './flags.ts';
import * as p from './parsers.ts';
import { SIM_SETTINGS as S, holdsTwoSteps } from './sim-settings.ts';
import { type ConfigSource, type OptionKey, type ResolveConfigInput, type ResolvedConfig } from './types.ts';

/** The options `run` sets the simulator's settings with (its table's rows that have one). */
const SIM_KEYS: readonly OptionKey[] = Object.values(S).flatMap((row) => ('runKey' in row ? [row.runKey] : []));
/** The options that hold a path (made absolute against the cwd, or the config file's folder). */
type PathKey =
  | 'vault'
  | 'reports'
  | 'webhookTlsCert'
  | 'webhookTlsKey'
  | 'tls.caFile'
  | 'tls.clientCert'
  | 'tls.clientKey'
  | 'baseline'
  | 'compareTo'
  | 'signKey';
/** What only a URL target reads: given for the simulator, it is refused (see resolveConfig). */
const URL_ONLY_KEYS = ['integratorId', 'tls.caFile', 'tls.clientCert', 'tls.clientKey', 'proxy'] as const;

/** The sources of a run's options, read one option at a time (flag > env > file; a list is replaced, not merged). */
interface Reader {
  /** The option's value from the first source that sets it, parsed; undefined when none does. */
  take<K extends OptionKey>(key: K): OptionValue<K> | undefined;
  /** An optional path option, absolute, as `{ [name]: path }` or nothing. */
  optionalPath<K extends string>(key: PathKey, name: K): Partial<Record<K, string>>;
  /** A path option, absolute: relative to the config file's folder when it came from there. */
  takePath(key: PathKey, fallback: string): string;
  /** Where each option taken came from (the candidate), for the errors that name it. */
  readonly from: Partial<Record<OptionKey, Candidate>>;
  /** The source of every option taken (`default` when none set it). */
  readonly sources: Record<OptionKey, ConfigSource>;
}

/** A {@link Reader} of `layers`, highest first; relative paths resolve against `cwd` unless a file's folder. */
function readerOf(layers: readonly Candidates[], cwd: string): Reader {
  const from: Partial<Record<OptionKey, Candidate>> = {};
  const sources = {} as Record<OptionKey, ConfigSource>;
  function take<K extends OptionKey>(key: K): OptionValue<K> | undefined {
    const c = layers.map((layer) => layer[key]).find((candidate) => candidate !== undefined);
    sources[key] = c?.source ?? 'default';
    if (!c) return undefined;
    from[key] = c;
    try {
      return parserOf(key)(c.value, c.source !== 'file');
    } catch (error) {
      if (error instanceof p.InvalidValue) throw invalidValue(key, c, error.reason, error.hint, error);
      throw error;
    }
  }
  function optionalPath<K extends string>(key: PathKey, name: K): Partial<Record<K, string>> {
    const text = take(key);
    return text === undefined ? {} : ({ [name]: resolvePath(from[key]?.baseDir ?? cwd, text) } as Partial<Record<K, string>>);
  }
  function takePath(key: PathKey, fallback: string): string {
    const text = take(key);
    return resolvePath(from[key]?.baseDir ?? cwd, text ?? fallback);
  }
  return { take, optionalPath, takePath, from, sources };
}

/** Both files of the receiver's HTTPS, or neither. */
function webhookTlsOf(r: Reader, cert: { certFile?: string }, key: { keyFile?: string }): ResolvedConfig['webhookTls'] {
  if (cert.certFile && key.keyFile) return { certFile: cert.certFile, keyFile: key.keyFile };
  if (!cert.certFile && !key.keyFile) return undefined;
  const [given, missing] = cert.certFile
    ? (['webhookTlsCert', 'webhook-tls-key'] as const)
    : (['webhookTlsKey', 'webhook-tls-cert'] as const);
  throw conflict(
    [{ key: given, value: cert.certFile ?? key.keyFile, from: r.from[given] }],
    "the webhook receiver's HTTPS needs both a certificate and its key",
    `give --${missing} too, or neither`,
  );
}

/** The target, its profile and the integrator id it needs (the simulator's own by default; a URL's must be given). */
function resolveTarget(r: Reader): Pick<ResolvedConfig, 'target' | 'profile' | 'integratorId'> {
  const target = r.take('target') ?? p.target(DEFAULTS.target, true);
  const profile = r.take('profile') ?? DEFAULTS.profile;
  if (target.kind === 'sim' && profile === 'public') {
    throw conflict(
      [
        { key: 'target', value: 'sim', from: r.from.target },
        { key: 'profile', value: profile, from: r.from.profile },
      ],
      'the simulator implements the sandbox profile only',
      'drop the public profile to test the simulator, or give the base URL of a service with --target',
    );
  }

  let integratorId = r.take('integratorId');
  if (integratorId === undefined && target.kind === 'sim') integratorId = DEFAULTS.simIntegratorId;
  if (integratorId === undefined && target.kind === 'url') {
    throw conflict(
      [{ key: 'target', value: target.baseUrl, from: r.from.target }],
      'a URL target needs an integrator id, and none was given',
      'pass --integrator-id <id>, set PAYCONNECT_INTEGRATOR_ID, or set integratorId in the config file',
    );
  }
  return { target, profile, integratorId };
}

/** The transport's settings (CA, client certificate, proxy): a URL target's only, refused for the simulator. */
function resolveTransport(r: Reader, target: ResolvedConfig['target'], usesTarget: boolean): ResolvedConfig['transport'] {
  const proxy = r.take('proxy');
  const transport = {
    ...r.optionalPath('tls.caFile', 'caFile'),
    ...r.optionalPath('tls.clientCert', 'clientCert'),
    ...r.optionalPath('tls.clientKey', 'clientKey'),
    ...(proxy ? { proxy } : {}),
  };
  // Settings that only a URL target reads, given for the embedded simulator: the user meant staging
  // (a target variable empty or misspelt, a --target forgotten), and the run would pass without it.
  const urlOnly = target.kind === 'sim' && usesTarget ? URL_ONLY_KEYS.find((key) => r.from[key]) : undefined;
  if (urlOnly) {
    throw conflict(
      [
        { key: urlOnly, value: r.from[urlOnly]!.value, from: r.from[urlOnly] },
        { key: 'target', value: 'sim', from: r.from.target },
      ],
      'this setting is for a URL target, and the run would test the embedded simulator without it',
      "give the service's base URL with --target (or PAYCONNECT_TARGET), or drop the setting to test the simulator",
    );
  }
  return transport;
}

/** The embedded simulator's settings: a deadline that holds two steps, and `--sim-*` flags only with `--target sim`. */
function resolveSim(r: Reader, target: ResolvedConfig['target']): ResolvedConfig['sim'] {
  const sim = {
    faults: r.take(S.faults.runKey) ?? [...DEFAULTS.sim.faults],
    faultRate: r.take(S.faultRate.runKey) ?? DEFAULTS.sim.faultRate,
    stepDelayMs: r.take(S.stepDelayMs.runKey) ?? DEFAULTS.sim.stepDelayMs,
    deadlineMs: r.take(S.deadlineMs.runKey) ?? DEFAULTS.sim.deadlineMs,
    terminal: r.take(S.terminal.runKey) ?? S.terminal.default,
    liberal: r.take(S.liberal.runKey) ?? S.liberal.default,
  };
  // Checked here, where the user's words are known: the simulator would refuse it naming its own option.
  if (target.kind === 'sim' && !holdsTwoSteps(sim.deadlineMs, sim.stepDelayMs)) {
    throw conflict(
      [
        { key: 'sim.deadline', value: sim.deadlineMs, from: r.from['sim.deadline'] },
        { key: 'sim.stepDelay', value: sim.stepDelayMs, from: r.from['sim.stepDelay'] },
      ],
      "the virtual terminal's deadline must be more than two step delays (a pick-up and a finish)",
      `give a --${flagOf('sim.deadline').name} above ${2 * sim.stepDelayMs}ms, or a shorter --${flagOf('sim.stepDelay').name}`,
    );
  }
  // From a file or the environment, sim settings may simply be shared with sim runs; typed on the
  // command line next to another target they are a mistake worth stopping for.
  const strayFlag = target.kind === 'sim' ? undefined : SIM_KEYS.find((key) => r.from[key]?.source === 'flag');
  if (strayFlag) {
    throw conflict(
      [
        { key: strayFlag, value: r.from[strayFlag]!.value, from: r.from[strayFlag] },
        { key: 'target', value: target.kind === 'url' ? target.baseUrl : target.kind, from: r.from.target },
      ],
      'simulator settings apply to --target sim only',
      'drop the --sim-* flags, or use --target sim',
    );
  }
  return sim;
}

/** How the terminal is driven, and how often a failure is confirmed (never in manual mode). */
function resolveTerminal(
  r: Reader,
  target: ResolvedConfig['target'],
  sim: ResolvedConfig['sim'],
): Pick<ResolvedConfig, 'terminal' | 'confirm'> {
  // A manual virtual terminal decides nothing by amount: the run must drive it as a person would.
  const terminal = r.take('terminal') ?? (target.kind === 'sim' && sim.terminal === 'manual' ? 'manual' : DEFAULTS.terminal);
  if (target.kind === 'sim' && sim.terminal === 'manual' && terminal !== 'manual') {
    throw conflict(
      [
        { key: 'sim.terminal', value: 'manual', from: r.from['sim.terminal'] },
        { key: 'terminal', value: terminal, from: r.from.terminal },
      ],
      'a manual virtual terminal waits for operator actions, so the run must drive it in manual mode',
      'drop --terminal (manual follows from --sim-terminal manual), or drop --sim-terminal manual',
    );
  }
  // Running a failed test again N times is a machine's job: at a real terminal it would be N more card taps each.
  const confirm = r.take('confirm') ?? DEFAULTS.confirm;
  if (confirm > 0 && terminal === 'manual') {
    throw conflict(
      [
        { key: 'confirm', value: confirm, from: r.from.confirm },
        { key: 'terminal', value: terminal, from: r.from.terminal },
      ],
      'confirming failures runs each failed test again, which in manual mode would ask a person to repeat every step',
      'drop --confirm in a manual session, and re-run a failed test with --grep instead',
    );
  }
  return { terminal, confirm };
}

/**
 * The deadline of a terminal operation when none is given. A person at the terminal needs minutes, not
 * the virtual terminal's seconds; a sandbox driven by amount has a published upper bound.
 */
function defaultDeadlineMs(c: Pick<ResolvedConfig, 'target' | 'profile' | 'terminal'>): number {
  if (c.terminal === 'manual') return DEFAULTS.deadlineManualMs;
  if (c.target.kind === 'sim') return DEFAULTS.deadlineSimMs;
  return c.target.kind === 'url' && c.profile === 'sandbox' && c.terminal === 'auto' ? DEFAULTS.deadlineSandboxMs : DEFAULTS.deadlineMs;
}

/**
 * Resolves the `run` configuration. Reads only what it is given (argv, env, cwd) plus the config
 * file; never prints.
 *
 * @param input.argv the arguments after `run`
 * @throws ToolkitError PCC_USAGE for a bad flag (unknown, malformed, or a bad value given by flag);
 *   PCC_CONFIG_INVALID for a bad config file or environment value. The message names the option,
 *   its value and where it came from; the hint says how to fix it.
 */
export async function resolveConfig(input: ResolveConfigInput): Promise<ResolvedConfig> {
  const cwd = resolvePath(input.cwd);
  const flags = parseRunFlags(input.argv);
  const env = readEnv(input.env);
  const file = await readConfigFile(flags.config ?? env.config, cwd);
  const r = readerOf([flags, env, file?.values ?? {}], cwd);
  const { take, optionalPath, takePath, sources } = r;
  sources.config = flags.config?.source ?? env.config?.source ?? 'default';

  const { target, profile, integratorId } = resolveTarget(r);
  const transport = resolveTransport(r, target, input.usesTarget !== false);
  const sim = resolveSim(r, target);
  const { terminal, confirm } = resolveTerminal(r, target, sim);

  return {
    target,
    integratorId,
    otps: take('otp') ?? [],
    vaultPath: takePath('vault', DEFAULTS.vault),
    profile,
    terminal,
    webhookListen: take('webhookListen') ?? p.listen(DEFAULTS.webhookListen, true),
    webhookPublicUrl: take('webhookPublicUrl'),
    webhookTls: webhookTlsOf(r, optionalPath('webhookTlsCert', 'certFile'), optionalPath('webhookTlsKey', 'keyFile')),
    deadlineMs: take('deadline') ?? defaultDeadlineMs({ target, profile, terminal }),
    settleMs: take('settle'),
    maxDurationMs:
      take('maxDuration') ??
      (terminal === 'manual' ? DEFAULTS.maxDurationManualMs : target.kind === 'sim' ? DEFAULTS.maxDurationSimMs : DEFAULTS.maxDurationMs),
    maxResponseTimeMs: take('maxResponseTime'),
    seed: take('seed') ?? randomInt(0, 2 ** 31),
    suites: take('suites') ?? [],
    grep: take('grep'),
    strict: take('strict') ?? DEFAULTS.strict,
    quiet: take('quiet') ?? false,
    reportsDir: takePath('reports', DEFAULTS.reports),
    allowProduction: take('allowProduction') ?? DEFAULTS.allowProduction,
    maxAmount: take('maxAmount') ?? DEFAULTS.maxAmount,
    html: take('html') ?? DEFAULTS.html,
    runs: take('runs') ?? DEFAULTS.runsPresets[DEFAULTS.runs],
    terminals:
      take('terminals') ??
      (availableParallelism() <= 1 ? DEFAULTS.terminalsOneCore : target.kind === 'sim' ? DEFAULTS.terminalsSim : DEFAULTS.terminals),
    shard: take('shard'),
    labels: take('labels') ?? {},
    resume: take('resume') ?? false,
    baseline: optionalPath('baseline', 'file').file,
    compareTo: optionalPath('compareTo', 'dir').dir,
    signKey: optionalPath('signKey', 'file').file,
    confirm,
    sim,
    transport,
    coverageExclude: take('coverage.exclude') ?? [],
    requireCoverage: take('coverage.require') ?? [],
    disabledChecks: take('checks.disable') ?? [],
    configFile: file?.path,
    argv: [...input.argv],
    sources,
  };
}
