/**
 * `certify-client`: judges an integrator's client against the rules of rules.ts.
 *
 * - `certify-client [options] -- <command ...>` starts the embedded simulator (recording on, one
 *   forged webhook per receiver), runs the command with PAYCONNECT_BASE_URL, PAYCONNECT_INTEGRATOR_ID
 *   and a fresh PAYCONNECT_OTP, kills it after --timeout, and judges what it did. With `--tls` the
 *   simulator serves HTTPS on a throw-away CA and the command also gets PAYCONNECT_CA_FILE: trusting
 *   it is the client's own business (nothing like NODE_EXTRA_CA_CERTS is set for it).
 * - `certify-client [options] --recording FILE` judges a client run by hand against `sim --record FILE`.
 *
 * The client needs nothing else: its credentials and webhook key come from pairing, and its webhook
 * endpoint is whatever webhook_url it gives there. Reports are those of `run` (summary.json,
 * junit.xml, certification, Allure); exit 0 certified, 1 not, 2 usage or toolkit error.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateDisableCheck } from '../checks/disable-check.ts';
import { ToolkitError, isToolkitError } from '../core/index.ts';
import { DEFAULTS, REPORT_FLAGS, duration, durationWithin, flagValue, formatCommandHelp, formatDuration, integer, parseCommandLine, runFlagsNamed, type CommandSpec } from '../config/index.ts';
import type { RunIo } from '../engine/run-conformance.ts';
import { writeRecordReports } from '../report/record-reports.ts';
import { CommandTranscript } from '../transcript/command-transcript.ts';
import { summaryExtras } from '../transcript/summary-extras.ts';
import type { RunRecord, TestRecord } from '../report/records.ts';
import { type RunInfo, sha256Hex } from '../report/run-info.ts';
import { prepareReportsDir } from '../report/write.ts';
import { SIMULATOR_DEFAULTS, type SimRecordEntry, type SimulatorHandle, startSimulator } from '../simulator/index.ts';
import { CLIENT_PROFILE_DEFAULTS, type ClientProfile, clientRunOf, readRecordingFile } from './client-run.ts';
import { CLIENT_CAPABILITY, judgeClient } from './judge.ts';
import { CLIENT_RULES } from './rules.ts';

const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CONTRACT_FILE = 'contracts/pay-connect.openapi.yaml';

/** The integrator id given to the client unless --integrator-id says otherwise. */
export const DEFAULT_CLIENT_INTEGRATOR_ID = DEFAULTS.certifyClient.integratorId;

const ms = (n: number) => formatDuration(n);

