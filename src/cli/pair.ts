/**
 * `pair` and `unpair`: manage the vault by hand. Pairing saves the credentials atomically the moment
 * the answer arrives; unpairing revokes them on the service and then removes them from the vault.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Redactor, createPayConnectClient } from '../client/index.ts';
import { ToolkitError } from '../core/index.ts';
import { resolveProfile } from '../profile/index.ts';
import { DEFAULTS, NETWORK_PARSE_OPTIONS, networkSettingsFrom, networkUsage } from '../config/index.ts';
import { loadTransport } from '../transport/index.ts';
import { type TargetRequest, openTarget } from '../targets/index.ts';
import { pairByOtp } from '../pairing/index.ts';
import { findPairings, prepareVault, removeVaultEntry } from '../vault/index.ts';
import type { RunIo } from '../engine/index.ts';

const PAIR_USAGE = `usage: payconnect-conformance pair --target <url> --integrator-id <id> --otp <six digits> [options]

Pairs with a terminal by OTP and saves the credentials to the vault (atomically, mode 0600) before
anything else: they cannot be recovered.

  --target <url>          the service's base URL (env PAYCONNECT_TARGET)
  --integrator-id <id>    the integrator id (env PAYCONNECT_INTEGRATOR_ID)
  --otp <six digits>      the one-time password the terminal shows (env PAYCONNECT_OTP)
  --vault <file>          the vault file (env PAYCONNECT_VAULT; default ${DEFAULTS.vault})
  --name <name>           the pairing's name (default payconnect-conformance)
  --webhook-url <url>     where the service posts this pairing's webhooks
  --allow-production      allow the vendor's production host
${networkUsage()}

Without --webhook-url the service has nowhere to post this pairing's webhooks, and a run that uses the
pairing cannot check them: give the public URL that reaches the run's receiver (see docs/staging.md).
`;

const UNPAIR_USAGE = `usage: payconnect-conformance unpair --target <url> --integrator-id <id> [options]

Unpairs a vault pairing on the service (its credentials stop working), then removes it from the vault.

  --target <url>          the service's base URL (env PAYCONNECT_TARGET)
  --integrator-id <id>    the integrator id (env PAYCONNECT_INTEGRATOR_ID)
  --pay-connect-id <id>   which pairing (default: the newest of that target)
  --vault <file>          the vault file (env PAYCONNECT_VAULT; default ${DEFAULTS.vault})
  --allow-production      allow the vendor's production host
${networkUsage()}
`;

const wantsHelp = (argv: readonly string[]) => argv.includes('--help') || argv.includes('-h');

const OPTIONS = {
  target: { type: 'string' },
  'integrator-id': { type: 'string' },
  otp: { type: 'string' },
  vault: { type: 'string' },
  name: { type: 'string' },
  'webhook-url': { type: 'string' },
  'allow-production': { type: 'boolean' },
  'pay-connect-id': { type: 'string' },
  ...NETWORK_PARSE_OPTIONS,
} as const;

function parse(argv: string[], env: NodeJS.ProcessEnv) {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (e) {
    throw new ToolkitError('PCC_USAGE', (e as Error).message, `valid options: ${Object.keys(OPTIONS).map((k) => `--${k}`).join(', ')}, --help`);
  }
  const target = values.target ?? env.PAYCONNECT_TARGET;
  if (!target || !/^https?:\/\//.test(target)) throw new ToolkitError('PCC_USAGE', `--target must be the service's base URL (got ${target ?? 'nothing'})`, 'pass --target https://your-sandbox.example');
  const request: TargetRequest = {
    kind: 'url', baseUrl: target, integratorId: values['integrator-id'] ?? env.PAYCONNECT_INTEGRATOR_ID,
    vaultPath: values.vault ?? env.PAYCONNECT_VAULT, profile: resolveProfile('public'), allowProduction: values['allow-production'] ?? false,
    transport: loadTransport(networkSettingsFrom(values, env, process.cwd()), env),
  };
  return { values, request, vaultPath: resolve(values.vault ?? env.PAYCONNECT_VAULT ?? DEFAULTS.vault) };
}

/** `pair --target URL --integrator-id ID --otp 123456 [--name N] [--webhook-url U] [--vault F]` */
export async function pairCommand(argv: string[], env: NodeJS.ProcessEnv, io: RunIo): Promise<number> {
  if (wantsHelp(argv)) {
    io.stdout(PAIR_USAGE);
    return 0;
  }
  const { values, request, vaultPath } = parse(argv, env);
  const otp = values.otp ?? env.PAYCONNECT_OTP;
  if (!otp || !/^\d{6}$/.test(otp)) throw new ToolkitError('PCC_USAGE', `--otp must be six digits (${otp ? 'the value given is not; not shown' : 'none given'})`, 'read the OTP off the terminal, or ask the vendor support for one');
  // A malformed, open or unwritable vault stops us before the OTP is consumed.
  await prepareVault(vaultPath, env, { mayPair: true });
  const { baseUrl, integratorId } = await openTarget(request);
  const client = createPayConnectClient({ baseUrl, integratorId, redactor: new Redactor(), ...(request.transport ? { transport: request.transport } : {}) });
  try {
    const name = values.name ?? 'payconnect-conformance';
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
  if (wantsHelp(argv)) {
    io.stdout(UNPAIR_USAGE);
    return 0;
  }
  const { values, request, vaultPath } = parse(argv, env);
  const { vault } = await prepareVault(vaultPath, env, { mayPair: false }); // a malformed or open vault stops us before any request
  const { baseUrl, integratorId } = await openTarget(request);
  const entries = findPairings(vault, baseUrl, integratorId);
  const entry = values['pay-connect-id'] ? entries.find((e) => e.credentials.pay_connect_id === values['pay-connect-id']) : entries.at(-1);
  if (!entry) throw new ToolkitError('PCC_NO_PAIRING', `no pairing for ${baseUrl} (integrator ${integratorId}) in ${vaultPath}`, 'list the vault file, or pass --pay-connect-id');
  const client = createPayConnectClient({ baseUrl, integratorId, credentials: { client_id: entry.credentials.client_id, client_secret: entry.credentials.client_secret }, redactor: new Redactor([entry.credentials.client_secret]), ...(request.transport ? { transport: request.transport } : {}) });
  try {
    const res = await client.request({ method: 'POST', path: '/v1/pay-connect/unpair/' });
    if (res.status >= 300) throw new ToolkitError('PCC_AUTH_FAILED', `unpair answered ${res.status}; the vault entry is kept`, 'check the pairing still exists on the service');
    await removeVaultEntry(vaultPath, (e) => e.credentials.pay_connect_id === entry.credentials.pay_connect_id && e.key === entry.key);
    io.stdout(`unpaired ${entry.credentials.pay_connect_id}; removed from ${vaultPath}\n`);
    return 0;
  } finally {
    await client.close();
  }
}
