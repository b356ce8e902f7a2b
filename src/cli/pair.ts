/**
 * `pair` and `unpair`: manage the vault by hand. Pairing saves the credentials atomically the moment
 * the answer arrives; unpairing revokes them on the service and then removes them from the vault.
 */
import { Redactor, createPayConnectClient } from '../client/index.ts';
import { ToolkitError } from '../core/index.ts';
import { resolveProfile } from '../profile/index.ts';
import { DEFAULTS, NETWORK_FLAGS, TARGET_FLAGS, argvOf, formatCommandHelp, parseCommandLine, resolveConfig, type CommandSpec } from '../config/index.ts';
import { loadTransport } from '../transport/index.ts';
import { type TargetRequest, openTarget } from '../targets/index.ts';
import { pairByOtp, unpairAndForget } from '../pairing/index.ts';
import { findPairings, prepareVault } from '../vault/index.ts';
import type { RunIo } from '../engine/index.ts';

const NETWORK = { heading: 'Network (TLS and proxies towards the service)', flags: NETWORK_FLAGS };

/** run's target rows, said as pair and unpair take them: a service's base URL only, never sim or pact. */
const TARGET = TARGET_FLAGS.map((f) => (f.name === 'target'
  ? { ...f, placeholder: '<url>', description: 'The service\'s base URL (http or https; a path where a gateway mounts the API)', defaultText: undefined }
  : f.name === 'integrator-id' ? { ...f, defaultText: undefined } : f));

/** `pair`: the target's flags, the pairing's own, the network's. */
export const PAIR_COMMAND = {
  name: 'pair',
  synopsis: '--target <url> --integrator-id <id> --otp <six digits> [flags]',
  about: 'Pairs with a terminal by OTP and saves the credentials to the vault (atomically, mode 0600) before ' +
    'anything else: they cannot be recovered. The target\'s flags resolve as run\'s do: flag > environment > config file > default.\n\n' +
    'Without --webhook-url the service has nowhere to post this pairing\'s webhooks, and a run that uses the ' +
    'pairing cannot check them: give the public URL that reaches the run\'s receiver (see docs/staging.md).',
  sections: [
    { heading: 'Target', flags: TARGET },
    { heading: 'Pairing', flags: [
      { name: 'name', type: 'string', placeholder: '<name>', description: 'The pairing\'s name', defaultText: DEFAULTS.pairName },
      { name: 'webhook-url', type: 'string', placeholder: '<url>', description: 'Where the service posts this pairing\'s webhooks' },
    ] },
    NETWORK,
  ],
} as const satisfies CommandSpec;

/** `unpair`: the target's flags (no OTP), which pairing, the network's. */
export const UNPAIR_COMMAND = {
  name: 'unpair',
  synopsis: '--target <url> --integrator-id <id> [flags]',
  about: 'Unpairs a vault pairing on the service (its credentials stop working), then removes it from the vault. ' +
    'The target\'s flags resolve as run\'s do: flag > environment > config file > default.',
  sections: [
    { heading: 'Target', flags: TARGET.filter((f) => f.name !== 'otp') },
    { heading: 'Pairing', flags: [
      { name: 'pay-connect-id', type: 'string', placeholder: '<id>', description: 'Which pairing', defaultText: 'the newest of that target' },
    ] },
    NETWORK,
  ],
} as const satisfies CommandSpec;

/**
 * The target of pair/unpair through resolveConfig (flag > env > file > default), as `run` resolves it.
 *
 * @throws ToolkitError PCC_USAGE when the target is not a service's base URL
 */
async function targetOf(values: Readonly<Record<string, unknown>>, env: NodeJS.ProcessEnv) {
  const config = await resolveConfig({ argv: argvOf([...TARGET_FLAGS, ...NETWORK_FLAGS], values), env, cwd: process.cwd() });
  if (config.target.kind !== 'url') throw new ToolkitError('PCC_USAGE', `--target must be the service's base URL (got ${config.target.kind})`, 'pass --target https://your-sandbox.example');
  const request: TargetRequest = {
    kind: 'url', baseUrl: config.target.baseUrl, integratorId: config.integratorId,
    vaultPath: config.vaultPath, profile: resolveProfile('public'), allowProduction: config.allowProduction,
    transport: loadTransport(config.transport, env),
  };
  return { config, request, vaultPath: config.vaultPath };
}