/** `certify-client`: a recording or a command after `--`, run's report flags, the simulator's settings. */
export const CERTIFY_CLIENT_COMMAND = {
  name: 'certify-client',
  synopsis: '[flags] -- <command> [args...]  |  [flags] --recording <file>',
  about: 'Runs <command> against the embedded simulator and judges how it uses Pay-Connect; or judges a ' +
    'recording that \'sim --record FILE\' made while a client was run by hand. The command gets ' +
    'PAYCONNECT_BASE_URL, PAYCONNECT_INTEGRATOR_ID and a fresh PAYCONNECT_OTP in its environment; its ' +
    'credentials and webhook key come from pairing, its webhook endpoint is the webhook_url it gives there.\n\n' +
    'With --tls the simulator serves HTTPS (PAYCONNECT_BASE_URL=https://localhost:PORT) with a certificate ' +
    'of a throw-away CA, and the command also gets PAYCONNECT_CA_FILE, that CA\'s certificate (PEM): the ' +
    'client must trust it to connect, as it would trust its staging service\'s CA. The Node way: read the ' +
    'file into the \'ca\' of its HTTP agent, beside tls.rootCertificates, or start Node with ' +
    'NODE_EXTRA_CA_CERTS=$PAYCONNECT_CA_FILE. certify-client sets neither: how the client handles TLS is ' +
    'part of what is tested, and a client that does not connect is not certified.',
  dashDash: true,
  // Accepted only to say where a command goes (after --).
  positionals: { what: 'none: the command goes after --' },
  sections: [
    { heading: 'Client', flags: [
      { name: 'recording', type: 'string', placeholder: '<file>', description: 'Judge this recording instead of running a command' },
      { name: 'timeout', type: 'string', placeholder: '<duration>', description: 'The command is killed after this long, e.g. 30s, 2m', defaultText: ms(DEFAULTS.certifyClient.timeoutMs) },
      { name: 'integrator-id', type: 'string', placeholder: '<id>', description: 'The integrator id given to the command', defaultText: DEFAULTS.certifyClient.integratorId },
      { name: 'tls', type: 'boolean', description: 'The simulator serves HTTPS; the command gets PAYCONNECT_CA_FILE to trust (see above)' },
    ] },
    { heading: 'Output', flags: [
      { ...runFlagsNamed('strict')[0]!, description: 'Profile and sandbox rules fail instead of warning', envText: undefined },
      { ...runFlagsNamed('disable-check')[0]!, placeholder: '<rule id>', description: 'A rule not to judge (its id as the reports show it; docs/rules.md lists them); repeat for several. The certificate lists it and is not issued', envText: undefined },
      ...REPORT_FLAGS.map((f) => ({ ...f, envText: undefined })),
    ] },
    { heading: 'Simulator and profile', flags: [
      { name: 'token-lifetime', type: 'string', placeholder: '<seconds>', description: 'The simulator\'s token lifetime, to see renewal on 401', defaultText: String(SIMULATOR_DEFAULTS.tokenLifetimeSec) },
      { name: 'step-delay', type: 'string', placeholder: '<duration>', description: 'The virtual terminal\'s step delay, 0 to 1s', defaultText: ms(SIMULATOR_DEFAULTS.stepDelayMs) },
      { name: 'seed', type: 'string', placeholder: '<n>', description: 'The simulator\'s seed', defaultText: 'random' },
      { name: 'min-poll-interval', type: 'string', placeholder: '<duration>', description: 'Polls of one transaction at least this far apart', defaultText: ms(CLIENT_PROFILE_DEFAULTS.minPollIntervalMs) },
      { name: 'busy-retry-min', type: 'string', placeholder: '<duration>', description: 'After a 409, the same request waits at least this long', defaultText: ms(CLIENT_PROFILE_DEFAULTS.busyRetryMinMs) },
    ] },
  ],
  notes: 'exit: 0 certified (warnings allowed), 1 not certified, 2 usage or toolkit error',
} as const satisfies CommandSpec;

/** The usage text of certify-client (printed with a newline after it). */
export const CERTIFY_CLIENT_USAGE = formatCommandHelp(CERTIFY_CLIENT_COMMAND).replace(/\n$/, '');

const usage = (what: string, fix: string) => new ToolkitError('PCC_USAGE', what, fix);

/** What the command line asks for. */
export interface CertifyClientOptions {
  command: string[] | null;
  recording: string | null;
  reportsDir: string;
  timeoutMs: number;
  strict: boolean;
  /** Rules not judged (--disable-check), by their current ids. */
  disabled: string[];
  html: boolean;
  integratorId: string;
  tokenLifetimeSec: number | undefined;
  stepDelayMs: number | undefined;
  seed: number | undefined;
  /** The simulator serves HTTPS and the command gets PAYCONNECT_CA_FILE. */
  tls: boolean;
  settings: ClientProfile;
}

/**
 * Parses the command line.
 * @throws ToolkitError PCC_USAGE
 */
