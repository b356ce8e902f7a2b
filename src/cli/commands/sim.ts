/**
 * `sim`: the embedded simulator in the foreground. Its flags are read here, by the command kit (the
 * simulator imports neither config nor cli); the simulator itself takes plain options
 * (serveSimulator, startSimulator).
 */
import {
  DEFAULTS,
  KEEP_ALIVE_MAX_MS,
  SIM_SETTINGS,
  flagValue,
  formatCommandHelp,
  formatDuration,
  holdsTwoSteps,
  integer,
  parseCommandLine,
  type CommandSpec,
  type SimSetting,
} from '../../config/index.ts';
import { ToolkitError, isToolkitError } from '../../core/index.ts';
import {
  CONTROL_PATH,
  FAULTS,
  SIMULATOR_DEFAULTS,
  faultFix,
  isFaultId,
  serveSimulator,
  type FaultId,
  type SimCommandIo,
  type SimServeOptions,
  type SimulatorOptions,
} from '../../simulator/index.ts';
import { defineCommand } from '../command.ts';

const D = SIMULATOR_DEFAULTS;
const S = SIM_SETTINGS;
/** How many fresh OTPs `sim` may print (the command's own, not a setting of the simulator). */
const MAX_OTPS = 100;

/** A setting's value from its `sim` flag, parsed and range-checked by its row. */
function settingOf<T>(row: SimSetting<T> & { simFlag: string }, text: string | undefined): T | undefined {
  return flagValue(row.simFlag, text, row.kind.parse);
}