/** `pair --target URL --integrator-id ID --otp 123456 [--name N] [--webhook-url U] [--vault F]` */
export async function pairCommand(argv: string[], env: NodeJS.ProcessEnv, io: RunIo): Promise<number> {
  const { values, help } = parseCommandLine(PAIR_COMMAND, argv);
  if (help) {
    io.stdout(formatCommandHelp(PAIR_COMMAND));
    return 0;
  }
  const { config, request, vaultPath } = await targetOf(values, env);
  const [otp, ...more] = config.otps;
  if (!otp || more.length > 0) throw new ToolkitError('PCC_USAGE', `pair needs one --otp (${otp ? `${config.otps.length} given` : 'none given'})`, 'read the OTP off the terminal, or ask the vendor support for one');
  // A malformed, open or unwritable vault stops us before the OTP is consumed.
  await prepareVault(vaultPath, env, { mayPair: true });
  const { baseUrl, integratorId } = await openTarget(request);
  const client = createPayConnectClient({ baseUrl, integratorId, redactor: new Redactor(), ...(request.transport ? { transport: request.transport } : {}) });
  try {
    const name = values.name ?? DEFAULTS.pairName;
    const { response: res, credentials } = await pairByOtp(client, { vaultPath, baseUrl, integratorId }, { otp, name, webhookUrl: values['webhook-url'] ?? null, redactor: client.redactor });
    if (!credentials) {
      throw new ToolkitError('PCC_PAIRING_FAILED', `pairing answered ${res.status}: ${client.redactor.redactText(res.rawBody).slice(0, 300)}`, 'check the OTP (six digits, one use) and the integrator id');
    }
    io.stdout(`paired terminal ${credentials.terminal_id} (pay_connect_id ${credentials.pay_connect_id}); credentials saved to ${vaultPath} (mode 0600)\n`);
    if (!values['webhook-url']) {
      io.stderr('warning: paired without --webhook-url: the service has nowhere to post this pairing\'s webhooks, so a run that uses it reports them as not checked. Pair again with --webhook-url <public URL of the run\'s receiver>/webhooks/<slot> (docs/staging.md)\n');
    }
    return 0;
  } finally {
    await client.close();
  }
}

/** `unpair --target URL --integrator-id ID [--pay-connect-id P] [--vault F]`: the newest pairing by default. */
export async function unpairCommand(argv: string[], env: NodeJS.ProcessEnv, io: RunIo): Promise<number> {
  const { values, help } = parseCommandLine(UNPAIR_COMMAND, argv);
  if (help) {
    io.stdout(formatCommandHelp(UNPAIR_COMMAND));
    return 0;
  }
  const { request, vaultPath } = await targetOf(values, env);
  const { vault } = await prepareVault(vaultPath, env, { mayPair: false }); // a malformed or open vault stops us before any request
  const { baseUrl, integratorId } = await openTarget(request);
  const entries = findPairings(vault, baseUrl, integratorId);
  const entry = values['pay-connect-id'] ? entries.find((e) => e.credentials.pay_connect_id === values['pay-connect-id']) : entries.at(-1);
  if (!entry) throw new ToolkitError('PCC_NO_PAIRING', `no pairing for ${baseUrl} (integrator ${integratorId}) in ${vaultPath}`, 'list the vault file, or pass --pay-connect-id');
  const out = await unpairAndForget({ vaultPath, baseUrl, integratorId }, entry, request.transport ? { transport: request.transport } : {});
  if (!out.unpaired && out.error !== undefined) throw out.error; // no answer, or a vault that cannot be written: as it comes
  if (!out.unpaired) throw new ToolkitError('PCC_AUTH_FAILED', `${out.reason}; the vault entry is kept`, 'check the pairing still exists on the service');
  io.stdout(`unpaired ${entry.credentials.pay_connect_id}; removed from ${vaultPath}\n`);
  return 0;
}
