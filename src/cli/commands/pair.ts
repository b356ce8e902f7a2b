/**
 * `pair`: pairs with a terminal by OTP. The credentials are saved atomically the moment the answer
 * arrives, before anything else: they cannot be recovered.
 */
import { Redactor, createPayConnectClient } from '../../client/index.ts';
import { type RunIo, ToolkitError } from '../../core/index.ts';
import { DEFAULTS, formatCommandHelp, parseCommandLine, type CommandSpec } from '../../config/index.ts';
import { openTarget } from '../../targets/index.ts';
import { pairByOtp } from '../../pairing/index.ts';
import { prepareVault } from '../../vault/index.ts';
import { defineCommand } from '../command.ts';
import { NETWORK, TARGET, targetOf } from '../service-target.ts';

/** `pair`: the target's flags, the pairing's own, the network's. */
export const PAIR_COMMAND = {
  name: 'pair',
  synopsis: '--target <url> --integrator-id <id> --otp <six digits> [flags]',
  about:
    'Pairs with a terminal by OTP and saves the credentials to the vault (atomically, mode 0600) before ' +
    "anything else: they cannot be recovered. The target's flags resolve as run's do: flag > environment > config file > default.\n\n" +
    "Without --webhook-url the service has nowhere to post this pairing's webhooks, and a run that uses the " +
    "pairing cannot check them: give the public URL that reaches the run's receiver (see docs/staging.md).",
  sections: [
    { heading: 'Target', flags: TARGET },
    {
      heading: 'Pairing',
      flags: [
        { name: 'name', type: 'string', placeholder: '<name>', description: "The pairing's name", defaultText: DEFAULTS.pairName },
        { name: 'webhook-url', type: 'string', placeholder: '<url>', description: "Where the service posts this pairing's webhooks" },
      ],
    },
    NETWORK,
  ],
} as const satisfies CommandSpec;

/** `pair --target URL --integrator-id ID --otp 123456 [--name N] [--webhook-url U] [--vault F]` */
export async function pairCommand(argv: string[], env: NodeJS.ProcessEnv, io: RunIo): Promise<number> {
  const { values, help } = parseCommandLine(PAIR_COMMAND, argv);
  if (help) {
    io.stdout(formatCommandHelp(PAIR_COMMAND));
    return 0;
  }
  const { config, request, vaultPath } = await targetOf(values, env);
  const [otp, ...more] = config.otps;
  if (!otp || more.length > 0)
    throw new ToolkitError(
      'PCC_USAGE',
      `pair needs one --otp (${otp ? `${config.otps.length} given` : 'none given'})`,
      'read the OTP off the terminal, or ask the vendor support for one',
    );
  // A malformed, open or unwritable vault stops us before the OTP is consumed.
  await prepareVault(vaultPath, env, { mayPair: true });
  const { baseUrl, integratorId } = await openTarget(request);
  const client = createPayConnectClient({
    baseUrl,
    integratorId,
    redactor: new Redactor(),
    ...(request.transport ? { transport: request.transport } : {}),
  });
  try {
    const name = values.name ?? DEFAULTS.pairName;
    const { response: res, credentials } = await pairByOtp(
      client,
      { vaultPath, baseUrl, integratorId },
      { otp, name, webhookUrl: values['webhook-url'] ?? null, redactor: client.redactor },
    );
    if (!credentials) {
      throw new ToolkitError(
        'PCC_PAIRING_FAILED',
        `pairing answered ${res.status}: ${client.redactor.redactText(res.rawBody).slice(0, 300)}`,
        'check the OTP (six digits, one use) and the integrator id',
      );
    }
    io.stdout(
      `paired terminal ${credentials.terminal_id} (pay_connect_id ${credentials.pay_connect_id}); credentials saved to ${vaultPath} (mode 0600)\n`,
    );
    if (!values['webhook-url']) {
      io.stderr(
        "warning: paired without --webhook-url: the service has nowhere to post this pairing's webhooks, " +
          'so a run that uses it reports them as not checked. Pair again with --webhook-url <public URL ' +
          "of the run's receiver>/webhooks/<slot> (docs/staging.md)\n",
      );
    }
    return 0;
  } finally {
    await client.close();
  }
}

export default defineCommand({ spec: PAIR_COMMAND, run: pairCommand });
