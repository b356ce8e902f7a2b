/**
 * `verify-pacts`: provider verification of the toolkit's pacts (or an integrator's) against the
 * embedded simulator or a service. A thin shell over src/pact; the target is opened by src/targets,
 * like every command's (src/pact must not import the simulator).
 */
import { type RunIo, ToolkitError } from '../../core/index.ts';
import { DEFAULT_PACT_DIR, STATE, pactFilesOf, readAnyPact } from '../../pact/common/index.ts';
import { formatVerification, verifyPacts } from '../../pact/provider/index.ts';
import { resolveProfile } from '../../profile/index.ts';
import { findPairings, loadPrivateVault } from '../../vault/index.ts';
import { defaultDeadlineMs, defaultPollMs, openTarget } from '../../targets/index.ts';
import { type Forwarder, loadTransport, startForwarder } from '../../transport/index.ts';
import {
  NETWORK_FLAGS,
  TARGET_FLAGS,
  WEBHOOK_FLAGS,
  argvOf,
  formatCommandHelp,
  parseCommandLine,
  resolveConfig,
  runFlagsNamed,
  wrap,
  type CommandSpec,
} from '../../config/index.ts';
import { defineCommand } from '../command.ts';

/** The pacts to verify or publish: a file or a folder of them (verify-pacts and publish-pacts). */
export const PACT_FLAG = {
  name: 'pact',
  type: 'string',
  multiple: true,
  placeholder: '<file|dir>',
  description: 'Pact file or folder; repeat for several',
  defaultText: "contracts/pacts, the toolkit's",
} as const;

/** verify-pacts' rows of run's table: resolved as run resolves them (flag > env > config file > default). */
const VERIFY_RUN_ROWS = [...TARGET_FLAGS, ...runFlagsNamed('sim-fault', 'deadline'), ...WEBHOOK_FLAGS, ...NETWORK_FLAGS];

/** `verify-pacts`: the pacts, the target's flags, the receiver's and the network's. */
export const VERIFY_PACTS_COMMAND = {
  name: 'verify-pacts',
  synopsis: '[flags]',
  about:
    'Verifies pact files against a provider with the pact-js Verifier. Provider states are set up ' +
    "through the public API only (pairing from the vault or by OTP, transactions by sandbox.md's " +
    'amounts); webhook messages are triggered on the target and captured by a loopback receiver. ' +
    "An integrator's pact may name the toolkit's provider states (below) and take the ids they supply " +
    'with fromProviderState (${transactionId}, ${operationId}, ${otp}, ${webhookUrl}); a state the ' +
    'toolkit does not know is reported and run with a paired terminal only.\n\n' +
    "A URL target needs an unused --otp each for its pairing and for the pairing interactions (the toolkit's " +
    'pact: pair, pair echoing the name, the consumed OTP, unpair: five in all, four with a vault pairing). ' +
    'Against a URL, the Pact core talks to a loopback forwarder that goes on with the network settings. ' +
    "The target's flags resolve as run's do (flag > environment > config file > default), except the " +
    'deadline, which defaults to 10s with sim and 2m against a URL.',
  sections: [
    { heading: 'Pacts', flags: [PACT_FLAG] },
    { heading: 'Target', flags: [...TARGET_FLAGS, ...runFlagsNamed('sim-fault', 'deadline')] },
    { heading: 'Webhooks', flags: WEBHOOK_FLAGS },
    { heading: 'Network (TLS and proxies towards a URL target)', flags: NETWORK_FLAGS },
  ],
  notes: wrap(
    `Provider states: ${Object.values(STATE)
      .map((x) => `"${x}"`)
      .join(', ')}.`,
    100,
  ).join('\n'),
} as const satisfies CommandSpec;

/** The help of `verify-pacts`. */
export const VERIFY_PACTS_USAGE = formatCommandHelp(VERIFY_PACTS_COMMAND);

