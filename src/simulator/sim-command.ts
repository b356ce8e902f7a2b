/**
 * `sim` command: starts the simulator in the foreground, prints how to use it, logs one line per
 * request, and stops cleanly on SIGINT/SIGTERM. A thin shell over startSimulator.
 * With `--terminal manual` it is also the operator's keypad: single keys on a TTY (raw mode), or the
 * same letters one per line on a pipe, act on the terminal that waits.
 */
import { StringDecoder } from 'node:string_decoder';
import { parseArgs } from 'node:util';
import { ToolkitError, isToolkitError } from '../core/errors.ts';
import { CONTROL_PATH, DEFAULT_MANUAL_TIP, type TerminalAction } from './control.ts';
import { FAULTS, isFaultId, type FaultId } from './faults.ts';
import { SIMULATOR_DEFAULTS, type SimulatorOptions, type TerminalView } from './options.ts';
import { jsonLinesSink } from './recording.ts';
import { startSimulator, type SimulatorHandle } from './simulator.ts';

/** What the manual terminal's keys are read from: process.stdin, or a stream a test or embedder gives. */
export type SimInput = NodeJS.ReadableStream & { readonly isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };

/** Where the command writes (and, in manual mode, reads keys from). */
export interface SimCommandIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  /** Manual mode only: where keys come from. @default process.stdin */
  stdin?: SimInput;
}

