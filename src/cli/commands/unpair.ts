/** `unpair`: revokes a vault pairing on the service, then removes it from the vault. */
import { type RunIo, ToolkitError } from '../../core/index.ts';
import { formatCommandHelp, parseCommandLine, type CommandSpec } from '../../config/index.ts';
import { openTarget } from '../../targets/index.ts';
import { unpairAndForget } from '../../pairing/index.ts';
import { findPairings, prepareVault } from '../../vault/index.ts';
import { defineCommand } from '../command.ts';
import { NETWORK, TARGET, targetOf } from '../service-target.ts';

/** `unpair`: the target's flags (no OTP), which pairing, the network's. */
export const UNPAIR_COMMAND = {
  name: 'unpair',
  synopsis: '--target <url> --integrator-id <id> [flags]',
  about:
    'Unpairs a vault pairing on the service (its credentials stop working), then removes it from the vault. ' +
    "The target's flags resolve as run's do: flag > environment > config file > default.",
  sections: [
    { heading: 'Target', flags: TARGET.filter((f) => f.name !== 'otp') },
    {
      heading: 'Pairing',
      flags: [
        {
          name: 'pay-connect-id',
          type: 'string',
          placeholder: '<id>',
          description: 'Which pairing',
          defaultText: 'the newest of that target',
        },
      ],
    },
    NETWORK,
  ],
} as const satisfies CommandSpec;

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
  if (!entry)
    throw new ToolkitError(
      'PCC_NO_PAIRING',
      `no pairing for ${baseUrl} (integrator ${integratorId}) in ${vaultPath}`,
      'list the vault file, or pass --pay-connect-id',
    );
  const out = await unpairAndForget({ vaultPath, baseUrl, integratorId }, entry, request.transport ? { transport: request.transport } : {});
  if (!out.unpaired && out.error !== undefined) throw out.error; // no answer, or a vault that cannot be written: as it comes
  if (!out.unpaired)
    throw new ToolkitError('PCC_AUTH_FAILED', `${out.reason}; the vault entry is kept`, 'check the pairing still exists on the service');
  io.stdout(`unpaired ${entry.credentials.pay_connect_id}; removed from ${vaultPath}\n`);
  return 0;
}

export default defineCommand({ spec: UNPAIR_COMMAND, run: unpairCommand });