/** `sim`: where it listens, how its terminal behaves, its faults, recording and TLS. */
export const SIM_COMMAND = {
  name: 'sim',
  synopsis: '[flags]',
  about:
    'Starts the embedded Pay-Connect sandbox on loopback in the foreground, prints how to use it (its URL, ' +
    'integrator id, seed and fresh OTPs), logs one line per request, and stops cleanly on SIGINT/SIGTERM.',
  sections: [
    {
      heading: 'Listening',
      flags: [
        { name: 'port', type: 'string', placeholder: '<n>', description: S.port.doc, defaultText: String(D.port) },
        { name: 'host', type: 'string', placeholder: '<address>', description: S.host.doc, defaultText: D.host },
        {
          name: 'keep-alive',
          type: 'string',
          placeholder: 'announced|close|<duration>',
          defaultText: 'announced',
          description:
            'What the server does with a connection after an answer: announced (kept 5 s, Keep-Alive: timeout=5), close ' +
            (`(Connection: close every time), or a duration: closed after that long idle without a word, ` +
              `as nginx, AWS ALB, Envoy and HAProxy do (up to ${formatDuration(KEEP_ALIVE_MAX_MS)})`),
        },
        {
          name: 'tls',
          type: 'boolean',
          description:
            'Serve HTTPS at https://localhost:PORT: a throw-away CA made at the start (valid a few days) signs a certificate for ' +
            'localhost, 127.0.0.1, ::1 and --host; its certificate is written to ca.pem (printed) for your client to trust, e.g. ' +
            'NODE_EXTRA_CA_CERTS=ca.pem for Node, or curl --cacert ca.pem; a connection that fails its handshake is logged',
        },
        {
          name: 'pid-file',
          type: 'string',
          placeholder: '<file>',
          description:
            "Write the simulator's process id here once it listens (removed at the stop), so a script can stop it with " +
            'kill $(cat <file>) even when npx or npm started it (they do not pass SIGTERM on)',
        },
        {
          name: 'tls-dir',
          type: 'string',
          placeholder: '<dir>',
          defaultText: 'a fresh temporary folder, removed at the stop',
          description: 'With --tls: the folder for ca.pem, made when missing; the CA is new at each start, the path stays',
        },
      ],
    },
    {
      heading: 'Terminal',
      flags: [
        {
          name: 'step-delay',
          type: 'string',
          placeholder: '<duration>',
          description: `${S.stepDelayMs.doc}, ${S.stepDelayMs.kind.range}`,
          defaultText: formatDuration(D.stepDelayMs),
        },
        {
          name: 'deadline',
          type: 'string',
          placeholder: '<duration>',
          description: `${S.deadlineMs.doc}, ${S.deadlineMs.kind.range}`,
          defaultText: formatDuration(D.deadlineMs),
        },
        {
          name: 'terminal',
          type: 'string',
          placeholder: 'auto|manual',
          defaultText: 'auto',
          description:
            "auto: the amount's last two digits decide the outcome; manual: each payment, preauthorization or refund waits for an " +
            'operator action: keys p present card, d decline, f fail, r remove card, t timeout, i add tip (1.00), l list, q stop ' +
            `(on a pipe: the same letters, one per line), or POST ${CONTROL_PATH}/<terminal_id>/actions ` +
            `{"action": "present-card"|"decline"|"fail"|"remove-card"|"timeout"|"add-tip", "amount"?: N}; GET ${CONTROL_PATH} shows what waits`,
        },
        {
          name: 'manual-deadline',
          type: 'string',
          placeholder: '<duration>',
          defaultText: formatDuration(D.manualDeadlineMs),
          description: `With --terminal manual: a transaction given no action expires after this long, ${S.manualDeadlineMs.kind.range}`,
        },
        {
          name: 'otps',
          type: 'string',
          placeholder: '<n>',
          description: `How many fresh OTPs to print, 0 to ${MAX_OTPS}`,
          defaultText: String(DEFAULTS.simOtps),
        },
        {
          name: 'seed',
          type: 'string',
          placeholder: '<n>',
          description: `The seed of ids and OTPs, ${S.seed.kind.range}`,
          defaultText: 'random',
        },
        {
          name: 'liberal',
          type: 'boolean',
          description:
            'The liberal sandbox: take every liberty the spec, public-profile.md and sandbox.md leave open, each within them ' +
            '(answers slow and serialised its own way, ids, credentials and a clock of its own, extra fields and headers, webhooks late, twice ' +
            'and out of order, idle connections closed after 1.5 s unless --keep-alive is given: the catalogue is src/simulator/liberties.ts); ' +
            'a conformance run against it with --strict finds nothing',
        },
      ],
    },
    {
      heading: 'Faults and webhooks',
      flags: [
        {
          name: 'fault',
          type: 'string',
          multiple: true,
          placeholder: '<id>',
          description: `A fault switch; repeat for several. One of: ${FAULTS.map((f) => f.id).join(', ')}`,
        },
        {
          name: 'fault-rate',
          type: 'string',
          placeholder: '<p>',
          defaultText: '1: always',
          description: S.faultRate.doc.replace('the seed', '--seed'),
        },
        {
          name: 'webhook-retry-scale',
          type: 'string',
          placeholder: '<x>',
          description: S.webhookRetryScale.doc,
          defaultText: String(D.webhookRetryScale),
        },
        {
          name: 'record',
          type: 'string',
          placeholder: '<file>',
          description:
            "Append every request and webhook delivery to this file, one JSON line each, secrets redacted; each pairing's " +
            'receiver also gets one forged (wrongly signed) delivery after its first accepted one. Judge it with: certify-client --recording <file>',
        },
      ],
    },
  ],
} as const satisfies CommandSpec;

type SimValues = ReturnType<typeof parseCommandLine<typeof SIM_COMMAND>>['values'];

const usage = (what: string, fix: string) => new ToolkitError('PCC_USAGE', what, fix);

function terminalOptions(v: SimValues, step: number): Pick<SimulatorOptions, 'terminal' | 'manualDeadlineMs'> {
  const mode = settingOf(S.terminal, v.terminal);
  const deadline = settingOf(S.manualDeadlineMs, v['manual-deadline']);
  if (deadline !== undefined && mode !== 'manual')
    throw usage('--manual-deadline is given without --terminal manual', 'add --terminal manual, or drop --manual-deadline');
  if (deadline !== undefined && !holdsTwoSteps(deadline, step))
    throw usage(`--manual-deadline is ${formatDuration(deadline)}`, `make it larger than two step delays (${2 * step} ms)`);
  return { terminal: mode, manualDeadlineMs: deadline };
}