const FLAGS = {
  port: { type: 'string' },
  host: { type: 'string' },
  'step-delay': { type: 'string' },
  deadline: { type: 'string' },
  'webhook-retry-scale': { type: 'string' },
  seed: { type: 'string' },
  fault: { type: 'string', multiple: true },
  'fault-rate': { type: 'string' },
  otps: { type: 'string' },
  terminal: { type: 'string' },
  'manual-deadline': { type: 'string' },
  record: { type: 'string' },
  'keep-alive': { type: 'string' },
  tls: { type: 'boolean' },
  'tls-dir': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The keys of a manual terminal and the action each takes. */
const ACTION_KEYS: Readonly<Record<string, TerminalAction>> = {
  p: 'present-card', d: 'decline', f: 'fail', r: 'remove-card', t: 'timeout', i: 'add-tip',
};
const KEYS_HELP = 'p present card, d decline, f fail, r remove card, t timeout, i add tip (1.00), l list waiting, q stop';

const USAGE = `usage: sim [--port N] [--host H] [--step-delay MS] [--deadline MS] [--webhook-retry-scale X]
           [--seed N] [--fault ID]... [--fault-rate P] [--otps N] [--terminal auto|manual] [--manual-deadline MS] [--record FILE]
           [--keep-alive announced|close|MS] [--tls [--tls-dir DIR]]
  --port                 port to listen on (0 = any free port; default 0)
  --host                 address to listen on (default 127.0.0.1)
  --step-delay           terminal step delay in ms, 0..1000 (default 50)
  --deadline             transaction deadline in ms, up to 10000 (default 3000)
  --webhook-retry-scale  factor on the 5/10/20/40/80 s webhook retry schedule, (0, 1] (default 0.01)
  --seed                 seed of ids and OTPs, 0..4294967295 (default random)
  --fault                a fault switch, repeatable; one of: ${FAULTS.map((f) => f.id).join(', ')}
  --fault-rate           the probability, above 0 and at most 1, that an active fault switch acts each time
                         it is consulted (a request, a terminal step, a delivery), drawn from --seed: below 1
                         the defects are intermittent (default 1: always)
  --otps                 how many fresh OTPs to print, 0..100 (default 5)
  --terminal             auto (default): the amount's last two digits decide the outcome; manual: each
                         payment, preauthorization or refund waits for an operator action: keys p present
                         card, d decline, f fail, r remove card, t timeout, i add tip (1.00), l list, q stop
                         (on a pipe: the same letters, one per line), or POST /_sim/terminals/<terminal_id>/actions
                         {"action": "present-card"|"decline"|"fail"|"remove-card"|"timeout"|"add-tip",
                         "amount"?: N}; GET /_sim/terminals shows what waits
  --manual-deadline      manual: ms after which a transaction given no action expires, 1000..3600000
                         (default 120000)
  --record               append every request and webhook delivery to FILE, one JSON line each, secrets
                         redacted; each pairing's receiver also gets one forged (wrongly signed) delivery
                         after its first accepted one. Judge it with: certify-client --recording FILE
  --keep-alive           what the server does with a connection after an answer: announced (default: kept
                         5 s, Keep-Alive: timeout=5), close (Connection: close every time), or MS: closed
                         after MS idle without a word, as nginx, AWS ALB, Envoy and HAProxy do (1..600000)
  --tls                  serve HTTPS at https://localhost:PORT: a throw-away CA made at the start (valid a few
                         days) signs a certificate for localhost, 127.0.0.1, ::1 and --host; its certificate
                         is written to ca.pem (printed) for your client to trust, e.g. NODE_EXTRA_CA_CERTS=ca.pem
                         for Node, or curl --cacert ca.pem; a connection that fails its handshake is logged
  --tls-dir              with --tls: the folder for ca.pem, made when missing (default: a fresh temporary
                         folder, removed at the stop); the CA is new at each start, the path stays`;

/** A usage error: one message naming the flag and the fix. */
class UsageError extends Error {}

function int(flag: string, v: string | undefined, min: number, max: number): number | undefined {
  if (v === undefined) return undefined;
  const n = /^[0-9]+$/.test(v) ? Number(v) : NaN;
  if (!(n >= min && n <= max)) throw new UsageError(`--${flag} is "${v}". Fix: give an integer from ${min} to ${max}.`);
  return n;
}

function terminalOptions(str: (k: string) => string | undefined, step: number): Pick<SimulatorOptions, 'terminal' | 'manualDeadlineMs'> {
  const mode = str('terminal');
  if (mode !== undefined && mode !== 'auto' && mode !== 'manual') throw new UsageError(`--terminal is "${mode}". Fix: give auto or manual.`);
  const deadline = int('manual-deadline', str('manual-deadline'), 1000, 3_600_000);
  if (deadline !== undefined && mode !== 'manual') throw new UsageError('--manual-deadline is given without --terminal manual. Fix: add --terminal manual, or drop --manual-deadline.');
  if (deadline !== undefined && deadline <= 2 * step) {
    throw new UsageError(`--manual-deadline is ${deadline}. Fix: make it larger than two step delays (${2 * step} ms).`);
  }
  return { terminal: mode, manualDeadlineMs: deadline };
}

function keepAliveOption(v: string | undefined): Pick<SimulatorOptions, 'keepAlive'> {
  if (v === undefined) return {};
  if (v === 'announced' || v === 'close') return { keepAlive: v };
  const ms = /^[0-9]+$/.test(v) ? Number(v) : NaN;
  if (!(ms >= 1 && ms <= 600_000)) throw new UsageError(`--keep-alive is "${v}". Fix: give announced, close, or a whole number of ms from 1 to 600000.`);
  return { keepAlive: ms };
}

function toOptions(values: Record<string, unknown>): Parsed {
  const str = (k: string) => values[k] as string | undefined;
  const scaleText = str('webhook-retry-scale');
  let scale: number | undefined;
  if (scaleText !== undefined) {
    scale = /^[0-9]*\.?[0-9]+(e-?[0-9]+)?$/i.test(scaleText) ? Number(scaleText) : NaN;
    if (!(scale > 0 && scale <= 1)) throw new UsageError(`--webhook-retry-scale is "${scaleText}". Fix: give a number above 0 and at most 1, e.g. 0.01.`);
  }
  const faults = (values.fault as string[] | undefined) ?? [];
  for (const f of faults) {
    if (!isFaultId(f)) throw new UsageError(`--fault "${f}" is not a fault switch. Fix: use one of ${FAULTS.map((x) => x.id).join(', ')}.`);
  }
  const rateText = str('fault-rate');
  let faultRate: number | undefined;
  if (rateText !== undefined) {
    faultRate = /^(0?\.[0-9]+|1(\.0*)?|0|[0-9]*\.?[0-9]+e-?[0-9]+)$/i.test(rateText) ? Number(rateText) : NaN;
    if (!(faultRate > 0 && faultRate <= 1)) throw new UsageError(`--fault-rate is "${rateText}". Fix: give a probability above 0 and at most 1, e.g. 0.3.`);
    if (faults.length === 0) throw new UsageError('--fault-rate is given without --fault. Fix: add the fault switches it applies to, e.g. --fault generate.server-error.');
  }
  const host = str('host');
  if (host !== undefined && host.trim() === '') throw new UsageError('--host is empty. Fix: give an address, e.g. 127.0.0.1.');
  const step = int('step-delay', str('step-delay'), 0, 1000);
  const deadline = int('deadline', str('deadline'), 1, 10_000);
  if (deadline !== undefined && deadline <= 2 * (step ?? 50)) {
    throw new UsageError(`--deadline is ${deadline}. Fix: make it larger than two step delays (${2 * (step ?? 50)} ms).`);
  }
  const options: SimulatorOptions = {
    host, port: int('port', str('port'), 0, 65535), stepDelayMs: step, deadlineMs: deadline,
    webhookRetryScale: scale, seed: int('seed', str('seed'), 0, 2 ** 32 - 1), faults: faults as FaultId[],
    ...(faultRate !== undefined ? { faultRate } : {}),
    ...terminalOptions(str, step ?? SIMULATOR_DEFAULTS.stepDelayMs),
    ...keepAliveOption(str('keep-alive')),
  };
  const tlsDir = str('tls-dir');
  if (tlsDir !== undefined && values.tls !== true) throw new UsageError('--tls-dir is given without --tls. Fix: add --tls, or drop --tls-dir.');
  if (tlsDir !== undefined && tlsDir.trim() === '') throw new UsageError('--tls-dir is empty. Fix: give a folder for ca.pem, e.g. --tls-dir .sim-tls.');
  if (values.tls === true) options.tls = tlsDir !== undefined ? { dir: tlsDir } : true;
  const record = str('record');
  if (record !== undefined && record.trim() === '') throw new UsageError('--record is empty. Fix: give a file to append the recording to, e.g. --record recording.jsonl.');
  return { options, otps: int('otps', str('otps'), 0, 100) ?? 5, ...(record !== undefined ? { record } : {}) };
}

interface Parsed { options: SimulatorOptions; otps: number; record?: string }

function parse(argv: string[]): Parsed | 'help' {
  let values: Record<string, unknown>;
  try {
    ({ values } = parseArgs({ args: argv, options: FLAGS, strict: true, allowPositionals: false }));
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const flag = /'([^']+)'/.exec(err.message)?.[1] ?? '';
    if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw new UsageError(`unknown flag ${flag}. Fix: remove it (see --help for the flags).`);
    if (err.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') throw new UsageError(`${flag.split(' ')[0]} needs a value. Fix: ${flag.split(' ')[0]} <value>, or --help.`);
    if (err.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') throw new UsageError(`unexpected argument ${flag}. Fix: sim takes flags only (see --help).`);
    throw new UsageError(`${err.message}. Fix: see --help.`);
  }
  return values.help ? 'help' : toOptions(values);
}

/** Resolves when the process gets SIGINT or SIGTERM, or `signal` aborts. */
function stopRequested(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
    if (signal?.aborted) done();
    else signal?.addEventListener('abort', done, { once: true });
  });
}

