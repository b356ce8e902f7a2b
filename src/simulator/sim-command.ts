/**
 * `sim` command: starts the simulator in the foreground, prints how to use it, logs one line per
 * request, and stops cleanly on SIGINT/SIGTERM. A thin shell over startSimulator.
 */
import { parseArgs } from 'node:util';
import { ToolkitError, isToolkitError } from '../core/errors.ts';
import { FAULTS, isFaultId, type FaultId } from './faults.ts';
import type { SimulatorOptions } from './options.ts';
import { startSimulator } from './simulator.ts';

/** Where the command writes. */
export interface SimCommandIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
}

const FLAGS = {
  port: { type: 'string' },
  host: { type: 'string' },
  'step-delay': { type: 'string' },
  deadline: { type: 'string' },
  'webhook-retry-scale': { type: 'string' },
  seed: { type: 'string' },
  fault: { type: 'string', multiple: true },
  otps: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const USAGE = `usage: sim [--port N] [--host H] [--step-delay MS] [--deadline MS] [--webhook-retry-scale X]
           [--seed N] [--fault ID]... [--otps N]
  --port                 port to listen on (0 = any free port; default 0)
  --host                 address to listen on (default 127.0.0.1)
  --step-delay           terminal step delay in ms, 0..1000 (default 50)
  --deadline             transaction deadline in ms, up to 10000 (default 3000)
  --webhook-retry-scale  factor on the 5/10/20/40/80 s webhook retry schedule, (0, 1] (default 0.01)
  --seed                 seed of ids and OTPs, 0..4294967295 (default random)
  --fault                a fault switch, repeatable; one of: ${FAULTS.map((f) => f.id).join(', ')}
  --otps                 how many fresh OTPs to print, 0..100 (default 5)`;

/** A usage error: one message naming the flag and the fix. */
class UsageError extends Error {}

function int(flag: string, v: string | undefined, min: number, max: number): number | undefined {
  if (v === undefined) return undefined;
  const n = /^[0-9]+$/.test(v) ? Number(v) : NaN;
  if (!(n >= min && n <= max)) throw new UsageError(`--${flag} is "${v}". Fix: give an integer from ${min} to ${max}.`);
  return n;
}

function toOptions(values: Record<string, unknown>): { options: SimulatorOptions; otps: number } {
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
  };
  return { options, otps: int('otps', str('otps'), 0, 100) ?? 5 };
}

function parse(argv: string[]): { options: SimulatorOptions; otps: number } | 'help' {
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

/**
 * Runs the simulator until SIGINT/SIGTERM (or `opts.signal`, for tests and embedding).
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
  let sim;
  try {
    sim = await startSimulator({ ...parsed.options, onRequest: (line) => io.stdout(`${line}\n`) });
  } catch (e) {
    // A busy port or a refused setting is the user's to fix: exit 2, like every command.
    io.stderr(`${isToolkitError(e) ? e.toUserMessage() : new ToolkitError('PCC_SIMULATOR', `the simulator did not start: ${String(e)}`).toUserMessage()}\n`);
    return 2;
  }
  const stopped = stopRequested(opts.signal);
  const otps = Array.from({ length: parsed.otps }, () => `  ${sim.mintOtp()}`);
  io.stdout([
    `Pay-Connect simulator listening on ${sim.url}`,
    `integrator id: ${sim.integratorId} (header X-Pay-Connect-Integrator-Id; any non-empty id pairs)`,
    `seed: ${sim.seed}`,
    `faults: ${sim.faults.length > 0 ? sim.faults.join(', ') : 'none'}`,
    ...(otps.length > 0 ? ['one-time passwords (each pairs once):', ...otps] : []),
    'press Ctrl+C to stop',
  ].join('\n') + '\n');
  await stopped;
  await sim.close();
  io.stdout('simulator stopped\n');
  return 0;
}
