/**
 * `check-pact`, `verify-pacts` and `publish-pacts`: an integrator's consumer pact checked against the
 * contract, provider verification of the toolkit's pacts (or an integrator's) against the embedded
 * simulator or a service, and publishing them to a Pact Broker. Thin shells over src/pact;
 * the target is opened by src/targets, like every command's (src/pact must not import the simulator).
 */
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { ToolkitError, isToolkitError } from '../core/index.ts';
import { DEFAULT_PACT_DIR, brokerAuthFromEnv, checkPactFiles, formatCheckPact, STATE, formatVerification, pactFilesOf, publishPacts, readAnyPact, verifyPacts } from '../pact/index.ts';
import { resolveProfile } from '../profile/index.ts';
import { findPairings, loadPrivateVault } from '../vault/index.ts';
import { defaultDeadlineMs, defaultPollMs, openTarget } from '../targets/index.ts';
import { type Forwarder, loadTransport, startForwarder } from '../transport/index.ts';
import { NETWORK_PARSE_OPTIONS, networkSettingsFrom, networkUsage } from '../config/index.ts';
import { DURATION_HINT, tryParseDuration } from '../config/duration.ts';
import type { RunIo } from '../engine/index.ts';
import { resolve } from 'node:path';
import { writeCheckPactReports } from './check-pact-reports.ts';

/** Where check-pact writes its reports by default. */
const CHECK_PACT_REPORTS = 'reports/pact-check';

/** The help of `check-pact`. */
export const CHECK_PACT_USAGE = `usage: payconnect-conformance check-pact [--json] [--reports DIR] [--no-html] FILE...

Checks consumer pacts (Pact V2, V3 or V4 JSON files) against contracts/pay-connect.openapi.yaml:
is every interaction possible for a provider that follows the contract?
  requests   an operation of the contract (method, path with its trailing slash), the
             X-Pay-Connect-Integrator-Id header and Authorization: Bearer where the operation
             requires them, only documented query parameters, a body the request schema accepts
  responses  a status the operation documents, application/json, a body that status's schema
             accepts, no field the schema does not define (the contract does not promise it)
  messages   (V3 message pacts, V4 asynchronous messages) the webhook payload schemas
             (TransactionEvent, OperationEvent), the Signature metadata's pattern
Matchers: the example values are validated (they are what a provider is sent and answers);
matching rules only loosen the comparison, and a regex rule its own example fails is reported.
Secrets in a pact (Authorization values, client_secret, access_token, ...) are never printed.

  --json          print the result as JSON
  --reports DIR   where the reports go (default ${CHECK_PACT_REPORTS}): summary.json, junit.xml,
                  certification.md/.html, Allure; one test per interaction
  --no-html       skip the Allure HTML report
  -h, --help      this help

Exit code: 0 every interaction is possible, 1 one is not, 2 usage error (a file missing, not
JSON, not a pact). To verify a pact against the simulator: verify-pacts --pact FILE --target sim.
`;