/** Cents as units with two decimals (`1000` -> `10.00`). */
function money(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const a = Math.abs(cents);
  return `${sign}${Math.floor(a / 100)}.${String(a % 100).padStart(2, '0')}`;
}

/** The line printed when a transaction starts waiting for an operator action. */
function waitingLine(v: TerminalView): string {
  const w = v.waiting;
  if (!w) return `terminal ${v.terminal_id}: nothing waits for an action`;
  return `terminal ${v.terminal_id}: transaction ${w.transaction_id} (${w.kind}, ${money(w.amount)}) waits for the card: ` +
    'p present, d decline, f fail, r remove, t timeout, i tip';
}

/** The terminal that has waited longest for an action, or null. */
function longestWaiting(sim: SimulatorHandle): TerminalView | null {
  let best: TerminalView | null = null;
  for (const v of sim.terminals()) {
    if (v.waiting && (!best || v.waiting.since_ms > (best.waiting?.since_ms ?? -1))) best = v;
  }
  return best;
}

/** One key of the operator: acts, and answers the one line to print (null: ignore the key). */
function onKey(sim: SimulatorHandle, key: string): string | null {
  if (key === 'l') {
    const waiting = sim.terminals().filter((v) => v.waiting);
    if (waiting.length === 0) return 'nothing waits for an action';
    return `waiting: ${waiting.map((v) => `terminal ${v.terminal_id} transaction ${v.waiting!.transaction_id} ` +
      `(${v.waiting!.kind}, ${money(v.waiting!.amount)}, ${v.waiting!.status}, tip ${money(v.waiting!.tip)}, ` +
      `${(v.waiting!.since_ms / 1000).toFixed(1)} s)`).join('; ')}`;
  }
  const action = Object.hasOwn(ACTION_KEYS, key) ? ACTION_KEYS[key] : undefined;
  if (!action) return `unknown key ${JSON.stringify(key)}: ${KEYS_HELP}`;
  const target = longestWaiting(sim);
  if (!target) return 'nothing waits for an action';
  try {
    const r = sim.act(target.terminal_id, action);
    const tip = action === 'add-tip' ? ` ${money(DEFAULT_MANUAL_TIP)}` : '';
    return `terminal ${r.terminal_id}: ${r.action}${tip} on transaction ${r.transaction_id}, now ${r.status}`;
  } catch (e) {
    // The transaction finished between the look and the action (its deadline, a cancel).
    return /^409\b/.test((e as Error).message) ? 'nothing waits for an action' : (e as Error).message;
  }
}

