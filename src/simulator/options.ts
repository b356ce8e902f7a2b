/** Options of the embedded simulator, their defaults (in one place) and their validation. */
import { randomInt } from 'node:crypto';
import { SIM_SETTINGS, holdsTwoSteps, type SimSettingName } from '../config/sim-settings.ts';
import { ToolkitError } from '../core/errors.ts';
import { assertFaultIds, assertFaultRate, type FaultId } from './faults.ts';
import { LIBERAL_KEEP_ALIVE_MS, LIBERAL_TOKEN_LIFETIME_SEC } from './liberal.ts';
import type { SimRecordEntry } from './recording.ts';

/** Options of {@link startSimulator}; all optional. */
export interface SimulatorOptions {
  /** Address to listen on. @default '127.0.0.1' */
  host?: string;
  /** Port to listen on; 0 picks a free one. @default 0 */
  port?: number;
  /** Delay of each terminal step (pick up, finish, cancel signal, operation step), ms, 0..1000. @default 50 */
  stepDelayMs?: number;
  /** Time from creation after which a waiting transaction is EXPIRED, ms, up to 10000 and above 2 steps. @default 3000 */
  deadlineMs?: number;
  /** Factor applied to the webhook retry schedule (5, 10, 20, 40, 80 s). @default 0.01 */
  webhookRetryScale?: number;
  /** Seed of ids, OTPs, card data and jitter. @default a random seed, reported as `handle.seed` */
  seed?: number;
  /** Fault switches active from the start. @default [] */
  faults?: readonly FaultId[];
  /**
   * The probability an active fault switch acts each time it is consulted (a request, a terminal step, a
   * delivery), drawn from the seed: below 1 the defects are intermittent. Above 0, at most 1. @default 1
   */
  faultRate?: number;
  /** Token lifetime in seconds, reported as `expires_in`. @default 3600 */
  tokenLifetimeSec?: number;
  /** Final transactions (and final operations) kept per terminal; older ones are evicted and answer 404. @default 1000 */
  maxFinalPerTerminal?: number;
  /** Receives one line per request: method, path, status, duration. Never a secret, token or body. @default undefined */
  onRequest?: (line: string) => void;
  /**
   * How the virtual terminal decides a transaction. `auto`: by the amount's last two digits
   * (sandbox#transactions). `manual`: a payment, preauthorization or refund is picked up and then waits
   * for an operator action (`POST /_sim/terminals/{terminal_id}/actions`, or `handle.act`); the amount
   * decides nothing. @default 'auto'
   */
  terminal?: TerminalMode;
  /** Manual mode: time from creation after which a transaction given no action is EXPIRED, ms, 1000..3600000 and above 2 steps. @default 120000 */
  manualDeadlineMs?: number;
  /** Manual mode: called when a transaction starts waiting for an operator action (at its creation). @default undefined */
  onTerminalWaiting?: (terminal: TerminalView) => void;
  /**
   * Receives the recording of what clients do, redacted: a `start` entry, then one entry per request
   * (method, path, headers, body, answer, timing) and per webhook delivery attempt (recording.ts).
   * `jsonLinesSink(file)` appends them to a file. @default undefined
   */
  record?: (entry: SimRecordEntry) => void;
  /**
   * After the first webhook delivery of a pairing that its receiver accepted, send that receiver one
   * forged delivery (the same event, a fresh event_id, a wrong signature); it is recorded as forged.
   * @default false
   */
  forgeWebhook?: boolean;
  /**
   * How the HTTP server treats a connection after an answer, as services and what stands in front of
   * them do: `announced`, kept 5 s and said so (`Keep-Alive: timeout=5`, Node's default); a number of
   * ms, closed after that long idle without a word (nginx `keepalive_timeout`, AWS ALB, Envoy,
   * HAProxy); `close`, `Connection: close` on every answer. @default 'announced'
   */
  keepAlive?: KeepAlive;
  /**
   * Serve HTTPS instead of HTTP (the TLS sandbox): a throw-away CA, made at the start, signs a
   * certificate for localhost, 127.0.0.1, ::1 and the host; its certificate is written to `ca.pem`
   * in `dir` (made when missing) or in a fresh temporary folder (mode 0700, removed at close), and the
   * handle's `url` is `https://localhost:PORT` and `caFile` that file. @default false
   */
  tls?: boolean | { dir?: string };
  /**
   * TLS only: receives one line per connection that ended at the TLS layer (a failed handshake, a
   * client that refused the certificate, plain HTTP to the HTTPS port). Never a key. @default undefined
   */
  onTlsError?: (line: string) => void;
  /**
   * The liberal sandbox: take every liberty the three documents leave open (liberties.ts: answers
   * slow and serialised its own way, ids, clock and credentials of its own, extra fields and headers,
   * webhooks late, twice and out of order, ...), each within the documents. Without `keepAlive`, idle
   * connections are closed after 1.5 s unannounced, and without `tokenLifetimeSec` tokens live 30 s. @default false
   */
  liberal?: boolean;
}

