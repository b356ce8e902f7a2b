/**
 * certify-client's work once its command line is read (cli/commands/certify-client.ts): start the
 * embedded simulator (recording on, one forged webhook per receiver), run the client's command with
 * PAYCONNECT_BASE_URL, PAYCONNECT_INTEGRATOR_ID and a fresh PAYCONNECT_OTP, kill it after the timeout,
 * and judge what it did; or judge a recording that `sim --record FILE` made. With `tls` the simulator
 * serves HTTPS on a throw-away CA and the command also gets PAYCONNECT_CA_FILE: trusting it is the
 * client's own business (nothing like NODE_EXTRA_CA_CERTS is set for it).
 */
import { spawn } from 'node:child_process';
import { type RunIo, ToolkitError } from '../core/index.ts';
import { type RunFacts, type RunRecord, type TestRecord, prepareReportsDir } from '../report/index.ts';
import { CommandTranscript } from '../transcript/command-transcript.ts';
import { type SimRecordEntry, type SimulatorHandle, startSimulator } from '../simulator/index.ts';
import { type ClientProfile, type ClientRun, clientRunOf, readRecordingFile } from './client-run.ts';
import { CLIENT_CAPABILITY, judgeClient } from './judge.ts';
import { CLIENT_RULES } from './rules.ts';

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

