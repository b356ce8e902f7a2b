/**
 * The target of the commands that talk to a service outside a run (pair, unpair): run's target and
 * network flags, said as they take them (a service's base URL only, never sim or pact), resolved as
 * run resolves them.
 */
import { ToolkitError } from '../core/index.ts';
import { resolveProfile } from '../profile/index.ts';
import { NETWORK_FLAGS, TARGET_FLAGS, argvOf, resolveConfig } from '../config/index.ts';
import { loadTransport } from '../transport/index.ts';
import type { TargetRequest } from '../targets/index.ts';

export const NETWORK = { heading: 'Network (TLS and proxies towards the service)', flags: NETWORK_FLAGS };

/** run's target rows, said as pair and unpair take them: a service's base URL only, never sim or pact. */
export const TARGET = TARGET_FLAGS.map((f) =>
  f.name === 'target'
    ? {
        ...f,
        placeholder: '<url>',
        description: "The service's base URL (http or https; a path where a gateway mounts the API)",
        defaultText: undefined,
      }
    : f.name === 'integrator-id'
      ? { ...f, defaultText: undefined }
      : f,
);

/**
 * The target of pair/unpair through resolveConfig (flag > env > file > default), as `run` resolves it.
 *
 * @throws ToolkitError PCC_USAGE when the target is not a service's base URL
 */
export async function targetOf(values: Readonly<Record<string, unknown>>, env: NodeJS.ProcessEnv) {
  const config = await resolveConfig({ argv: argvOf([...TARGET_FLAGS, ...NETWORK_FLAGS], values), env, cwd: process.cwd() });
  if (config.target.kind !== 'url')
    throw new ToolkitError(
      'PCC_USAGE',
      `--target must be the service's base URL (got ${config.target.kind})`,
      'pass --target https://your-sandbox.example',
    );
  const request: TargetRequest = {
    kind: 'url',
    baseUrl: config.target.baseUrl,
    integratorId: config.integratorId,
    vaultPath: config.vaultPath,
    profile: resolveProfile('public'),
    allowProduction: config.allowProduction,
    transport: loadTransport(config.transport, env),
  };
  return { config, request, vaultPath: config.vaultPath };
}