/** See {@link SimulatorOptions.keepAlive}. */
export type KeepAlive = 'announced' | 'close' | number;

/** How the virtual terminal decides a transaction: by the amount, or by an operator's action. */
export type TerminalMode = 'auto' | 'manual';

/** A transaction waiting for an operator action (manual mode). */
export interface WaitingTransaction {
  readonly transaction_id: string;
  readonly kind: 'payment' | 'preauth' | 'refund';
  /** Minor units (cents). */
  readonly amount: number;
  readonly status: 'INITIATED' | 'IN_PROGRESS';
  /** The pending tip an `add-tip` set (0 when none). */
  readonly tip: number;
  /** How long it has waited, ms (since its creation). */
  readonly since_ms: number;
}

/** One live virtual terminal and what waits on it (`waiting` is always null in auto mode). */
export interface TerminalView {
  readonly terminal_id: string;
  readonly waiting: WaitingTransaction | null;
}

/** Options with every default filled in. */
export interface ResolvedSimulatorOptions {
  readonly host: string;
  readonly port: number;
  readonly stepDelayMs: number;
  readonly deadlineMs: number;
  readonly webhookRetryScale: number;
  readonly seed: number;
  readonly faults: readonly FaultId[];
  readonly faultRate: number;
  readonly tokenLifetimeSec: number;
  readonly maxFinalPerTerminal: number;
  readonly onRequest: ((line: string) => void) | undefined;
  readonly terminal: TerminalMode;
  readonly manualDeadlineMs: number;
  readonly onTerminalWaiting: ((terminal: TerminalView) => void) | undefined;
  readonly record: ((entry: SimRecordEntry) => void) | undefined;
  readonly forgeWebhook: boolean;
  readonly keepAlive: KeepAlive;
  /** null: plain HTTP. */
  readonly tls: { readonly dir: string | undefined } | null;
  readonly onTlsError: ((line: string) => void) | undefined;
  readonly liberal: boolean;
}

const S = SIM_SETTINGS;

/** The defaults of every option but `seed` (random per start): the settings table's (config/sim-settings.ts). */
export const SIMULATOR_DEFAULTS = {
  host: S.host.default,
  port: S.port.default,
  stepDelayMs: S.stepDelayMs.default,
  deadlineMs: S.deadlineMs.default,
  webhookRetryScale: S.webhookRetryScale.default,
  tokenLifetimeSec: S.tokenLifetimeSec.default,
  maxFinalPerTerminal: S.maxFinalPerTerminal.default,
  terminal: S.terminal.default,
  manualDeadlineMs: S.manualDeadlineMs.default,
  keepAlive: S.keepAlive.default,
} as const;

function check(ok: boolean, option: string, expected: string, value: unknown): void {
  if (!ok) {
    throw new ToolkitError('PCC_CONFIG_INVALID', `simulator option ${option} is ${JSON.stringify(value)}`, `set ${option} to ${expected}`);
  }
}