/** `s` with every secret the simulator handed out replaced (the client's own output may print them). */
function scrubber(sim: SimulatorHandle | null): (s: string) => string {
  return (s) => {
    let out = s;
    for (const secret of sim?.issuedSecrets() ?? [])
      if (secret.length >= 8 && out.includes(secret)) out = out.split(secret).join('[REDACTED]');
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
async function runCommand(
  command: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
  io: RunIo,
  scrub: (s: string) => string,
): Promise<CommandEnd> {
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
      child.once('error', (e) =>
        reject(
          usage(
            `the command ${quote(command[0]!)} could not be started (${(e as NodeJS.ErrnoException).code ?? e.message})`,
            'give a command that exists on PATH, or its path, after --',
          ),
        ),
      );
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
  const error = end.timedOut
    ? `the command did not finish within ${timeoutMs / 1000} s and was killed: a client must end on its own`
    : end.code !== 0
      ? `the command exited with ${end.code === null ? `signal ${end.signal}` : `code ${end.code}`}: a certified client completes its flow and exits 0`
      : undefined;
  return {
    name: `${CLIENT_CAPABILITY} > the command ran its flow to completion and exited 0`,
    capability: CLIENT_CAPABILITY,
    clause: 'spec#what-the-service-does',
    file: 'certify-client',
    state: error ? 'failed' : 'passed',
    durationMs: end.endedAt - started,
    findings: [],
    errors: error ? [error] : [],
    parameters: { exit: end.timedOut ? 'killed after the timeout' : end.code === null ? `signal ${end.signal}` : String(end.code) },
    exchanges: [],
    exchangeCount: 0,
    startedAt,
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
  const reasons = [
    ...new Set(
      tlsLines.map((l) =>
        l
          .replace(/^TLS: /, '')
          .split(caFile)
          .join('the CA in PAYCONNECT_CA_FILE'),
      ),
    ),
  ];
  const error =
    requests > 0
      ? undefined
      : tlsLines.length > 0
        ? `the client made no request: ${tlsLines.length === 1 ? 'its connection' : `all ${tlsLines.length} of its connections`} ` +
          `to the simulator ended in the TLS handshake: ${reasons.join('; ')}`
        : 'the client made no request and no TLS connection reached the simulator (did it use PAYCONNECT_BASE_URL?)';
  return {
    name: TLS_TEST_NAME,
    capability: CLIENT_CAPABILITY,
    clause: 'spec#what-the-service-does',
    file: 'certify-client',
    state: error ? 'failed' : 'passed',
    durationMs,
    findings: [],
    errors: error ? [error] : [],
    parameters: { requests: String(requests), 'failed TLS connections': String(tlsLines.length) },
    exchanges: [],
    exchangeCount: 0,
    startedAt,
  };
}

/**
 * The transcript of a certification: the recording (the requests the client sent and what the
 * simulator answered, the deliveries it was sent), then each rule's verdict on it as a check line
 * (the recording is its input), and the tests the command judged live (its exit, TLS) as check lines
 * that cannot be judged again.
 */
function clientTranscript(
  entries: readonly SimRecordEntry[],
  tests: readonly TestRecord[],
  more: Record<string, unknown>,
  secrets: readonly string[],
): CommandTranscript {
  const tx = new CommandTranscript('certify-client', secrets);
  for (const e of entries) tx.recording(e);
  const rules = new Set<string>(CLIENT_RULES.map((r) => r.id));
  for (const t of tests) {
    const outcome = t.state === 'skipped' ? 'skip' : t.state === 'failed' || t.findings.length > 0 ? 'fail' : 'pass';
    const rule = t.parameters.rule;
    if (rule !== undefined && rules.has(rule)) tx.check(t.name, rule, more, outcome, t.findings);
    else {
      const id = t.name === TLS_TEST_NAME ? 'certify-client.tls-connected' : 'certify-client.command-completed';
      tx.check(t.name, id, undefined, outcome, t.findings, {
        unjudgeable: "judged from the live run (the client command's exit, its TLS handshakes), not from recorded data",
      });
    }
  }
  return tx;
}

/** For tests and embedders: what the command started. */
export interface CertifyClientHooks {
  /** Called with the simulator once it runs (e.g. to read issuedSecrets() for a leak test). */
  onSimulator?: (sim: SimulatorHandle) => void;
}

/** What a certification found: the tests, the facts the reports state, the transcript, and what the console says of it. */
export interface Certification {
  record: RunRecord;
  /** The run's facts but those every command shares (report/run-info.ts). */
  facts: RunFacts;
  /** What is certified: the client's command line, or the recording. */
  subject: string;
  transcript: CommandTranscript;
  /** The transcript header's options. */
  options: Record<string, unknown>;
  run: ClientRun;
  /** With --tls: one line per connection that ended in the TLS handshake. */
  tlsLines: readonly string[];
}

/** What a client did: its recording, and what the run of its command adds (its end, the TLS handshakes, the secrets handed out). */
interface ClientSession {
  entries: SimRecordEntry[];
  subject: string;
  target: RunFacts['target'];
  seed: number;
  /** The test that the command ran to completion (a live run only). */
  completion?: TestRecord;
  /** When the command ended, from the recording's start (a live run only). */
  endedAt?: number;
  /** With --tls: one line per connection that ended in the TLS handshake. */
  tlsLines: string[];
  caFile: string | null;
  /**
   * Values the transcript must never hold (the recording is redacted already: a second guard). Not the
   * OTP: spent by the pairing, and the pairing request's body is judged against the contract.
   */
  secrets: string[];
}

/** A recording that `sim --record FILE` made while a client was run by hand; the reports folder prepared once it is read. */
async function recordedSession(o: CertifyClientOptions, recording: string): Promise<ClientSession> {
  const entries = readRecordingFile(recording);
  const start = entries.find((e) => e.type === 'start');
  await prepareReportsDir(o.reportsDir);
  return {
    entries,
    subject: `the client recorded in ${recording}`,
    target: { kind: 'recording', baseUrl: start?.url ?? '(unknown)' },
    seed: start?.seed ?? 0,
    tlsLines: [],
    caFile: null,
    secrets: [],
  };
}

/** The client's command run against a simulator of its own (recording on, one forged webhook per receiver), killed after the timeout. */
async function liveSession(
  o: CertifyClientOptions,
  command: string[],
  env: NodeJS.ProcessEnv,
  io: RunIo,
  hooks: CertifyClientHooks,
): Promise<ClientSession> {
  await prepareReportsDir(o.reportsDir);
  const started = Date.now();
  const entries: SimRecordEntry[] = [];
  const tlsLines: string[] = [];
  const subject = command.map(quote).join(' ');
  const sim = await startSimulator({
    record: (e) => entries.push(e),
    forgeWebhook: true,
    ...(o.tokenLifetimeSec !== undefined ? { tokenLifetimeSec: o.tokenLifetimeSec } : {}),
    ...(o.stepDelayMs !== undefined ? { stepDelayMs: o.stepDelayMs, deadlineMs: Math.max(3000, 2 * o.stepDelayMs + 1) } : {}),
    ...(o.seed !== undefined ? { seed: o.seed } : {}),
    ...(o.tls ? { tls: true, onTlsError: (line: string) => void tlsLines.push(line) } : {}),
  });
  try {
    hooks.onSimulator?.(sim);
    const ca = sim.caFile !== null ? `, PAYCONNECT_CA_FILE ${sim.caFile}` : '';
    io.stdout(
      `certify-client: running ${subject} against the simulator at ${sim.url} (integrator id ${o.integratorId}${ca}, timeout ${o.timeoutMs / 1000} s)\n`,
    );
    const childEnv = {
      ...env,
      PAYCONNECT_BASE_URL: sim.url,
      PAYCONNECT_INTEGRATOR_ID: o.integratorId,
      PAYCONNECT_OTP: sim.mintOtp(),
      ...(sim.caFile !== null ? { PAYCONNECT_CA_FILE: sim.caFile } : {}),
    };
    const end = await runCommand(command, childEnv, o.timeoutMs, io, scrubber(sim));
    // Deliveries and the forged one in flight when the command ended get their answers recorded.
    await new Promise((r) => setTimeout(r, 150));
    await sim.close();
    const t0 = entries[0]?.type === 'start' ? Date.parse(entries[0].at) : started;
    return {
      entries,
      subject,
      target: { kind: 'sim', baseUrl: sim.url },
      seed: sim.seed,
      completion: completionTest(end, o.timeoutMs, new Date(started).toISOString(), started),
      endedAt: end.endedAt - t0,
      tlsLines,
      caFile: sim.caFile,
      secrets: [...sim.issuedSecrets()],
    };
  } finally {
    await sim.close();
  }
}

/**
 * Runs the client (or reads its recording) and judges it. The reports folder is prepared once the
 * recording is read, before the client is started: bad input loses no earlier reports, and a folder
 * that cannot be used is said before anything runs.
 */
export async function certifyClient(
  o: CertifyClientOptions,
  env: NodeJS.ProcessEnv,
  io: RunIo,
  hooks: CertifyClientHooks = {},
): Promise<Certification> {
  const started = Date.now();
  const startedAt = new Date(started).toISOString();
  const c = o.recording !== null ? await recordedSession(o, o.recording) : await liveSession(o, o.command!, env, io, hooks);
  const more = {
    settings: o.settings,
    ...(o.recording === null ? { integratorId: o.integratorId } : {}),
    ...(c.endedAt !== undefined ? { endedAt: c.endedAt } : {}),
  };
  const run = clientRunOf(c.entries, more);
  const tests = judgeClient(run, { strict: o.strict, startedAt, baseUrl: c.target.baseUrl, disabled: o.disabled });
  if (c.caFile !== null) tests.push(tlsTest(run.requests.length, c.tlsLines, c.caFile, startedAt, Date.now() - started));
  if (c.completion) tests.push(c.completion);
  return {
    record: { tests, unhandled: [], startedAt, durationMs: Date.now() - started },
    facts: {
      target: c.target,
      profile: 'client',
      terminalMode: 'auto',
      seed: c.seed,
      strict: o.strict,
      integratorId: o.integratorId,
      ...(o.disabled.length > 0 ? { checksDisabled: o.disabled } : {}),
      labels: { client: c.subject },
      startedAt,
    },
    subject: c.subject,
    transcript: clientTranscript(c.entries, tests, more, c.secrets),
    options: {
      client: o.recording === null ? 'run' : 'recording',
      timeoutMs: o.timeoutMs,
      tls: o.tls,
      integratorId: o.integratorId,
      clientProfile: o.settings,
      ...(o.tokenLifetimeSec !== undefined ? { tokenLifetimeSec: o.tokenLifetimeSec } : {}),
      ...(o.stepDelayMs !== undefined ? { stepDelayMs: o.stepDelayMs } : {}),
    },
    run,
    tlsLines: c.tlsLines,
  };
}
