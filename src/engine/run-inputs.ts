/**
 * What a run reads before anything runs, so that bad input is exit 2 before a report is touched: the
 * checks turned off and the coverage exclusions (each naming what the run knows), the baseline, the
 * run to compare with, the signing key, the files of the network settings, the module cache, and a
 * session to resume (its seed and labels are the run's).
 */
import type { ResolvedConfig } from '../config/index.ts';
import { canonicalRuleId, validateDisableCheck } from '../checks/index.ts';
import type { RunIo } from '../core/index.ts';
import {
  type BaselineFile,
  CONTRACT_FILE,
  PACKAGE_ROOT,
  type SessionFingerprint,
  type SessionState,
  assertSameSession,
  checkCoverageExclusions,
  contractSha256,
  peekSession,
  readBaseline,
  readSession,
  toolInfo,
} from '../report/index.ts';
import { loadSigningKey } from '../attest/index.ts';
import { loadTransport, type Transport } from '../transport/index.ts';
import { readDeliveryTls } from '../webhooks/index.ts';
import { readCompareBase } from './compare-to.ts';
import { harnessLoading } from './built-harness.ts';
import { moduleCacheOptions } from './module-cache.ts';

/** A run's inputs, read and checked. */
export interface RunInputs {
  /** The settings, with check ids made current and a resumed session's seed and labels. */
  config: ResolvedConfig;
  baseline?: { file: BaselineFile; now: number };
  compareBase: Awaited<ReturnType<typeof readCompareBase>>;
  signer?: ReturnType<typeof loadSigningKey>;
  transport: Transport;
  tool: { name: string; version: string };
  contract: { file: string; sha256: string };
  fingerprint: SessionFingerprint;
  /** The session resumed (`--resume`), whose passed tests are not run again. */
  resumed?: SessionState;
  /** Not resuming: the unfinished session in the folder, which this run replaces. */
  earlier?: SessionState & { total: number };
  /** How the suites load: the module cache (PAYCONNECT_MODULE_CACHE) and the built harness. */
  loading: { moduleCache: Awaited<ReturnType<typeof moduleCacheOptions>>; harness: ReturnType<typeof harnessLoading> };
}

/** A baseline whose entries each name a check the run judges, by its current id (a former one is renamed). */
function canonicalBaseline(file: BaselineFile, path: string): BaselineFile {
  validateDisableCheck(
    file.entries.map((e) => e.check),
    'run',
    { where: `baseline ${path}`, code: 'PCC_CONFIG_INVALID' },
  );
  return { ...file, entries: file.entries.map((e) => ({ ...e, check: canonicalRuleId(e.check) ?? e.check })) };
}

/**
 * Reads and checks what the run is given. Nothing is written.
 * @throws ToolkitError (exit 2) naming the bad input
 */
export async function readRunInputs(given: ResolvedConfig, io: RunIo): Promise<RunInputs> {
  let config = given;
  // The rule registry knows every check, and the former ids of renamed ones: those mean the current id.
  const where = (key: 'checks.disable' | 'coverage.exclude', flag: string) => (config.sources[key] === 'flag' ? flag : key);
  config = {
    ...config,
    disabledChecks: validateDisableCheck(config.disabledChecks, 'run', {
      where: where('checks.disable', '--disable-check'),
      code: 'PCC_CONFIG_INVALID',
    }),
  };
  // Each coverage exclusion must name an item the coverage lists (a misspelt one names the nearest).
  config = {
    ...config,
    coverageExclude: checkCoverageExclusions(config.coverageExclude, config.profile, {
      where: where('coverage.exclude', '--coverage-exclude'),
    }),
  };
  const baseline = config.baseline
    ? { file: canonicalBaseline(readBaseline(config.baseline), config.baseline), now: Date.now() }
    : undefined;
  // A folder that is not a run's reports, a wrong key path or passphrase: exit 2 before anything runs.
  const compareBase = await readCompareBase(config.compareTo);
  const signer = config.signKey ? loadSigningKey(config.signKey, process.env) : undefined;
  // Files named by --ca-file and --client-cert are read now: a wrong path stops the run before anything is written.
  const transport = loadTransport(config.transport);
  if (config.webhookTls) readDeliveryTls(config.webhookTls);
  // So is a module cache folder PAYCONNECT_MODULE_CACHE names that this user cannot write.
  const loading = { moduleCache: await moduleCacheOptions(PACKAGE_ROOT), harness: harnessLoading(PACKAGE_ROOT) };
  if (config.target.kind === 'url' && transport.verification === 'off') {
    io.stderr(
      'warning: TLS certificates are not verified (NODE_TLS_REJECT_UNAUTHORIZED=0): whatever answers ' +
        'is taken for the service, so the run cannot be certified; trust its CA with --ca-file instead\n',
    );
  }
  const tool = toolInfo();
  const contract = { file: CONTRACT_FILE, sha256: contractSha256() };
  const fingerprint: SessionFingerprint = {
    target: config.target.kind === 'url' ? config.target.baseUrl : config.target.kind,
    profile: config.profile,
    terminalMode: config.terminal,
    strict: config.strict,
    suites: [...config.suites].sort(),
    grep: config.grep ?? '',
    faults: config.target.kind === 'sim' ? [...config.sim.faults].sort() : [],
    contractSha256: contract.sha256,
    toolVersion: tool.version,
  };
  // A resumed session is the same run: its seed and labels, and its passed tests are not run again.
  const resumed = config.resume ? readSession(config.reportsDir) : undefined;
  if (resumed) {
    assertSameSession(
      resumed,
      fingerprint,
      {
        ...(config.sources.seed !== 'default' ? { seed: config.seed } : {}),
        ...(config.sources.labels !== 'default' ? { labels: config.labels } : {}),
      },
      config.reportsDir,
    );
    config = { ...config, seed: resumed.seed, labels: { ...resumed.labels } };
  }
  // Not resuming: an unfinished session in the folder is replaced (the user may have meant --resume).
  const earlier = resumed ? undefined : peekSession(config.reportsDir);
  return {
    config,
    ...(baseline ? { baseline } : {}),
    compareBase,
    ...(signer ? { signer } : {}),
    transport,
    tool,
    contract,
    fingerprint,
    loading,
    ...(resumed ? { resumed } : {}),
    ...(earlier ? { earlier } : {}),
  };
}