/** Each option of the settings table within its row's range, as `sim` and `run` check their flags. */
function checkRanges(r: Readonly<Record<SimSettingName, unknown>>): void {
  for (const [option, row] of Object.entries(S) as [SimSettingName, (typeof S)[SimSettingName]][]) {
    check((row.kind.accepts as (v: unknown) => boolean)(r[option]), option, row.kind.expected, r[option]);
  }
}

function tlsOption(tls: SimulatorOptions['tls']): ResolvedSimulatorOptions['tls'] {
  if (tls === undefined || tls === false) return null;
  const dir = tls === true ? undefined : (tls as { dir?: unknown } | null)?.dir;
  check(
    tls === true || (typeof tls === 'object' && tls !== null && (dir === undefined || (typeof dir === 'string' && dir.trim() !== ''))),
    'tls',
    'true, false or { dir: "<folder for ca.pem>" }',
    tls,
  );
  return { dir: dir as string | undefined };
}

/** Fills in defaults and validates; throws a PCC_CONFIG_INVALID ToolkitError naming the option. */
export function resolveSimulatorOptions(o: SimulatorOptions = {}): ResolvedSimulatorOptions {
  const r = {
    host: o.host ?? SIMULATOR_DEFAULTS.host,
    port: o.port ?? SIMULATOR_DEFAULTS.port,
    stepDelayMs: o.stepDelayMs ?? SIMULATOR_DEFAULTS.stepDelayMs,
    deadlineMs: o.deadlineMs ?? SIMULATOR_DEFAULTS.deadlineMs,
    webhookRetryScale: o.webhookRetryScale ?? SIMULATOR_DEFAULTS.webhookRetryScale,
    seed: o.seed ?? randomInt(1, 2 ** 31),
    faults: [...(o.faults ?? [])],
    faultRate: o.faultRate ?? S.faultRate.default,
    tokenLifetimeSec: o.tokenLifetimeSec ?? (o.liberal === true ? LIBERAL_TOKEN_LIFETIME_SEC : SIMULATOR_DEFAULTS.tokenLifetimeSec),
    maxFinalPerTerminal: o.maxFinalPerTerminal ?? SIMULATOR_DEFAULTS.maxFinalPerTerminal,
    onRequest: o.onRequest,
    terminal: o.terminal ?? SIMULATOR_DEFAULTS.terminal,
    manualDeadlineMs: o.manualDeadlineMs ?? SIMULATOR_DEFAULTS.manualDeadlineMs,
    onTerminalWaiting: o.onTerminalWaiting,
    record: o.record,
    forgeWebhook: o.forgeWebhook ?? false,
    keepAlive: o.keepAlive ?? (o.liberal === true ? LIBERAL_KEEP_ALIVE_MS : SIMULATOR_DEFAULTS.keepAlive),
    tls: tlsOption(o.tls),
    onTlsError: o.onTlsError,
    liberal: o.liberal ?? S.liberal.default,
  };
  assertFaultRate(r.faultRate); // first: its own message says what a fault rate is
  checkRanges(r);
  check(holdsTwoSteps(r.deadlineMs, r.stepDelayMs), 'deadlineMs', `${S.deadlineMs.kind.expected}, above two step delays`, r.deadlineMs);
  check(
    holdsTwoSteps(r.manualDeadlineMs, r.stepDelayMs),
    'manualDeadlineMs',
    `${S.manualDeadlineMs.kind.expected}, above two step delays`,
    r.manualDeadlineMs,
  );
  check(r.onRequest === undefined || typeof r.onRequest === 'function', 'onRequest', 'a function', typeof r.onRequest);
  check(
    r.onTerminalWaiting === undefined || typeof r.onTerminalWaiting === 'function',
    'onTerminalWaiting',
    'a function',
    typeof r.onTerminalWaiting,
  );
  check(r.record === undefined || typeof r.record === 'function', 'record', 'a function (e.g. jsonLinesSink(file))', typeof r.record);
  check(typeof r.forgeWebhook === 'boolean', 'forgeWebhook', 'true or false', r.forgeWebhook);
  check(r.onTlsError === undefined || typeof r.onTlsError === 'function', 'onTlsError', 'a function', typeof r.onTlsError);
  assertFaultIds(r.faults);
  return r;
}
