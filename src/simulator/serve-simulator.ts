/**
 * The simulator in the foreground (the `sim` command's body; its flags are read in src/cli): starts
 * it, prints how to use it, logs one line per request, and stops cleanly on SIGINT/SIGTERM.
 * With `--terminal manual` it is also the operator's keypad: single keys on a TTY (raw mode), or the
 * same letters one per line on a pipe, act on the terminal that waits.
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { ToolkitError, isToolkitError } from '../core/errors.ts';
import { CONTROL_PATH, DEFAULT_MANUAL_TIP, type TerminalAction } from './control.ts';
import { LIBERTIES } from './liberties.ts';
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

/** The keys of a manual terminal and the action each takes. */
const ACTION_KEYS: Readonly<Record<string, TerminalAction>> = {
  p: 'present-card',
  d: 'decline',
  f: 'fail',
  r: 'remove-card',
  t: 'timeout',
  i: 'add-tip',
};
const KEYS_HELP = 'p present card, d decline, f fail, r remove card, t timeout, i add tip (1.00), l list waiting, q stop';

/** What the foreground simulator runs with: its options, how many OTPs to print, where to record. */
export interface SimServeOptions {
  readonly options: SimulatorOptions;
  /** Fresh OTPs printed at the start. */
  readonly otps: number;
  /** Append every request and delivery to this file (JSON lines), with one forged delivery per receiver. */
  readonly record?: string;
  /**
   * Write this process's id here once listening, removed at the stop: `kill $(cat FILE)` stops the
   * simulator even when a wrapper (npx, npm run) started it and would not pass SIGTERM on.
   */
  readonly pidFile?: string;
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
  return (
    `terminal ${v.terminal_id}: transaction ${w.transaction_id} (${w.kind}, ${money(w.amount)}) waits for the card: ` +
    'p present, d decline, f fail, r remove, t timeout, i tip'
  );
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
    return `waiting: ${waiting
      .map(
        (v) =>
          `terminal ${v.terminal_id} transaction ${v.waiting!.transaction_id} ` +
          `(${v.waiting!.kind}, ${money(v.waiting!.amount)}, ${v.waiting!.status}, tip ${money(v.waiting!.tip)}, ` +
          `${(v.waiting!.since_ms / 1000).toFixed(1)} s)`,
      )
      .join('; ')}`;
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
 * @returns 0 after a clean stop, 2 when the record file cannot be opened or the simulator cannot start.
 */
/** The error of a file the simulator cannot write (`--record`, `--pid-file`): the user's to fix, exit 2. */
function unwritable(what: string, e: unknown): string {
  const why = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
  return `${new ToolkitError('PCC_USAGE', `${what} (${why})`, 'give a file in a folder that exists and that you may write').toUserMessage()}\n`;
}

export async function serveSimulator(parsed: SimServeOptions, io: SimCommandIo, opts: { signal?: AbortSignal } = {}): Promise<number> {
  const manual = parsed.options.terminal === 'manual';
  let record: Pick<SimulatorOptions, 'record' | 'forgeWebhook'> = {};
  if (parsed.record !== undefined) {
    try {
      record = { record: jsonLinesSink(parsed.record), forgeWebhook: true };
    } catch (e) {
      io.stderr(unwritable(`--record ${parsed.record} cannot be opened for appending`, e));
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
    const error = isToolkitError(e) ? e : new ToolkitError('PCC_SIMULATOR', `the simulator did not start: ${String(e)}`);
    io.stderr(`${error.toUserMessage()}\n`);
    return 2;
  }
  if (parsed.pidFile !== undefined) {
    try {
      const tmp = `${parsed.pidFile}.${process.pid}.tmp`;
      writeFileSync(tmp, `${process.pid}\n`);
      renameSync(tmp, parsed.pidFile);
    } catch (e) {
      await sim.close();
      io.stderr(unwritable(`--pid-file ${parsed.pidFile} cannot be written`, e));
      return 2;
    }
  }
  const quit = new AbortController();
  const forward = () => quit.abort();
  if (opts.signal?.aborted) quit.abort();
  else opts.signal?.addEventListener('abort', forward, { once: true });
  const stopped = stopRequested(quit.signal);
  const otps = Array.from({ length: parsed.otps }, () => `  ${sim.mintOtp()}`);
  const input = manual ? (io.stdin ?? process.stdin) : null;
  const tty = Boolean(input?.isTTY && typeof input.setRawMode === 'function');
  const deadline = parsed.options.manualDeadlineMs ?? SIMULATOR_DEFAULTS.manualDeadlineMs;
  const faultRate = sim.faults.length > 0 && sim.faultRate < 1 ? ` (each acting at ${sim.faultRate * 100} % of its decisions)` : '';
  io.stdout(
    [
      `Pay-Connect simulator listening on ${sim.url}`,
      ...(sim.caFile !== null ? [`ca: ${sim.caFile}  (trust it: NODE_EXTRA_CA_CERTS=${sim.caFile}, or --ca-file ${sim.caFile})`] : []),
      `integrator id: ${sim.integratorId} (header X-Pay-Connect-Integrator-Id; any non-empty id pairs)`,
      `seed: ${sim.seed}`,
      `faults: ${sim.faults.length > 0 ? sim.faults.join(', ') : 'none'}${faultRate}`,
      ...(parsed.options.liberal === true
        ? [
            `liberal: on (${LIBERTIES.length} liberties the documents leave open: slow answers, JSON of ` +
              `its own, its own ids and clock, webhooks late, twice and out of order, ...; see src/simulator/liberties.ts)`,
          ]
        : []),
      ...(parsed.record !== undefined
        ? [`recording to ${parsed.record} (judge it with: payconnect-conformance certify-client --recording ${parsed.record})`]
        : []),
      ...(otps.length > 0 ? ['one-time passwords (each pairs once):', ...otps] : []),
      ...(manual
        ? [
            `terminal: manual (each payment, preauthorization and refund waits for an operator action; without one it expires after ${deadline} ms)`,
            `keys${tty ? '' : ' (stdin is not a terminal: type them one per line)'}: ${KEYS_HELP}`,
            `or over HTTP: curl -X POST ${sim.url}${CONTROL_PATH}/<terminal_id>/actions -H 'content-type: application/json' -d '{"action":"present-card"}'`,
            `  actions: present-card, decline, fail, remove-card, timeout, add-tip (with "amount": N); what waits: curl ${sim.url}${CONTROL_PATH}`,
            'press q or Ctrl+C to stop',
          ]
        : ['press Ctrl+C to stop']),
    ].join('\n') + '\n',
  );
  const detach = input ? readKeys(input, sim, io.stdout, () => quit.abort()) : () => undefined;
  try {
    await stopped;
  } finally {
    detach();
    opts.signal?.removeEventListener('abort', forward);
  }
  await sim.close();
  if (parsed.pidFile !== undefined) rmSync(parsed.pidFile, { force: true });
  io.stdout('simulator stopped\n');
  return 0;
}