function keepAliveOption(v: string | undefined): Pick<SimulatorOptions, 'keepAlive'> {
  if (v === undefined) return {};
  if (v === 'announced' || v === 'close') return { keepAlive: v };
  return { keepAlive: settingOf(S.keepAlive, v) };
}

/**
 * The simulator's options from the flags.
 * @throws ToolkitError PCC_USAGE naming the flag and the fix
 */
export function simOptionsOf(v: SimValues): SimServeOptions {
  const faults = v.fault ?? [];
  for (const f of faults) if (!isFaultId(f)) throw usage(`--fault "${f}" is not a fault switch`, faultFix(f));
  const faultRate = settingOf(S.faultRate, v['fault-rate']);
  if (faultRate !== undefined && faults.length === 0)
    throw usage('--fault-rate is given without --fault', 'add the fault switches it applies to, e.g. --fault generate.server-error');
  const host = settingOf(S.host, v.host);
  const step = settingOf(S.stepDelayMs, v['step-delay']);
  const deadline = settingOf(S.deadlineMs, v.deadline);
  const stepOrDefault = step ?? D.stepDelayMs;
  if (deadline !== undefined && !holdsTwoSteps(deadline, stepOrDefault))
    throw usage(`--deadline is ${formatDuration(deadline)}`, `make it larger than two step delays (${2 * stepOrDefault} ms)`);
  const options: SimulatorOptions = {
    host,
    port: settingOf(S.port, v.port),
    stepDelayMs: step,
    deadlineMs: deadline,
    webhookRetryScale: settingOf(S.webhookRetryScale, v['webhook-retry-scale']),
    seed: settingOf(S.seed, v.seed),
    faults: faults as FaultId[],
    ...(faultRate !== undefined ? { faultRate } : {}),
    ...terminalOptions(v, stepOrDefault),
    ...keepAliveOption(v['keep-alive']),
    ...(v.liberal === true ? { liberal: true } : {}),
  };
  const tlsDir = v['tls-dir'];
  if (tlsDir !== undefined && v.tls !== true) throw usage('--tls-dir is given without --tls', 'add --tls, or drop --tls-dir');
  if (tlsDir !== undefined && tlsDir.trim() === '') throw usage('--tls-dir is empty', 'give a folder for ca.pem, e.g. --tls-dir .sim-tls');
  if (v.tls === true) options.tls = tlsDir !== undefined ? { dir: tlsDir } : true;
  const record = v.record;
  if (record !== undefined && record.trim() === '')
    throw usage('--record is empty', 'give a file to append the recording to, e.g. --record recording.jsonl');
  const otps = flagValue('otps', v.otps, integer(0, MAX_OTPS, `give a whole number from 0 to ${MAX_OTPS}`)) ?? DEFAULTS.simOtps;
  const pidFile = v['pid-file'];
  if (pidFile !== undefined && pidFile.trim() === '')
    throw usage('--pid-file is empty', 'give a file for the process id, e.g. --pid-file sim.pid');
  return { options, otps, ...(record !== undefined ? { record } : {}), ...(pidFile !== undefined ? { pidFile } : {}) };
}

/**
 * Runs `sim` until SIGINT/SIGTERM (or `opts.signal`; in manual mode also `q` or Ctrl+C on the input).
 * @returns 0 after a clean stop, 2 on a usage error or when the simulator cannot start
 */
export async function simCommand(argv: string[], io: SimCommandIo, opts: { signal?: AbortSignal } = {}): Promise<number> {
  let serve: SimServeOptions;
  try {
    const { values, help } = parseCommandLine(SIM_COMMAND, argv);
    if (help) {
      io.stdout(formatCommandHelp(SIM_COMMAND));
      return 0;
    }
    serve = simOptionsOf(values);
  } catch (e) {
    if (!isToolkitError(e)) throw e;
    io.stderr(`${e.toUserMessage()}\n`);
    return 2;
  }
  return serveSimulator(serve, io, opts);
}

export default defineCommand({ spec: SIM_COMMAND, run: (argv, _env, io) => simCommand(argv, io) });