/**
 * Reads the operator's keys until `stop`: raw single keys on a TTY (Ctrl+C and q stop), the same
 * letters one per line otherwise. The end of the input does not stop the simulator.
 * @returns a function that detaches from the input and restores the TTY mode
 */
function readKeys(input: SimInput, sim: SimulatorHandle, write: (line: string) => void, stop: () => void): () => void {
  const raw = Boolean(input.isTTY && typeof input.setRawMode === 'function');
  const decoder = new StringDecoder('utf8');
  let pending = '';
  const key = (k: string) => {
    if (k === 'q' || k === '\u0003') return stop();
    const line = onKey(sim, k);
    if (line !== null) write(`${line}\n`);
  };
  const onData = (chunk: Buffer | string) => {
    const text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    if (raw) {
      if (text.startsWith('\u001b')) return; // arrows and other escape sequences are no keys
      for (const ch of text) if (ch === '\u0003' || ch > ' ') key(ch.toLowerCase());
      return;
    }
    pending += text;
    let nl: number;
    while ((nl = pending.indexOf('\n')) !== -1) {
      const line = pending.slice(0, nl).trim().toLowerCase();
      pending = pending.slice(nl + 1);
      if (line !== '') key(line);
    }
    if (pending.length > 1024) pending = ''; // a runaway line without a newline is nobody's key
  };
  const ignore = () => undefined; // EOF or a read error: keep serving over HTTP
  if (raw) input.setRawMode!(true);
  input.on('data', onData);
  input.on('error', ignore);
  input.resume();
  return () => {
    input.off('data', onData);
    input.off('error', ignore);
    if (raw) input.setRawMode!(false);
    input.pause();
  };
}

/**
 * Runs the simulator until SIGINT/SIGTERM (or `opts.signal`, for tests and embedding; in manual
 * mode also `q` or Ctrl+C on the input).
 * @returns 0 after a clean stop, 2 on a usage error or when the simulator cannot start.
 */