/** The help of `verify-pacts`. */
export const VERIFY_PACTS_USAGE = `usage: payconnect-conformance verify-pacts [options]

Verifies pact files against a provider with the pact-js Verifier. Provider states are set up
through the public API only (pairing from the vault or by OTP, transactions by sandbox.md's
amounts); webhook messages are triggered on the target and captured by a loopback receiver.
An integrator's pact may name the toolkit's provider states (below) and take the ids they supply
with fromProviderState (\${transactionId}, \${operationId}, \${otp}, \${webhookUrl}); a state the
toolkit does not know is reported and run with a paired terminal only.

  --target <sim|url>      the embedded simulator (default) or a service's base URL
  --pact <file|dir>       pact file or folder, repeatable (default: contracts/pacts, the toolkit's)
  --integrator-id <id>    integrator id (required for a URL; default sim-integrator)
  --otp <six digits>      an unused OTP, repeatable; a URL target needs one each for its pairing and
                          for the pairing interactions (the toolkit's pact: pair, pair echoing the
                          name, the consumed OTP, unpair: five in all, four with a vault pairing)
  --webhook-listen <host:port>  where the webhook receivers listen (default 127.0.0.1, any free port)
  --webhook-public-url <url>    the public base URL a tunnel forwards to --webhook-listen's port, for a
                          service that cannot reach loopback; each pairing gets <url>/webhooks/<slot>
  --vault <file>          the vault of pairings (default .payconnect/vault.json; sim: a throw-away one)
  --sim-fault <id>        a simulator fault switch, repeatable (sim only)
  --deadline <duration>   how long a state may wait for a status: 30s, 2m, or milliseconds
                          (default: as run's --deadline, 10s sim, 2m URL)
  --allow-production      allow the vendor's production address
${networkUsage()}
  Against a URL, the Pact core talks to a loopback forwarder that goes on with these settings.

Provider states: ${Object.values(STATE).map((x) => `"${x}"`).join(', ')}.
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

/**
 * `check-pact FILE...`: exit 0 when every interaction of every file is possible under the contract,
 * 1 when one is not, 2 for a usage error (printed here as `PCC_USAGE: ...` and its fix).
 */
export async function checkPactCommand(argv: string[], _env: NodeJS.ProcessEnv, io: RunIo): Promise<number> {
  try {
    let parsed;
    try {
      parsed = parseArgs({ args: argv, options: { json: { type: 'boolean' }, reports: { type: 'string' }, 'no-html': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: true });
    } catch (e) {
      throw new ToolkitError('PCC_USAGE', (e as Error).message.split('\n')[0]!, 'usage: payconnect-conformance check-pact [--json] FILE... (see check-pact --help)');
    }
    if (parsed.values.help) {
      io.stdout(CHECK_PACT_USAGE);
      return 0;
    }
    const files = parsed.positionals;
    if (files.length === 0) throw new ToolkitError('PCC_USAGE', 'check-pact needs at least one pact file', 'pass the pact files your consumer tests wrote: check-pact pacts/my-pos-pay-connect.json');
    const startedAt = new Date().toISOString();
    const report = checkPactFiles(files);
    io.stdout(parsed.values.json ? `${JSON.stringify(report, null, 2)}\n` : formatCheckPact(report));
    const written = await writeCheckPactReports({ dir: resolve(parsed.values.reports ?? CHECK_PACT_REPORTS), report, startedAt, html: !parsed.values['no-html'], stderr: io.stderr });
    if (!parsed.values.json) io.stdout(`reports: ${written.reports.summary}, ${written.reports.certificationMd}${written.reports.allureReport ? `, ${written.reports.allureReport}/index.html` : ''}\n`);
    return report.ok ? (written.exitCode === 2 ? 2 : 0) : 1;
  } catch (e) {
    if (!isToolkitError(e) || e.code !== 'PCC_USAGE') throw e;
    io.stderr(`${e.toUserMessage()}\n`);
    return 2;
  }
}

/** `verify-pacts`: exit 0 when every interaction verified, 1 when one failed. */
export async function verifyPactsCommand(argv: string[], env: NodeJS.ProcessEnv, io: RunIo): Promise<number> {
  const v = parse(argv, {
    target: { type: 'string' }, pact: { type: 'string', multiple: true }, 'integrator-id': { type: 'string' }, otp: { type: 'string', multiple: true },
    vault: { type: 'string' }, 'sim-fault': { type: 'string', multiple: true }, deadline: { type: 'string' }, 'allow-production': { type: 'boolean' },
    'webhook-listen': { type: 'string' }, 'webhook-public-url': { type: 'string' }, ...NETWORK_PARSE_OPTIONS,
  });
  if (v.help) {
    io.stdout(VERIFY_PACTS_USAGE);
    return 0;
  }
  const webhooks = webhookOptions(v['webhook-listen'] as string | undefined, v['webhook-public-url'] as string | undefined);
  const target = (v.target as string | undefined) ?? 'sim';
  const otps = (v.otp as string[] | undefined) ?? [];
  for (const otp of otps) if (!/^\d{6}$/.test(otp)) throw new ToolkitError('PCC_USAGE', '--otp must be six digits (a value given is not; not shown)');
  const faults = (v['sim-fault'] as string[] | undefined) ?? [];
  // A duration as run takes it (30s, 2m, or milliseconds).
  const parsed = v.deadline === undefined ? undefined : tryParseDuration(v.deadline);
  if (parsed && (!parsed.ok || parsed.ms < 1)) throw new ToolkitError('PCC_USAGE', `--deadline ${JSON.stringify(v.deadline)} is ${parsed.ok ? 'zero' : parsed.reason}`, DURATION_HINT);
  const deadline = parsed?.ok ? parsed.ms : undefined;
  const pactFiles = [...new Set(((v.pact as string[] | undefined) ?? [DEFAULT_PACT_DIR]).flatMap((p) => pactFilesOf(p)))];
  // A file that is no pact is a usage error here, not a verifier crash later.
  const pacts = pactFiles.map((f) => readAnyPact(f));

  if (target !== 'sim' && faults.length > 0) throw new ToolkitError('PCC_USAGE', '--sim-fault applies to --target sim only', 'drop --sim-fault, or use --target sim');
  const kind = target === 'sim' ? 'sim' : 'url';
  const network = networkSettingsFrom(v, env, process.cwd());
  const transport = loadTransport(network, env);
  const opened = await openTarget({
    transport,
    kind,
    baseUrl: target,
    integratorId: (v['integrator-id'] as string | undefined) ?? (kind === 'url' ? env.PAYCONNECT_INTEGRATOR_ID : undefined),
    // The simulator forgets its pairings when it stops: a throw-away vault unless one is named.
    vaultPath: (v.vault as string | undefined) ?? (kind === 'url' ? env.PAYCONNECT_VAULT : undefined),
    profile: resolveProfile('sandbox'),
    allowProduction: v['allow-production'] === true,
    sim: { faults },
  });
  let forwarder: Forwarder | undefined;
  try {
    if (!opened.mintOtp) await assertOtpBudget(pacts, otps.length, opened);
    // Pairing, the two pair interactions, the consumed-OTP and the unpair interactions each take one (and a spare); sandbox.md: any six digits pair once.
    const allOtps = [...otps];
    if (opened.mintOtp) for (let i = 0; i < 6; i++) allOtps.push(opened.mintOtp());
    io.stdout(`payconnect-conformance verify-pacts: target ${kind === 'sim' ? `sim${faults.length ? ` (faults: ${faults.join(', ')})` : ''}` : opened.baseUrl}\n`);
    // The Pact core makes its own connections and knows no CA file, client certificate or proxy: it
    // talks to a loopback forwarder that goes on through the toolkit's.
    forwarder = kind === 'url' ? await startForwarder(opened.baseUrl, transport) : undefined;
    const report = await verifyPacts({
      ...(forwarder ? { verifierBaseUrl: forwarder.url, transport: network } : {}),
      baseUrl: opened.baseUrl, integratorId: opened.integratorId, vaultPath: opened.vaultPath, otps: allOtps, pactFiles,
      deadlineMs: deadline ?? defaultDeadlineMs(kind), pollMs: defaultPollMs(kind), ...webhooks,
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
async function assertOtpBudget(pacts: ReturnType<typeof readAnyPact>[], given: number, t: { baseUrl: string; integratorId: string; vaultPath: string }): Promise<void> {
  const fresh = pacts.flatMap((p) => p.interactions).filter((i) => i.states.some((s) => s.name === STATE.otp || s.name === STATE.consumedOtp || s.name === STATE.unpairable));
  const stored = findPairings((await loadPrivateVault(t.vaultPath)).vault, t.baseUrl, t.integratorId).length > 0;
  const needed = (stored ? 0 : 1) + fresh.length;
  if (given >= needed) return;
  const parts = [...(stored ? [] : ['1 for its own pairing (the vault has none for this target)']), ...(fresh.length > 0 ? [`${fresh.length} for the interactions that pair or unpair afresh`] : [])];
  throw new ToolkitError('PCC_USAGE', `verify-pacts against ${t.baseUrl} needs ${needed} unused OTP${needed === 1 ? '' : 's'} (${parts.join(', ')}); ${given} given`,
    'read an OTP off the terminal for each and pass --otp <six digits> once per OTP (each pairs once)');
}

/** The receivers' address and public URL of `verify-pacts`, checked. */
function webhookOptions(listen: string | undefined, publicUrl: string | undefined): { webhookHost?: string; webhookPort?: number; webhookPublicUrl?: string } {
  const m = listen === undefined ? undefined : /^(.+):(\d{1,5})$/.exec(listen);
  if (listen !== undefined && (!m || Number(m[2]) > 65535)) throw new ToolkitError('PCC_USAGE', `--webhook-listen must be host:port (got ${listen})`, 'e.g. --webhook-listen 127.0.0.1:8787');
  const port = m ? Number(m[2]) : undefined;
  if (publicUrl !== undefined) {
    if (!/^https?:\/\/\S+$/.test(publicUrl)) throw new ToolkitError('PCC_USAGE', `--webhook-public-url must be an http(s) URL (got ${publicUrl})`, 'give the public address that forwards to --webhook-listen, such as https://tunnel.example');
    if (!port) throw new ToolkitError('PCC_USAGE', '--webhook-public-url needs the port its tunnel forwards to', 'add --webhook-listen <host:port> with that port');
  }
  return { ...(m ? { webhookHost: m[1]!, webhookPort: port } : {}), ...(publicUrl ? { webhookPublicUrl: publicUrl } : {}) };
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