/** `verify-pacts`: exit 0 when every interaction verified, 1 when one failed. */
export async function verifyPactsCommand(argv: string[], env: NodeJS.ProcessEnv, io: RunIo): Promise<number> {
  const { values: v, help } = parseCommandLine(VERIFY_PACTS_COMMAND, argv);
  if (help) {
    io.stdout(VERIFY_PACTS_USAGE);
    return 0;
  }
  const config = await resolveConfig({ argv: argvOf(VERIFY_RUN_ROWS, v), env, cwd: process.cwd() });
  if (config.target.kind === 'pact')
    throw new ToolkitError(
      'PCC_USAGE',
      "verify-pacts verifies against sim or a service's base URL, not the Pact mock",
      'use --target sim or --target <url>',
    );
  const kind = config.target.kind;
  const given = (key: keyof typeof config.sources) => config.sources[key] !== 'default';
  const webhooks = webhookOptions(given('webhookListen') ? config.webhookListen : undefined, config.webhookPublicUrl);
  const otps = config.otps;
  const faults = config.sim.faults;
  const pactFiles = [...new Set((v.pact ?? [DEFAULT_PACT_DIR]).flatMap((p) => pactFilesOf(p)))];
  // A file that is no pact is a usage error here, not a verifier crash later.
  const pacts = pactFiles.map((f) => readAnyPact(f));
  const network = config.transport;
  const transport = loadTransport(network, env);
  const opened = await openTarget({
    transport,
    kind,
    baseUrl: config.target.kind === 'url' ? config.target.baseUrl : 'sim',
    integratorId: kind === 'url' || given('integratorId') ? config.integratorId : undefined,
    // The simulator forgets its pairings when it stops: a throw-away vault unless one is named.
    vaultPath: kind === 'url' || given('vault') ? config.vaultPath : undefined,
    profile: resolveProfile('sandbox'),
    allowProduction: config.allowProduction,
    sim: { faults },
  });
  // 10 s with sim, 2 m against a URL, unless given (run's own default differs: a sandbox in auto mode).
  const deadline = given('deadline') ? config.deadlineMs : defaultDeadlineMs(kind);
  let forwarder: Forwarder | undefined;
  try {
    if (!opened.mintOtp) await assertOtpBudget(pacts, otps.length, opened);
    // Pairing, the two pair interactions, the consumed-OTP and the unpair interactions each take one (and a spare); sandbox.md: any six digits pair once.
    const allOtps = [...otps];
    if (opened.mintOtp) for (let i = 0; i < 6; i++) allOtps.push(opened.mintOtp());
    io.stdout(
      `payconnect-conformance verify-pacts: target ${kind === 'sim' ? `sim${faults.length ? ` (faults: ${faults.join(', ')})` : ''}` : opened.baseUrl}\n`,
    );
    // The Pact core makes its own connections and knows no CA file, client certificate or proxy: it
    // talks to a loopback forwarder that goes on through the toolkit's.
    forwarder = kind === 'url' ? await startForwarder(opened.baseUrl, transport) : undefined;
    const report = await verifyPacts({
      ...(forwarder ? { verifierBaseUrl: forwarder.url, transport: network } : {}),
      baseUrl: opened.baseUrl,
      integratorId: opened.integratorId,
      vaultPath: opened.vaultPath,
      otps: allOtps,
      pactFiles,
      deadlineMs: deadline,
      pollMs: defaultPollMs(kind),
      ...webhooks,
    });
    io.stdout(formatVerification(report));
    return report.ok ? 0 : 1;
  } finally {
    await forwarder?.close();
    await opened.close();
  }
}

/**
 * Against a service whose OTPs only its terminal gives, every pairing the verification makes needs an
 * `--otp`: the run's own (unless the vault has one for the target), and one for each interaction
 * whose provider state pairs afresh. Too few is said at once, as a usage error, rather than as a
 * verification failure of every interaction the missing pairing would have served.
 */
async function assertOtpBudget(
  pacts: ReturnType<typeof readAnyPact>[],
  given: number,
  t: { baseUrl: string; integratorId: string; vaultPath: string },
): Promise<void> {
  const fresh = pacts
    .flatMap((p) => p.interactions)
    .filter((i) => i.states.some((s) => s.name === STATE.otp || s.name === STATE.consumedOtp || s.name === STATE.unpairable));
  const stored = findPairings((await loadPrivateVault(t.vaultPath)).vault, t.baseUrl, t.integratorId).length > 0;
  const needed = (stored ? 0 : 1) + fresh.length;
  if (given >= needed) return;
  const parts = [
    ...(stored ? [] : ['1 for its own pairing (the vault has none for this target)']),
    ...(fresh.length > 0 ? [`${fresh.length} for the interactions that pair or unpair afresh`] : []),
  ];
  throw new ToolkitError(
    'PCC_USAGE',
    `verify-pacts against ${t.baseUrl} needs ${needed} unused OTP${needed === 1 ? '' : 's'} (${parts.join(', ')}); ${given} given`,
    'read an OTP off the terminal for each and pass --otp <six digits> once per OTP (each pairs once)',
  );
}

/** The receivers' address and public URL of `verify-pacts` (each parsed as run parses it), checked together. */
function webhookOptions(
  listen: { host: string; port: number } | undefined,
  publicUrl: string | undefined,
): { webhookHost?: string; webhookPort?: number; webhookPublicUrl?: string } {
  if (publicUrl !== undefined && !listen?.port)
    throw new ToolkitError(
      'PCC_USAGE',
      '--webhook-public-url needs the port its tunnel forwards to',
      'add --webhook-listen <host:port> with that port',
    );
  return {
    ...(listen ? { webhookHost: listen.host, webhookPort: listen.port } : {}),
    ...(publicUrl ? { webhookPublicUrl: publicUrl } : {}),
  };
}

export default defineCommand({ spec: VERIFY_PACTS_COMMAND, run: verifyPactsCommand });