export function parseCertifyClientArgs(argv: string[]): CertifyClientOptions | 'help' {
  const { values, positionals, help, rest: command } = parseCommandLine(CERTIFY_CLIENT_COMMAND, argv);
  if (help) return 'help';
  if (positionals.length > 0) throw usage(`unexpected argument ${positionals[0]}`, 'put the command after --: certify-client [options] -- <command> [args...]');
  const str = (k: keyof typeof values) => values[k] as string | undefined;
  const recording = str('recording') ?? null;
  if (recording !== null && command !== null) throw usage('both --recording and a command after -- are given', 'either judge a recording or run a command, not both');
  if (recording === null && (command === null || command.length === 0)) {
    throw usage(command === null ? 'no command to certify' : 'no command after --', 'certify-client [options] -- <command> [args...], or certify-client --recording FILE');
  }
  if (recording !== null && recording.trim() === '') throw usage('--recording is empty', 'give the file that sim --record FILE wrote');
  if (recording !== null && values.tls === true) {
    throw usage('--tls is given with --recording', 'drop --tls: a recording is judged as it was made (record a TLS client with sim --tls --record FILE)');
  }
  const integratorId = str('integrator-id') ?? DEFAULTS.certifyClient.integratorId;
  if (integratorId.trim() === '') throw usage('--integrator-id is empty', 'give an integrator id, e.g. --integrator-id acme');
  const reportsDir = str('reports') ?? DEFAULTS.reports;
  if (reportsDir.trim() === '') throw usage('--reports is empty', 'give a folder, e.g. --reports reports');
  const stepDelayMs = flagValue('step-delay', str('step-delay'), durationWithin(0, 1000));
  const within = (flag: 'min-poll-interval' | 'busy-retry-min') => flagValue(flag, str(flag), durationWithin(0, 3_600_000));
  return {
    command, recording, reportsDir,
    timeoutMs: flagValue('timeout', str('timeout'), duration(1)) ?? DEFAULTS.certifyClient.timeoutMs,
    strict: values.strict === true,
    disabled: validateDisableCheck((values['disable-check'] as string[] | undefined) ?? [], 'certify-client', { where: '--disable-check' }),
    html: values.html ?? DEFAULTS.html,
    integratorId,
    tokenLifetimeSec: flagValue('token-lifetime', str('token-lifetime'), integer(1, 86_400 * 365, 'give a whole number of seconds from 1 to 31536000')),
    stepDelayMs,
    seed: flagValue('seed', str('seed'), integer(0, 2 ** 32 - 1, 'give a whole number from 0 to 4294967295')),
    tls: values.tls === true,
    settings: {
      ...CLIENT_PROFILE_DEFAULTS,
      minPollIntervalMs: within('min-poll-interval') ?? CLIENT_PROFILE_DEFAULTS.minPollIntervalMs,
      busyRetryMinMs: within('busy-retry-min') ?? CLIENT_PROFILE_DEFAULTS.busyRetryMinMs,
    },
  };
}

/** `s` with every secret the simulator handed out replaced (the client's own output may print them). */
function scrubber(sim: SimulatorHandle | null): (s: string) => string {
  return (s) => {
    let out = s;
    for (const secret of sim?.issuedSecrets() ?? []) if (secret.length >= 8 && out.includes(secret)) out = out.split(secret).join('[REDACTED]');
    return out;
  };
}

/** Forwards a stream line by line, scrubbed and prefixed. */
function forward(stream: NodeJS.ReadableStream, write: (s: string) => void, scrub: (s: string) => string): () => void {
  let pending = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    pending += chunk;
    let nl: number;
    while ((nl = pending.indexOf('\n')) !== -1) {
      write(`client | ${scrub(pending.slice(0, nl))}\n`);
      pending = pending.slice(nl + 1);
    }
    if (pending.length > 64 * 1024) pending = pending.slice(-64 * 1024);
  });
  return () => {
    if (pending !== '') write(`client | ${scrub(pending)}\n`);
    pending = '';
  };
}