export async function simCommand(argv: string[], io: SimCommandIo, opts: { signal?: AbortSignal } = {}): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (e) {
    // The same form as every command's usage errors: code, what is wrong, and the fix.
    const [what, fix] = (e as Error).message.split('. Fix: ');
    io.stderr(`${new ToolkitError('PCC_USAGE', what!, fix?.replace(/\.$/, '')).toUserMessage()}\n`);
    return 2;
  }
  if (parsed === 'help') {
    io.stdout(`${USAGE}\n`);
    return 0;
  }
  const manual = parsed.options.terminal === 'manual';
  let record: Pick<SimulatorOptions, 'record' | 'forgeWebhook'> = {};
  if (parsed.record !== undefined) {
    try {
      record = { record: jsonLinesSink(parsed.record), forgeWebhook: true };
    } catch (e) {
      io.stderr(`${new ToolkitError('PCC_USAGE', `--record ${parsed.record} cannot be opened for appending (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, 'give a file in a folder that exists and that you may write').toUserMessage()}\n`);
      return 2;
    }
  }
  let sim: SimulatorHandle;
  try {
    sim = await startSimulator({
      ...parsed.options,
      ...record,
      onRequest: (line) => io.stdout(`${line}\n`),
      onTlsError: (line) => io.stdout(`${line}\n`),
      ...(manual ? { onTerminalWaiting: (v: TerminalView) => io.stdout(`${waitingLine(v)}\n`) } : {}),
    });
  } catch (e) {
    // A busy port or a refused setting is the user's to fix: exit 2, like every command.
    io.stderr(`${isToolkitError(e) ? e.toUserMessage() : new ToolkitError('PCC_SIMULATOR', `the simulator did not start: ${String(e)}`).toUserMessage()}\n`);
    return 2;
  }
  const quit = new AbortController();
  const forward = () => quit.abort();
  if (opts.signal?.aborted) quit.abort();
  else opts.signal?.addEventListener('abort', forward, { once: true });
  const stopped = stopRequested(quit.signal);
  const otps = Array.from({ length: parsed.otps }, () => `  ${sim.mintOtp()}`);
  const input = manual ? io.stdin ?? process.stdin : null;
  const tty = Boolean(input?.isTTY && typeof input.setRawMode === 'function');
  const deadline = parsed.options.manualDeadlineMs ?? SIMULATOR_DEFAULTS.manualDeadlineMs;
  io.stdout([
    `Pay-Connect simulator listening on ${sim.url}`,
    ...(sim.caFile !== null ? [`ca: ${sim.caFile}  (trust it: NODE_EXTRA_CA_CERTS=${sim.caFile}, or --ca-file ${sim.caFile})`] : []),
    `integrator id: ${sim.integratorId} (header X-Pay-Connect-Integrator-Id; any non-empty id pairs)`,
    `seed: ${sim.seed}`,
    `faults: ${sim.faults.length > 0 ? sim.faults.join(', ') : 'none'}${sim.faults.length > 0 && sim.faultRate < 1 ? ` (each acting at ${sim.faultRate * 100} % of its decisions)` : ''}`,
    ...(parsed.record !== undefined ? [`recording to ${parsed.record} (judge it with: payconnect-conformance certify-client --recording ${parsed.record})`] : []),
    ...(otps.length > 0 ? ['one-time passwords (each pairs once):', ...otps] : []),
    ...(manual ? [
      `terminal: manual (each payment, preauthorization and refund waits for an operator action; without one it expires after ${deadline} ms)`,
      `keys${tty ? '' : ' (stdin is not a terminal: type them one per line)'}: ${KEYS_HELP}`,
      `or over HTTP: curl -X POST ${sim.url}${CONTROL_PATH}/<terminal_id>/actions -H 'content-type: application/json' -d '{"action":"present-card"}'`,
      `  actions: present-card, decline, fail, remove-card, timeout, add-tip (with "amount": N); what waits: curl ${sim.url}${CONTROL_PATH}`,
      'press q or Ctrl+C to stop',
    ] : ['press Ctrl+C to stop']),
  ].join('\n') + '\n');
  const detach = input ? readKeys(input, sim, io.stdout, () => quit.abort()) : () => undefined;
  try {
    await stopped;
  } finally {
    detach();
    opts.signal?.removeEventListener('abort', forward);
  }
  await sim.close();
  io.stdout('simulator stopped\n');
  return 0;
}
