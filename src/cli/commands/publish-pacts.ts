/** `publish-pacts`: pact files published to a Pact Broker. A thin shell over src/pact. */
import { type RunIo, ToolkitError } from '../../core/index.ts';
import { DEFAULT_PACT_DIR, pactFilesOf } from '../../pact/common/index.ts';
import { brokerAuthFromEnv, publishPacts } from '../../pact/broker/index.ts';
import { formatCommandHelp, parseCommandLine, type CommandSpec } from '../../config/index.ts';
import { defineCommand } from '../command.ts';
import { PACT_FLAG } from './verify-pacts.ts';

/** `publish-pacts`: the broker, the version, the pacts. */
export const PUBLISH_PACTS_COMMAND = {
  name: 'publish-pacts',
  synopsis: '--broker-url <url> --consumer-version <v> [flags]',
  about:
    'Publishes pact files to a Pact Broker (PUT /pacts/provider/{p}/consumer/{c}/version/{v}). ' +
    'Authentication: PACT_BROKER_TOKEN, or PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD.',
  sections: [
    {
      heading: 'Flags',
      flags: [
        { name: 'broker-url', type: 'string', placeholder: '<url>', description: 'The broker', envText: 'PACT_BROKER_BASE_URL' },
        {
          name: 'consumer-version',
          type: 'string',
          placeholder: '<v>',
          description: 'The consumer version (a git commit, a build number)',
        },
        { ...PACT_FLAG, multiple: false, description: 'Pact file or folder' },
        { name: 'branch', type: 'string', placeholder: '<name>', description: "The consumer's branch" },
      ],
    },
  ],
} as const satisfies CommandSpec;

/** `publish-pacts`: exit 0 when every pact was accepted by the broker. */
export async function publishPactsCommand(argv: string[], env: NodeJS.ProcessEnv, io: RunIo): Promise<number> {
  const { values: v, help } = parseCommandLine(PUBLISH_PACTS_COMMAND, argv);
  if (help) {
    io.stdout(formatCommandHelp(PUBLISH_PACTS_COMMAND));
    return 0;
  }
  const brokerUrl = v['broker-url'] ?? env.PACT_BROKER_BASE_URL;
  if (!brokerUrl) throw new ToolkitError('PCC_USAGE', '--broker-url is required', 'pass --broker-url <url>, or set PACT_BROKER_BASE_URL');
  const consumerVersion = v['consumer-version'];
  if (!consumerVersion)
    throw new ToolkitError(
      'PCC_USAGE',
      '--consumer-version is required',
      'pass the consumer version, e.g. --consumer-version $(git rev-parse HEAD)',
    );
  const auth = brokerAuthFromEnv(env);
  const published = await publishPacts({
    brokerUrl,
    consumerVersion,
    pactFiles: pactFilesOf(v.pact ?? DEFAULT_PACT_DIR),
    ...(v.branch ? { branch: v.branch } : {}),
    ...(auth ? { auth } : {}),
  });
  for (const p of published)
    io.stdout(
      `published ${p.consumer} -> ${p.provider} version ${consumerVersion}${v.branch ? ` (branch ${v.branch})` : ''}: ${p.url} (${p.status})\n`,
    );
  io.stdout(
    `auth: ${auth ? ('token' in auth ? 'bearer token from PACT_BROKER_TOKEN' : 'basic auth from PACT_BROKER_USERNAME/PASSWORD') : 'none'}\n`,
  );
  return 0;
}

export default defineCommand({ spec: PUBLISH_PACTS_COMMAND, run: publishPactsCommand });