const quote = (a: string) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`);

/** What became of the command. */
interface CommandEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  /** Date.now() when it ended. */
  endedAt: number;
}

/** Runs the command with the simulator's coordinates; kills its process group after `timeoutMs`. */
async function runCommand(command: string[], env: NodeJS.ProcessEnv, timeoutMs: number, io: RunIo, scrub: (s: string) => string): Promise<CommandEnd> {
  const child = spawn(command[0]!, command.slice(1), { env, stdio: ['ignore', 'pipe', 'pipe'], detached: process.platform !== 'win32' });
  const flushOut = forward(child.stdout!, io.stdout, scrub);
  const flushErr = forward(child.stderr!, io.stderr, scrub);
  const kill = (signal: NodeJS.Signals) => {
    try {
      if (child.pid !== undefined && process.platform !== 'win32') process.kill(-child.pid, signal);
      else child.kill(signal);
    } catch {
      // already gone
    }
  };
  let timedOut = false;
  let hard: NodeJS.Timeout | undefined;
  const timer = setTimeout(() => {
    timedOut = true;
    kill('SIGTERM');
    hard = setTimeout(() => kill('SIGKILL'), 2000);
  }, timeoutMs);
  try {
    return await new Promise<CommandEnd>((resolve, reject) => {
      child.once('error', (e) => reject(usage(`the command ${quote(command[0]!)} could not be started (${(e as NodeJS.ErrnoException).code ?? e.message})`,
        'give a command that exists on PATH, or its path, after --')));
      child.once('close', (code, signal) => resolve({ code, signal, timedOut, endedAt: Date.now() }));
    });
  } finally {
    clearTimeout(timer);
    clearTimeout(hard);
    if (timedOut) kill('SIGKILL'); // whatever the command left behind in its group
    flushOut();
    flushErr();
  }
}

/** The test that the command ran to completion: it fails (no finding: no rule) when the command was killed or exited non-zero. */
function completionTest(end: CommandEnd, timeoutMs: number, startedAt: string, started: number): TestRecord {
  const error = end.timedOut ? `the command did not finish within ${timeoutMs / 1000} s and was killed: a client must end on its own`
    : end.code !== 0 ? `the command exited with ${end.code === null ? `signal ${end.signal}` : `code ${end.code}`}: a certified client completes its flow and exits 0`
      : undefined;
  return {
    name: `${CLIENT_CAPABILITY} > the command ran its flow to completion and exited 0`, capability: CLIENT_CAPABILITY, clause: 'spec#what-the-service-does',
    file: 'certify-client', state: error ? 'failed' : 'passed', durationMs: end.endedAt - started, findings: [], errors: error ? [error] : [],
    parameters: { exit: end.timedOut ? 'killed after the timeout' : end.code === null ? `signal ${end.signal}` : String(end.code) },
    exchanges: [], exchangeCount: 0, startedAt,
  };
}

function toolInfo(): { name: string; version: string } {
  const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
  return { name: pkg.name, version: pkg.version };
}

/** What the reports say about one certification run. */
function runInfo(o: CertifyClientOptions, target: RunInfo['target'], seed: number, startedAt: string, subject: string): RunInfo {
  return {
    tool: toolInfo(), target, profile: 'client', terminalMode: 'auto', seed, strict: o.strict,
    integratorId: o.integratorId, suitesSelected: [],
    contract: { file: CONTRACT_FILE, sha256: sha256Hex(readFileSync(join(PACKAGE_ROOT, CONTRACT_FILE))) },
    faults: [], ...(o.disabled.length > 0 ? { checksDisabled: o.disabled } : {}), labels: { client: subject }, startedAt, finishedAt: new Date().toISOString(),
  };
}

/** The name of the test that a `--tls` client connected. */
export const TLS_TEST_NAME = `${CLIENT_CAPABILITY} > connected over TLS, trusting the CA of PAYCONNECT_CA_FILE`;

/**
 * With --tls: the test that the client got through the TLS handshake. A client that made no request
 * did nothing to certify; when its connections ended in the handshake, that is the reason given.
 */
function tlsTest(requests: number, tlsLines: readonly string[], caFile: string, startedAt: string, durationMs: number): TestRecord {
  // The CA's folder is gone once the run ends: the reports name the variable, not the path.
  const reasons = [...new Set(tlsLines.map((l) => l.replace(/^TLS: /, '').split(caFile).join('the CA in PAYCONNECT_CA_FILE')))];
  const error = requests > 0 ? undefined
    : tlsLines.length > 0 ? `the client made no request: ${tlsLines.length === 1 ? 'its connection' : `all ${tlsLines.length} of its connections`} to the simulator ended in the TLS handshake: ${reasons.join('; ')}`
      : 'the client made no request and no TLS connection reached the simulator (did it use PAYCONNECT_BASE_URL?)';
  return {
    name: TLS_TEST_NAME, capability: CLIENT_CAPABILITY, clause: 'spec#what-the-service-does',
    file: 'certify-client', state: error ? 'failed' : 'passed', durationMs, findings: [], errors: error ? [error] : [],
    parameters: { requests: String(requests), 'failed TLS connections': String(tlsLines.length) },
    exchanges: [], exchangeCount: 0, startedAt,
  };
}

/**
 * The transcript of a certification: the recording (the requests the client sent and what the
 * simulator answered, the deliveries it was sent), then each rule's verdict on it as a check line
 * (the recording is its input), and the tests the command judged live (its exit, TLS) as check lines
 * that cannot be judged again.
 */
function clientTranscript(entries: readonly SimRecordEntry[], tests: readonly TestRecord[], more: Record<string, unknown>, secrets: readonly string[]): CommandTranscript {
  const tx = new CommandTranscript('certify-client', secrets);
  for (const e of entries) tx.recording(e);
  const rules = new Set<string>(CLIENT_RULES.map((r) => r.id));
  for (const t of tests) {
    const outcome = t.state === 'skipped' ? 'skip' : t.state === 'failed' || t.findings.length > 0 ? 'fail' : 'pass';
    const rule = t.parameters.rule;
    if (rule !== undefined && rules.has(rule)) tx.check(t.name, rule, more, outcome, t.findings);
    else {
      const id = t.name === TLS_TEST_NAME ? 'certify-client.tls-connected' : 'certify-client.command-completed';
      tx.check(t.name, id, undefined, outcome, t.findings, { unjudgeable: 'judged from the live run (the client command\'s exit, its TLS handshakes), not from recorded data' });
    }
  }
  return tx;
}

/** For tests and embedders: what the command started. */
export interface CertifyClientHooks {
  /** Called with the simulator once it runs (e.g. to read issuedSecrets() for a leak test). */
  onSimulator?: (sim: SimulatorHandle) => void;
}

/**
 * The certify-client command.
 * @returns 0 certified, 1 not certified, 2 usage or toolkit error
 */
export async function certifyClientCommand(argv: string[], env: NodeJS.ProcessEnv, io: RunIo, hooks: CertifyClientHooks = {}): Promise<number> {
  let sim: SimulatorHandle | null = null;
  try {
    const o = parseCertifyClientArgs(argv);
    if (o === 'help') {
      io.stdout(`${CERTIFY_CLIENT_USAGE}\n`);
      return 0;
    }
    const started = Date.now();
    const startedAt = new Date(started).toISOString();
    let entries: SimRecordEntry[];
    let subject: string;
    let completion: TestRecord | undefined;
    let endedAt: number | undefined;
    let target: RunInfo['target'];
    let seed: number;
    /** With --tls: one line per connection that ended in the TLS handshake. */
    const tlsLines: string[] = [];
    let caFile: string | null = null;
    /**
     * Values the transcript must never hold (the recording is redacted already: a second guard). Not the
     * OTP: spent by the pairing, and the pairing request's body is judged against the contract.
     */
    const secrets: string[] = [];
    if (o.recording !== null) {
      entries = readRecordingFile(o.recording);
      subject = `the client recorded in ${o.recording}`;
      const start = entries.find((e) => e.type === 'start');
      target = { kind: 'recording', baseUrl: start?.url ?? '(unknown)' };
      seed = start?.seed ?? 0;
      await prepareReportsDir(o.reportsDir);
    } else {
      await prepareReportsDir(o.reportsDir);
      entries = [];
      const command = o.command!;
      subject = command.map(quote).join(' ');
      sim = await startSimulator({
        record: (e) => entries.push(e), forgeWebhook: true,
        ...(o.tokenLifetimeSec !== undefined ? { tokenLifetimeSec: o.tokenLifetimeSec } : {}),
        ...(o.stepDelayMs !== undefined ? { stepDelayMs: o.stepDelayMs, deadlineMs: Math.max(3000, 2 * o.stepDelayMs + 1) } : {}),
        ...(o.seed !== undefined ? { seed: o.seed } : {}),
        ...(o.tls ? { tls: true, onTlsError: (line: string) => void tlsLines.push(line) } : {}),
      });
      hooks.onSimulator?.(sim);
      caFile = sim.caFile;
      target = { kind: 'sim', baseUrl: sim.url };
      seed = sim.seed;
      const ca = sim.caFile !== null ? `, PAYCONNECT_CA_FILE ${sim.caFile}` : '';
      io.stdout(`certify-client: running ${subject} against the simulator at ${sim.url} (integrator id ${o.integratorId}${ca}, timeout ${o.timeoutMs / 1000} s)\n`);
      const childEnv = {
        ...env, PAYCONNECT_BASE_URL: sim.url, PAYCONNECT_INTEGRATOR_ID: o.integratorId, PAYCONNECT_OTP: sim.mintOtp(),
        ...(sim.caFile !== null ? { PAYCONNECT_CA_FILE: sim.caFile } : {}),
      };
      const end = await runCommand(command, childEnv, o.timeoutMs, io, scrubber(sim));
      // Deliveries and the forged one in flight when the command ended get their answers recorded.
      await new Promise((r) => setTimeout(r, 150));
      await sim.close();
      const t0 = entries[0]?.type === 'start' ? Date.parse(entries[0].at) : started;
      endedAt = end.endedAt - t0;
      completion = completionTest(end, o.timeoutMs, startedAt, started);
    }
    if (sim) secrets.push(...sim.issuedSecrets());
    const more = { settings: o.settings, ...(o.recording === null ? { integratorId: o.integratorId } : {}), ...(endedAt !== undefined ? { endedAt } : {}) };
    const run = clientRunOf(entries, more);
    const tests = judgeClient(run, { strict: o.strict, startedAt, baseUrl: target.baseUrl, disabled: o.disabled });
    if (caFile !== null) tests.push(tlsTest(run.requests.length, tlsLines, caFile, startedAt, Date.now() - started));
    if (completion) tests.push(completion);
    const record: RunRecord = { tests, unhandled: [], startedAt, durationMs: Date.now() - started };
    const info = runInfo(o, target, seed, startedAt, subject);
    const transcript = clientTranscript(entries, tests, more, secrets);
    const result = await writeRecordReports({
      dir: o.reportsDir, record, info, html: o.html,
      certification: { subject: `Pay-Connect client: ${subject}`, required: [CLIENT_CAPABILITY] }, stderr: io.stderr,
      onRecord: async (scrubbed, summary) => {
        await transcript.write(o.reportsDir, {
          info: info as unknown as Record<string, unknown>, settings: { profile: info.profile, strict: o.strict, disabledChecks: o.disabled },
          options: {
            client: o.recording === null ? 'run' : 'recording', timeoutMs: o.timeoutMs, tls: o.tls, integratorId: o.integratorId, clientProfile: o.settings,
            ...(o.tokenLifetimeSec !== undefined ? { tokenLifetimeSec: o.tokenLifetimeSec } : {}), ...(o.stepDelayMs !== undefined ? { stepDelayMs: o.stepDelayMs } : {}),
          },
          summary: summaryExtras(summary),
        }, scrubbed);
      },
    });
    const lines = tests.map((t) => {
      const mark = t.state === 'passed' ? (t.findings.length > 0 ? '!' : '✓') : t.state === 'failed' ? '✗' : '-';
      const detail = t.state === 'skipped' ? `: skipped, ${t.skipReason}`
        : [...t.findings.map((f) => `\n    ${f.severity}: [${f.check}] (${f.clause}) ${f.message}`), ...t.errors.map((e) => `\n    ${e}`)].join('');
      return `${mark} ${t.name}${detail}`;
    });
    const certified = result.reports.certification?.certified ?? (result.exitCode === 0);
    io.stdout([
      `${run.requests.length} requests and ${run.deliveries.length} webhook deliveries recorded${tlsLines.length > 0 ? `; ${tlsLines.length} connection${tlsLines.length === 1 ? '' : 's'} ended in the TLS handshake` : ''}`,
      ...lines,
      `${certified ? 'CERTIFIED' : 'NOT CERTIFIED'}: reports in ${o.reportsDir} (summary.json, junit.xml, certification.md)`,
    ].join('\n') + '\n');
    return result.exitCode === 0 && !certified ? 1 : result.exitCode;
  } catch (e) {
    io.stderr(`${isToolkitError(e) ? e.toUserMessage() : new ToolkitError('PCC_INTERNAL', `certify-client failed: ${(e as Error).message}`).toUserMessage()}\n`);
    return 2;
  } finally {
    await sim?.close();
  }
}
