/**
 * `verify-pacts` and `publish-pacts`: provider verification of the toolkit's pacts against the
 * embedded simulator or a service, and publishing them to a Pact Broker. Thin shells over src/pact;
 * the target is opened by src/targets, like every command's (src/pact must not import the simulator).
 */
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { ToolkitError } from '../core/index.ts';
import { DEFAULT_PACT_DIR, brokerAuthFromEnv, formatVerification, pactFilesOf, publishPacts, verifyPacts } from '../pact/index.ts';
import { resolveProfile } from '../profile/index.ts';
import { defaultDeadlineMs, defaultPollMs, openTarget } from '../targets/index.ts';
import type { RunIo } from '../engine/index.ts';

const VERIFY_HELP = `usage: payconnect-conformance verify-pacts [options]

Verifies pact files against a provider with the pact-js Verifier. Provider states are set up
through the public API only (pairing from the vault or by OTP, transactions by sandbox.md's
amounts); webhook messages are triggered on the target and captured by a loopback receiver.

  --target <sim|url>      the embedded simulator (default) or a service's base URL
  --pact <file|dir>       pact file or folder (default: contracts/pacts)
  --integrator-id <id>    integrator id (required for a URL; default sim-integrator)
  --otp <six digits>      an unused OTP, repeatable (a URL target: for pairing, the pair and unpair interactions)
  --vault <file>          the vault of pairings (default .payconnect/vault.json; sim: a throw-away one)
  --sim-fault <id>        a simulator fault switch, repeatable (sim only)
  --deadline <ms>         how long a state may wait for a status (default: as run's --deadline,
                          10000 sim, 120000 URL)
  --allow-production      allow the vendor's production address
`;

const PUBLISH_HELP = `usage: payconnect-conformance publish-pacts --broker-url <url> --consumer-version <v> [options]

Publishes pact files to a Pact Broker (PUT /pacts/provider/{p}/consumer/{c}/version/{v}).
Authentication: PACT_BROKER_TOKEN, or PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD.

  --broker-url <url>         the broker (or PACT_BROKER_BASE_URL)
  --consumer-version <v>     the consumer version (a git commit, a build number)
  --pact <file|dir>          pact file or folder (default: contracts/pacts)
  --branch <name>            the consumer's branch
`;

function parse(argv: string[], options: NonNullable<ParseArgsConfig['options']>) {
  try {
    return parseArgs({ args: argv, options: { ...options, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: false }).values as Record<string, string | string[] | boolean | undefined>;
  } catch (e) {
    throw new ToolkitError('PCC_USAGE', (e as Error).message, `valid options: ${Object.keys(options).map((k) => `--${k}`).join(', ')}`);
  }
}

/** `verify-pacts`: exit 0 when every interaction verified, 1 when one failed. */
export async function verifyPactsCommand(argv: string[], env: NodeJS.ProcessEnv, io: RunIo): Promise<number> {
  const v = parse(argv, {
    target: { type: 'string' }, pact: { type: 'string' }, 'integrator-id': { type: 'string' }, otp: { type: 'string', multiple: true },
    vault: { type: 'string' }, 'sim-fault': { type: 'string', multiple: true }, deadline: { type: 'string' }, 'allow-production': { type: 'boolean' },
  });
  if (v.help) {
    io.stdout(VERIFY_HELP);
    return 0;
  }
  const target = (v.target as string | undefined) ?? 'sim';
  const otps = (v.otp as string[] | undefined) ?? [];
  for (const otp of otps) if (!/^\d{6}$/.test(otp)) throw new ToolkitError('PCC_USAGE', '--otp must be six digits (a value given is not; not shown)');
  const faults = (v['sim-fault'] as string[] | undefined) ?? [];
  const deadline = v.deadline === undefined ? undefined : Number(v.deadline);
  if (deadline !== undefined && !(Number.isInteger(deadline) && deadline > 0)) throw new ToolkitError('PCC_USAGE', `--deadline must be a positive number of milliseconds (got ${String(v.deadline)})`);
  const pactFiles = pactFilesOf((v.pact as string | undefined) ?? DEFAULT_PACT_DIR);

  if (target !== 'sim' && faults.length > 0) throw new ToolkitError('PCC_USAGE', '--sim-fault applies to --target sim only', 'drop --sim-fault, or use --target sim');
  const kind = target === 'sim' ? 'sim' : 'url';
  const opened = await openTarget({
    kind,
    baseUrl: target,
    integratorId: (v['integrator-id'] as string | undefined) ?? (kind === 'url' ? env.PAYCONNECT_INTEGRATOR_ID : undefined),
    // The simulator forgets its pairings when it stops: a throw-away vault unless one is named.
    vaultPath: (v.vault as string | undefined) ?? (kind === 'url' ? env.PAYCONNECT_VAULT : undefined),
    profile: resolveProfile('sandbox'),
    allowProduction: v['allow-production'] === true,
    sim: { faults },
  });
  try {
    // Pairing, the pair interaction and the unpair interaction each take one; sandbox.md: any six digits pair once.
    const allOtps = [...otps];
    if (opened.mintOtp) for (let i = 0; i < 4; i++) allOtps.push(opened.mintOtp());
    io.stdout(`payconnect-conformance verify-pacts: target ${kind === 'sim' ? `sim${faults.length ? ` (faults: ${faults.join(', ')})` : ''}` : opened.baseUrl}\n`);
    const report = await verifyPacts({
      baseUrl: opened.baseUrl, integratorId: opened.integratorId, vaultPath: opened.vaultPath, otps: allOtps, pactFiles,
      deadlineMs: deadline ?? defaultDeadlineMs(kind), pollMs: defaultPollMs(kind),
    });
    io.stdout(formatVerification(report));
    return report.ok ? 0 : 1;
  } finally {
    await opened.close();
  }
}

/** `publish-pacts`: exit 0 when every pact was accepted by the broker. */
export async function publishPactsCommand(argv: string[], env: NodeJS.ProcessEnv, io: RunIo): Promise<number> {
  const v = parse(argv, { 'broker-url': { type: 'string' }, 'consumer-version': { type: 'string' }, pact: { type: 'string' }, branch: { type: 'string' } });
  if (v.help) {
    io.stdout(PUBLISH_HELP);
    return 0;
  }
  const brokerUrl = (v['broker-url'] as string | undefined) ?? env.PACT_BROKER_BASE_URL;
  if (!brokerUrl) throw new ToolkitError('PCC_USAGE', '--broker-url is required', 'pass --broker-url <url>, or set PACT_BROKER_BASE_URL');
  const consumerVersion = v['consumer-version'] as string | undefined;
  if (!consumerVersion) throw new ToolkitError('PCC_USAGE', '--consumer-version is required', 'pass the consumer version, e.g. --consumer-version $(git rev-parse HEAD)');
  const auth = brokerAuthFromEnv(env);
  const published = await publishPacts({
    brokerUrl, consumerVersion, pactFiles: pactFilesOf((v.pact as string | undefined) ?? DEFAULT_PACT_DIR),
    ...(v.branch ? { branch: v.branch as string } : {}), ...(auth ? { auth } : {}),
  });
  for (const p of published) io.stdout(`published ${p.consumer} -> ${p.provider} version ${consumerVersion}${v.branch ? ` (branch ${String(v.branch)})` : ''}: ${p.url} (${p.status})\n`);
  io.stdout(`auth: ${auth ? ('token' in auth ? 'bearer token from PACT_BROKER_TOKEN' : 'basic auth from PACT_BROKER_USERNAME/PASSWORD') : 'none'}\n`);
  return 0;
}
