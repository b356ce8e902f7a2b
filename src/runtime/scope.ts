/**
 * The per-test view of the harness: every request a test makes goes through `call`, so every exchange
 * is checked; `check` runs a registered check on an observation; `converge` watches a transaction or
 * operation to its end. Findings collect here and are attached to the test by the suites' setup.
 *
 * A scope also keeps the run's verdicts honest under a broken service: a finding already reported by
 * an earlier test is a repeat, not a new failure; a request the service stops (no answer, no token)
 * is a finding and blocks the test; a kind of wait that keeps failing ends at once, blocked by its
 * root finding; and once the test ends (or runs out of time) nothing more is sent on its behalf.
 */
import { type PayConnectResponse, type Redactor, callOperation } from '../client/index.ts';
import {
  type CheckContext,
  type CheckId,
  type CheckInput,
  type ConvergenceObservation,
  getCheck,
  runAutoChecks,
  runCheck,
} from '../checks/index.ts';
import { observe, serviceStep } from '../convergence/index.ts';
import {
  type CheckTally,
  type CoverageDigest,
  type Exchange,
  type Finding,
  type OperationEntry,
  type RootCause,
  SERVICE_CAUSED,
  type TimingDigest,
  type TimingRecorder,
  ToolkitError,
  contractEnumFields,
  enumSightings,
  isToolkitError,
  rootOf,
  timingRecorderFor,
} from '../core/index.ts';
import {
  type ContractOperation,
  type OperationId,
  operationWithId,
  pathFor,
  startsTransaction,
  validators,
} from '../generated/contract.ts';
import type { Profile } from '../profile/index.ts';
import type { RunContext } from './run-context.ts';
import type { DefectLedger, WaitKind } from './defects.ts';
import type { ConvergenceTiming, RuntimeEvents } from './events.ts';
import type { Pairing } from './pairing.ts';
import { diedEarly } from './token-log.ts';
import { REACHED_AT_DEADLINE, type ServiceSteps } from './service-steps.ts';
import { type Disposition, trimmed } from '../transcript/format.ts';
import { type TranscriptRecorder, recordedFinding } from '../transcript/recorder.ts';

/** What a scope needs of the run: the harness provides it (scope.ts does not depend on harness.ts). */
export interface ScopeHost {
  readonly ctx: RunContext;
  readonly profile: Profile;
  readonly redactor: Redactor;
  readonly defects: DefectLedger;
  readonly events: RuntimeEvents;
  /** Whether other tests use this pairing (it must not be unpaired by one of them). */
  isShared(p: Pairing): boolean;
  /** `ms`, cut to what is left of the run's time budget. */
  budgeted(ms: number): number;
  /** The service's step as the worker's convergences saw it; absent: each convergence by its own steps only. */
  readonly steps?: ServiceSteps;
  /** How many ms of `[from, to]` (epoch ms) this worker's event loop stood still. */
  lostDuring(from: number, to?: number): number;
  /** Runs the webhook checks on the pairing's deliveries not judged yet, in `scope`. */
  judgeDeliveries(scope: Scope, p: Pairing): void;
  recordConvergence(o: ConvergenceTiming): void;
  /** The run's transcript in this worker, when the run keeps one (RunContext.transcriptDir). */
  readonly transcript?: TranscriptRecorder;
}

/**
 * Thrown when a scenario cannot go on (a prerequisite failed); the setup turns it into fail or skip.
 * `blockedBy` names the finding that stopped it, when a defect of the service did.
 */
export class ScenarioBlocked extends Error {
  override readonly name: string = 'ScenarioBlocked';
  constructor(
    message: string,
    readonly blockedBy?: RootCause,
  ) {
    super(message);
  }
}

/**
 * Thrown when the run's time budget, not the service, ended a wait: what the test was waiting to see
 * is not checked, and the test stops as not finished (`run budget exceeded`), never with a finding.
 */
export class OutOfRunTime extends ScenarioBlocked {
  override readonly name = 'OutOfRunTime';
}

/** A finding seen again after an earlier test reported it: counted on its root, not failed again. */
export interface Repeat {
  check: string;
  severity: Finding['severity'];
  clause: string;
  message: string;
  /** The root it repeats. */
  root: RootCause;
  /** The exchange it was seen on, if any. */
  exchangeSeq?: number;
}

/** The need a pairing's bearer token stands for, once the token endpoint refused it. */
export const tokenNeed = (p: Pairing): string => `token:${p.label}`;

/** Options of one call. */
export interface CallOptions {
  params?: Record<string, string>;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  auth?: 'auto' | 'none' | { bearer: string };
  integrator?: string;
  /** The longest Retry-After wait the client may honour for this call, ms. @default the client's */
  maxWaitMs?: number;
}

/** Options of one convergence. */
export interface ConvergeOptions {
  /** @default the run's deadline */
  deadlineMs?: number;
  /** How long after the final status by polling its webhook is waited for. @default the run's (RunContext.webhookGraceMs) */
  webhookGraceMs?: number;
  /**
   * How long a final status is watched for a change, when the caller made that time pass already (the
   * embedded simulator's terminal clock skipped past it). @default the run's (RunContext.settleMs, settleScale)
   */
  settleMs?: number;
  onStatus?: (status: string) => void;
  /**
   * Returns at the first final status (its webhook seen, or not awaited) while the settle window runs
   * on behind the test, overlapping what the test does next: the watch is judged, complete, before the
   * test's next request that names `id` (not a GET), before an unpair of the pairing, before another
   * convergence of `id`, and before the test ends ({@link Scope.settled}); a watch the test's end cut
   * short is "not checked" for what it could not see. For a caller that does not judge the final status
   * itself (a test letting go of what it started): what it gets is what was seen so far.
   */
  background?: boolean;
  /**
   * With `background`: called once with the whole watch, judged, before anything that waits for it
   * goes on, and before the convergence returns when it returns the whole watch (it ended without a
   * settle window left to run). What a caller judges of the final state it judges here: the record
   * at the end of the settle window, as without `background`, not the one at the first final status.
   */
  onSettled?: (full: ConvergenceObservation & { last?: Record<string, unknown> }) => void;
}

/** A convergence still watching its settle window behind the test (ConvergeOptions.background). */
interface Settling {
  pairing: Pairing;
  /** Resolves once it is judged (never rejects: what went wrong is the scope's). */
  done: Promise<void>;
}

/**
 * What one test exercised, for the run's coverage (see {@link CoverageDigest}): every exchange, every
 * delivery, every convergence and every check the test's scopes saw, as keys.
 */
type DigestSet = 'calls' | 'enums' | 'transitions' | 'events' | 'inputs';

export class CoverageRecorder {
  readonly #sets: Record<DigestSet, Set<string>> = {
    calls: new Set<string>(),
    enums: new Set<string>(),
    transitions: new Set<string>(),
    events: new Set<string>(),
    inputs: new Set<string>(),
  };
  readonly #checks = new Map<string, CheckTally>();

  add(kind: DigestSet, ...keys: string[]): void {
    for (const k of keys) this.#sets[kind].add(k);
  }

  tally(check: string, clause: string, outcome: 'pass' | 'fail' | 'skip' | 'disabled'): void {
    let t = this.#checks.get(check);
    if (!t) this.#checks.set(check, (t = { clause }));
    t[outcome] = (t[outcome] ?? 0) + 1;
  }

  /** An exchange: its answer, the enum values its body holds, the class of request it sent. */
  exchange(ex: Exchange, amountRange: readonly [number, number]): void {
    const op = operationWithId(ex.operationId);
    if (!op) return;
    const status = ex.response?.status;
    this.add('calls', `${op.operationId} ${status ?? '-'}`);
    const schema = status === undefined ? undefined : op.responses[String(status)]?.schema;
    if (schema) this.add('enums', ...enumSightings(schema, ex.response?.body, contractEnumFields()));
    this.add('inputs', ...requestClasses(op, ex.request.body, amountRange));
  }

  /** The last status posted with a valid signature, by transaction or operation (kept here, never in the digest). */
  readonly #posted = new Map<string, string>();

  /**
   * A webhook delivery: its event type and signature state, the enum values its body holds, and the
   * transition from the status last posted for the same transaction or operation in this test (a
   * revert's REVERTED arrives outside any wait for the transaction).
   */
  delivery(d: { event?: string | undefined; signature: string; body?: unknown }): void {
    this.add('events', `${d.event ?? '(no event)'} ${d.signature}`);
    const kind = d.event?.split('.')[0];
    const data = (d.body as { data?: Record<string, unknown> } | undefined)?.data;
    const id = data?.[`${kind}_id`];
    if (
      d.signature === 'valid' &&
      (kind === 'transaction' || kind === 'operation') &&
      typeof id === 'string' &&
      typeof data?.status === 'string'
    ) {
      const last = this.#posted.get(`${kind} ${id}`);
      if (last !== undefined && last !== data.status) this.add('transitions', `${kind} ${last}>${data.status} webhook`);
      this.#posted.set(`${kind} ${id}`, data.status);
    }
    const schema = contractEnumFields().find((f) => f.path === 'event' && d.event !== undefined && f.values.includes(d.event))?.schema;
    if (schema) this.add('enums', ...enumSightings(schema, d.body, contractEnumFields()));
  }

  /** A convergence: the statuses seen one after the other, by polling and by webhook. */
  convergence(o: ConvergenceObservation): void {
    for (const [channel, seen] of [
      ['poll', o.polled],
      ['webhook', o.webhooks],
    ] as const) {
      const statuses = seen.map((x) => x.status).filter((x, i, all) => i === 0 || all[i - 1] !== x);
      for (let i = 1; i < statuses.length; i++) this.add('transitions', `${o.kind} ${statuses[i - 1]}>${statuses[i]} ${channel}`);
    }
  }

  digest(): CoverageDigest {
    const sorted = (set: ReadonlySet<string>) => [...set].sort();
    const checks: Record<string, CheckTally> = {};
    for (const id of [...this.#checks.keys()].sort()) checks[id] = { ...this.#checks.get(id)! };
    const { calls, enums, transitions, events, inputs } = this.#sets;
    return {
      calls: sorted(calls),
      enums: sorted(enums),
      transitions: sorted(transitions),
      events: sorted(events),
      checks,
      inputs: sorted(inputs),
    };
  }
}

/**
 * The classes of a request's body: `valid op`, or `invalid op <keyword> <where>` (the first schema
 * error; `not-json` for a body that is not JSON), and `boundary op amount <which>` for an amount at or
 * just past an end of the profile's range.
 */
export function requestClasses(op: OperationEntry, body: unknown, [lo, hi]: readonly [number, number]): string[] {
  const validate = op.requestSchema ? validators[op.requestSchema] : undefined;
  if (!validate) return [`valid ${op.operationId}`];
  if (typeof body === 'string') return [`invalid ${op.operationId} not-json`];
  const out = [
    validate(body)
      ? `valid ${op.operationId}`
      : `invalid ${op.operationId} ${validate.errors?.[0]?.keyword ?? 'schema'} ${validate.errors?.[0]?.instancePath || '/'}`,
  ];
  const amount = (body as { amount?: unknown } | null)?.amount;
  const which = { [lo]: 'minimum', [hi]: 'maximum', [lo - 1]: 'below minimum', [hi + 1]: 'above maximum' }[amount as number];
  if (typeof amount === 'number' && which) out.push(`boundary ${op.operationId} amount ${which}`);
  return out;
}

/** The coverage recorder of each test, by harness: a clean-up scope the harness opens for the test adds to the same one. */
const recorders = new WeakMap<ScopeHost, Map<string, CoverageRecorder>>();

function recorderFor(host: ScopeHost, testName: string): CoverageRecorder {
  let byTest = recorders.get(host);
  if (!byTest) {
    const map = new Map<string, CoverageRecorder>();
    recorders.set(host, (byTest = map));
    host.events.on('delivery', (e) => map.get(e.test)?.delivery(e.delivery));
  }
  let r = byTest.get(testName);
  if (!r) byTest.set(testName, (r = new CoverageRecorder()));
  return r;
}

/**
 * What a convergence saw of the record on both channels: the data of the valid deliveries of `kind`
 * that arrived while it polled, and the records its polls read (webhook.data-matches-record).
 */
export function webhookData(
  kind: 'transaction' | 'operation',
  id: string,
  deliveries: readonly { event: string | undefined; eventId: string | undefined; body: unknown }[],
  polls: readonly Exchange[],
) {
  const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  return {
    kind,
    id,
    deliveries: deliveries.flatMap((d) => {
      const data = (d.body as { data?: unknown } | undefined)?.data;
      return String(d.event ?? '').startsWith(`${kind}.`) && isRecord(data)
        ? [{ ...(d.event === undefined ? {} : { event: d.event }), ...(d.eventId === undefined ? {} : { eventId: d.eventId }), data }]
        : [];
    }),
    records: polls.flatMap((x) => (x.response?.status === 200 && isRecord(x.response.body) ? [x.response.body] : [])),
  };
}

/** Whether a delivery's body is about transaction or operation `id` (its data names it). */
function names(body: unknown, id: string): boolean {
  const data = (body as { data?: Record<string, unknown> } | undefined)?.data;
  return typeof data === 'object' && data !== null && (data.transaction_id === id || data.operation_id === id);
}

/** A wait of which the harness lost this share or more (its event loop stood still) is measured again. */
export const STALL_SHARE = 0.2;

/**
 * The first gap between two polls of a convergence whose webhooks the harness receives (each later
 * gap grows by half, as without). A delivery wakes a poll at once, so a status that changes is polled
 * as it changes; a poll between two changes only sees the status the last one saw. Polled every 20 ms
 * from the start, a convergence against `sim --step-delay 100` sent half a URL run's requests, most
 * of them such repeats. The gap is the settle window's floor (the least time a final status is
 * watched: against a URL 200 ms, two of the quickest steps; the embedded simulator's 80 ms), at most
 * 200 ms: a service whose webhooks do not come is still polled at the pace the settle window assumes.
 */
export function firstPollGapMs(ctx: Pick<RunContext, 'settleMs' | 'settleScale'>): number {
  return Math.max(20, Math.min(200, ctx.settleScale?.minMs ?? ctx.settleMs));
}

export class Scope {
  readonly findings: Finding[] = [];
  readonly repeats: Repeat[] = [];
  readonly exchanges: Exchange[] = [];
  readonly notes: string[] = [];
  /** What this test could not observe, each with why (once each): "not checked", never "passed". */
  readonly notChecked = new Set<string>();
  /** Convergences that ended final by polling on a pairing whose deliveries this run sees. */
  webhookFinals = 0;
  /** Waits measured again because the harness stood still through them. */
  readonly remeasured: { what: string; lostMs: number; waitMs: number }[] = [];
  /** What could not be judged because the harness stood still through it (a POST cannot be sent again). */
  readonly overloaded: string[] = [];
  /** Findings already filed by this test, with their root cause. */
  private readonly seen = new Map<string, RootCause>();
  readonly #abort = new AbortController();
  /** The root cause each of this test's own findings stands for (the ledger's record, kept current). */
  readonly #roots = new WeakMap<Finding, RootCause>();
  /** Requests sent and not answered yet: their exchanges still belong to this test. */
  readonly #inflight = new Set<Promise<unknown>>();
  /** Convergences watching their settle window behind the test, by id. */
  readonly #settling = new Map<string, Settling>();
  /** An error (not a blocked scenario) a convergence behind the test hit: thrown at the next wait for it. */
  #behindError: { error: unknown } | undefined;

  /** What the test exercised (shared with any clean-up scope of the same test). */
  readonly #coverage: CoverageRecorder;
  /** How long the service took (shared with any clean-up scope of the same test). */
  readonly #timing: TimingRecorder;
  /** This scope's number in the transcript (0 without one). */
  readonly serial: number;
  /** How each finding of the last `addFindings` was filed, for the transcript. */
  #filedAs: Disposition[] = [];
  /** Set while a check invocation files its findings (the transcript records them with the check). */
  #inCheck = false;

  constructor(
    readonly harness: ScopeHost,
    readonly testName: string,
  ) {
    this.#coverage = recorderFor(harness, testName);
    this.#timing = timingRecorderFor(harness, testName);
    this.serial = harness.transcript?.nextScope() ?? 0;
  }

  /** The transcript, when this scope's findings are reported (a scope that only records leaves none). */
  private get transcript(): TranscriptRecorder | undefined {
    return this.reported ? this.harness.transcript : undefined;
  }

  /** Files the findings of one check invocation; how each was filed, in order. */
  private fileChecked(list: Finding[]): { roots: RootCause[]; filedAs: Disposition[] } {
    this.#inCheck = true;
    try {
      const roots = this.addFindings(list);
      return { roots, filedAs: this.#filedAs };
    } finally {
      this.#inCheck = false;
    }
  }

  /** What the test exercised so far, for its meta (see {@link CoverageDigest}). */
  coverage(): CoverageDigest {
    return this.#coverage.digest();
  }

  /** How long the service took in this test so far, for its meta (see {@link TimingDigest}). */
  timing(): TimingDigest {
    return this.#timing.digest();
  }

  private get checkCtx(): Omit<CheckContext, 'operation'> {
    const limit = this.harness.ctx.maxResponseTimeMs;
    return { profile: this.harness.profile, strict: this.harness.ctx.strict, ...(limit !== undefined ? { maxResponseTimeMs: limit } : {}) };
  }

  /** Whether this scope's findings reach the reports (a scope that only records them says no). */
  get reported(): boolean {
    return true;
  }

  /** Aborted when the test ends or runs out of time: nothing more is sent or awaited for it. */
  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  get closed(): boolean {
    return this.#abort.signal.aborted;
  }

  /** Ends the scope: later calls and waits stop at once with `reason` (work left running cannot leak into other tests). */
  close(reason: string): void {
    if (!this.closed) this.#abort.abort(new ScenarioBlocked(reason));
  }

  /**
   * Resolves when every request this scope sent has ended (each is bounded by the request time-out)
   * and every convergence behind the test is judged; throws an error one of those hit.
   */
  async settled(): Promise<void> {
    while (this.#inflight.size > 0 || this.#settling.size > 0)
      await Promise.allSettled([...this.#inflight, ...[...this.#settling.values()].map((w) => w.done)]);
    this.throwBehindError();
  }

  /** Waits for the convergences behind the test that `which` picks (by id and pairing), judged. */
  private async settleWatches(which: (id: string, w: Settling) => boolean): Promise<void> {
    const waits = [...this.#settling].filter(([id, w]) => which(id, w)).map(([, w]) => w.done);
    if (waits.length > 0) await Promise.all(waits);
    this.throwBehindError();
  }

  private throwBehindError(): void {
    const e = this.#behindError;
    this.#behindError = undefined;
    if (e) throw e.error;
  }

  /**
   * Before a request that may change state (not a GET): the convergences behind the test of the ids it
   * names (in its path or body, on any pairing: a foreign id is a probe of isolation), and for an
   * unpair every one of the pairing (its polls need the pairing's token).
   */
  private beforeChange(pairing: Pairing, operationId: OperationId, opts: CallOptions): Promise<void> {
    const params = Object.values(opts.params ?? {});
    const body = opts.rawBody ?? JSON.stringify(opts.body ?? null);
    return this.settleWatches((id, w) => params.includes(id) || body.includes(id) || (operationId === 'unpair' && w.pairing === pairing));
  }

  /**
   * Runs a convergence whose settle window goes on behind the test: resolves with what was seen at the
   * first final status (or, when it ends before one, with the judged observation); the full watch is
   * judged when it ends. A watch cut short (the scope closed, a request it needed stopped) is not
   * checked for what it could not see; an error of the toolkit is thrown at the next wait for it.
   */
  private behind<T extends ConvergenceObservation>(
    pairing: Pairing,
    kind: 'transaction' | 'operation',
    id: string,
    run: (onFinal: (soFar: ConvergenceObservation) => void) => Promise<T>,
    last: () => Record<string, unknown> | undefined,
    onSettled?: (full: T) => void,
  ): Promise<T | (ConvergenceObservation & { last?: Record<string, unknown> })> {
    return new Promise((resolve, reject) => {
      let returned = false;
      const onFinal = (soFar: ConvergenceObservation) => {
        returned = true;
        const record = last();
        resolve({ ...soFar, ...(record ? { last: record } : {}) });
      };
      const done: Promise<void> = run(onFinal).then(
        (full) => {
          this.#settling.delete(id);
          try {
            onSettled?.(full);
          } catch (e) {
            if (!returned) return reject(e);
            this.#behindError ??= { error: e };
          }
          if (!returned) resolve(full);
        },
        (e: unknown) => {
          this.#settling.delete(id);
          if (!returned) return reject(e);
          if (!(e instanceof ScenarioBlocked)) {
            this.#behindError ??= { error: e };
            return;
          }
          this.notes.push(`${kind} ${id}: the watch after its final status was cut short (${e.message})`);
          this.notChecked.add(
            `${kind} ${id}: the watch after its final status was cut short (${e.message}); whether the status ` +
              `stays final and its webhooks agree was not checked`,
          );
        },
      );
      this.#settling.set(id, { pairing, done });
    });
  }

  /** Throws the reason the scope was closed, if it was. */
  assertOpen(): void {
    if (this.closed) throw this.#abort.signal.reason;
  }

  /**
   * Adds findings, once each (a defect seen on every poll is one finding); a finding an earlier test
   * reported already is kept as a repeat. Returns the root cause of each finding.
   */
  addFindings(list: Finding[]): RootCause[] {
    const roots: RootCause[] = [];
    const filedAs: Disposition[] = (this.#filedAs = []);
    const inCheck = this.#inCheck;
    this.#inCheck = false;
    for (const f of list) {
      const key = `${f.check}\u0000${f.message}`;
      const known = this.seen.get(key);
      if (known) {
        roots.push(known);
        filedAs.push('dup');
        continue;
      }
      const filed = this.harness.defects.file({ ...f, test: this.testName }, this.testName, this.reported);
      this.seen.set(key, filed.root);
      roots.push(filed.root);
      filedAs.push(filed.kind === 'root' ? 'filed' : filed.kind);
      // Filed by no check invocation: the transcript carries it over as it is.
      if (!inCheck)
        this.transcript?.add({ kind: 'finding', test: this.testName, scope: this.serial, finding: f, disposition: filedAs.at(-1)! });
      const seq = (f.evidence as { exchange?: Exchange } | undefined)?.exchange?.seq;
      if (filed.kind === 'again') continue;
      if (filed.kind === 'repeat') {
        this.repeats.push({
          check: f.check,
          severity: f.severity,
          clause: f.clause,
          message: f.message,
          root: filed.root,
          ...(seq === undefined ? {} : { exchangeSeq: seq }),
        });
      } else {
        const own = { ...f, test: this.testName };
        this.#roots.set(own, filed.root);
        this.findings.push(own);
        if (this.reported) this.harness.events.emit('finding', { test: this.testName, finding: own });
      }
    }
    return roots;
  }

  /** Called by the harness for every exchange recorded while this test runs. */
  recordExchange(ex: Exchange): void {
    this.exchanges.push(ex);
    this.harness.events.emit('exchange', { test: this.testName, exchange: ex });
    this.#coverage.exchange(ex, this.harness.profile.amountRange);
    this.#timing.exchange(ex);
    // Never silently unjudged: a request the contract has no operation for had none of its checks.
    if (ex.operationId === undefined) {
      this.notChecked.add(
        `${ex.request.method} ${ex.request.path} matched no operation of the contract, so no check ` +
          `judged its answer (is the API mounted under another path than the target's?)`,
      );
    }
    const auto: { check: string; findings: ReturnType<typeof recordedFinding>[] }[] = [];
    for (const r of runAutoChecks(ex, this.checkCtx)) {
      this.#coverage.tally(r.check, getCheck(r.check).clause, this.disabled(r.check) ? 'disabled' : r.outcome);
      if (this.disabled(r.check)) continue;
      const { filedAs } = this.fileChecked(
        r.findings.map((f) => ({ ...f, evidence: { ...(f.evidence as object), exchange: trimmed(ex) } })),
      );
      if (r.findings.length > 0) auto.push({ check: r.check, findings: r.findings.map((f, i) => recordedFinding(f, filedAs[i]!)) });
    }
    this.transcript?.add(
      { kind: 'exchange', test: this.testName, scope: this.serial, exchange: ex, ...(auto.length > 0 ? { auto } : {}) },
      ex,
    );
  }

  /** Whether the run turned check `id` off (`checks.disable`): it is neither run nor filed. */
  private disabled(id: string): boolean {
    return this.harness.ctx.disabledChecks?.includes(id) ?? false;
  }

  /**
   * Runs the registered check `id` on `input`; true when it passed or was skipped (or is disabled).
   * The input's type is the one the check declares (its id is a literal type of the registry).
   */
  check<K extends CheckId>(id: K, input: CheckInput<K>, extraEvidence?: Record<string, unknown>): boolean {
    return this.judge(id, input, extraEvidence).ok;
  }

  /** `check` for an id known only at run time (a finding recorded earlier, replayed on this scope). */
  checkRecorded(id: string, input: unknown, extraEvidence?: Record<string, unknown>): boolean {
    return this.judge(id, input, extraEvidence).ok;
  }

  /** Runs a check; its outcome and the root cause of each finding it made. */
  private judge<I>(id: string, input: I, extraEvidence?: Record<string, unknown>): { ok: boolean; roots: RootCause[] } {
    const check = getCheck<I>(id);
    if (this.disabled(id)) {
      this.#coverage.tally(id, check.clause, 'disabled');
      return { ok: true, roots: [] };
    }
    const r = runCheck(check, input, { ...this.checkCtx });
    this.#coverage.tally(id, check.clause, r.outcome);
    // An exchange, or an input that carries one (an invalid input with the sentence that makes it so).
    const sent =
      (input as Exchange | undefined)?.seq !== undefined ? (input as Exchange) : (input as { exchange?: Exchange } | undefined)?.exchange;
    const exchange = sent?.seq !== undefined ? trimmed(sent) : undefined;
    const { roots, filedAs } = this.fileChecked(
      r.findings.map((f) => ({ ...f, evidence: { ...(f.evidence as object), ...(exchange ? { exchange } : {}), ...extraEvidence } })),
    );
    this.transcript?.check(
      this.testName,
      this.serial,
      id,
      input,
      r.outcome,
      r.findings.map((f, i) => recordedFinding(f, filedAs[i]!)),
      extraEvidence,
    );
    return { ok: r.outcome !== 'fail', roots };
  }

  /** Whether any finding so far is a failure. */
  hasFailures(): boolean {
    return this.findings.some((f) => f.severity === 'failure');
  }

  /** Calls an operation of the contract by id. State-changing amounts are capped off sandboxes. */
  async call(pairing: Pairing, operationId: OperationId, opts: CallOptions = {}, again = false): Promise<PayConnectResponse> {
    const op = operationWithId(operationId);
    if (!op) throw new ToolkitError('PCC_INTERNAL', `no operation ${operationId} in the contract`);
    const amount = (opts.body as { amount?: unknown } | undefined)?.amount;
    if (op.stateChanging && !this.harness.ctx.sandbox && typeof amount === 'number' && amount > this.harness.ctx.maxAmount) {
      throw new ToolkitError(
        'PCC_AMOUNT_LIMIT',
        `refusing to send amount ${amount} to ${operationId} on a target that is not a sandbox (limit ${this.harness.ctx.maxAmount})`,
        'raise --max-amount deliberately, or use a sandbox target',
      );
    }
    let path: string;
    try {
      path = pathFor(operationId, opts.params);
    } catch (e) {
      throw new ToolkitError('PCC_INTERNAL', (e as Error).message, undefined, { cause: e });
    }
    this.assertOpen();
    if (op.method !== 'GET' && this.#settling.size > 0) {
      await this.beforeChange(pairing, operationId, opts);
      this.assertOpen();
    }
    const defects = this.harness.defects;
    const silent = defects.blocker('answer');
    if (silent) this.blockBy(silent);
    const auth = opts.auth ?? (op.bearer ? 'auto' : 'none');
    if (op.bearer && auth !== 'auto') this.#coverage.add('inputs', `probe ${operationId} bearer ${auth === 'none' ? 'none' : 'other'}`);
    if (op.integratorHeader && opts.integrator !== undefined && opts.integrator !== 'auto')
      this.#coverage.add('inputs', `probe ${operationId} integrator ${opts.integrator === 'none' ? 'none' : 'other'}`);
    // Other tests go on using a shared pairing: unpairing it with its own token is a bug of the suite.
    if (op.operationId === 'unpair' && auth === 'auto' && this.harness.isShared(pairing)) {
      throw new ToolkitError(
        'PCC_INTERNAL',
        `${this.testName} tried to unpair the shared pairing ${pairing.label}`,
        'a test that unpairs must use a pairing of its own (harness.fresh)',
      );
    }
    const noToken = auth === 'auto' ? defects.blocker(tokenNeed(pairing)) : undefined;
    if (noToken) this.blockBy(noToken);
    // A terminal still busy with a transaction that will not end answers 409: that is no new finding.
    const stuck =
      pairing.open.size > 0 && startsTransaction(operationId)
        ? (defects.blocker('transaction-final') ?? this.overdueOn(pairing))
        : undefined;
    if (stuck) this.blockBy(stuck);
    let res: PayConnectResponse;
    const sentAt = Date.now();
    const mark = this.exchanges.length;
    try {
      const sent = callOperation(pairing.client, operationId, {
        params: opts.params ?? {},
        body: opts.body,
        rawBody: opts.rawBody,
        headers: opts.headers,
        auth,
        integrator: opts.integrator ?? 'auto',
        ...(opts.maxWaitMs === undefined ? {} : { maxWaitMs: opts.maxWaitMs }),
      });
      this.#inflight.add(sent);
      void sent.then(
        () => this.#inflight.delete(sent),
        () => this.#inflight.delete(sent),
      );
      res = await sent;
    } catch (e) {
      this.assertOpen();
      // No answer in time while the harness stood still through much of the wait: the harness's doing.
      const lost = isToolkitError(e) && e.code === 'PCC_TIMEOUT' ? this.harness.lostDuring(sentAt) : 0;
      if (lost > 0 && lost >= STALL_SHARE * this.harness.ctx.timeoutMs) {
        // A GET is measured again; a POST may have been acted on and is never sent twice.
        if (op.method === 'GET' && !again) return this.call(pairing, operationId, opts, true);
        const what = `${op.method} ${path}: no answer within ${this.harness.ctx.timeoutMs} ms while the harness stood still ${lost} ms of it`;
        this.overloaded.push(what);
        throw new ScenarioBlocked(`harness overloaded: ${what}`);
      }
      throw this.stoppedByService(e, `${op.method} ${path}`, pairing);
    }
    defects.waited('answer', undefined);
    this.track(pairing, op, res, opts.params);
    // A token a test asks for is not the one the client sends; an accepted unpair revokes the pairing's tokens.
    if (op.operationId === 'getToken') pairing.tokens.explicit(res.exchange.seq);
    if (op.operationId === 'unpair' && res.status >= 200 && res.status < 300) pairing.unpaired = true;
    const ownToken =
      auth === 'auto' &&
      op.bearer &&
      (opts.integrator ?? 'auto') === 'auto' &&
      !Object.keys(opts.headers ?? {}).some((h) => h.toLowerCase() === 'authorization');
    if (ownToken && !pairing.unpaired) this.judgeTokenAge(pairing, res, mark);
    return res;
  }

  /**
   * A 401 on the client's own token while that token was younger than the `expires_in` it was issued
   * with: the token died early (sandbox#tokens), filed as `auth.token-lifetime-honoured` with its age.
   * That is the root: when the answer the test gets is that 401, the scenario is blocked by it, so the
   * request's own rule (request.accepted, ...) is not judged on a refusal the request did not cause. A
   * GET the client sent again with a new token goes on with that answer.
   */
  private judgeTokenAge(pairing: Pairing, res: PayConnectResponse, mark: number): void {
    const last = res.exchange;
    // This call's attempts: a GET refused with 401 was sent again (bearer-token.ts), both recorded.
    const attempts = [
      ...this.exchanges
        .slice(mark)
        .filter((x) => x.seq < last.seq && x.request.method === last.request.method && x.request.path === last.request.path),
      last,
    ];
    let early: RootCause | undefined;
    let refusedEarly = false;
    for (const ex of attempts) {
      if (ex.response?.status !== 401) continue;
      const age = pairing.tokens.ageAt(ex);
      if (!diedEarly(age)) continue;
      if (ex === last) refusedEarly = true;
      const [root] = this.judge('auth.token-lifetime-honoured', {
        calls: [ex],
        expiresIn: age.token.expiresIn,
        early: { exchange: trimmed(ex), tokenAgeMs: age.ageMs, lifetimeMs: age.lifetimeMs, tokenSeq: age.token.seq },
      }).roots;
      early ??= root;
    }
    if (!refusedEarly) return;
    if (early) this.blockBy(early);
    // Not judged (a rule of the sandbox profile on another target, or turned off): still not the request's fault.
    const why = `${last.request.method} ${last.request.path} answered 401 on a token younger than its expires_in`;
    this.notChecked.add(`${why}: the token's lifetime is not judged here`);
    throw new ScenarioBlocked(why);
  }

  /**
   * A request the service stopped (no answer, no token for the pairing's credentials): judged as a
   * finding here, and the scenario blocked by it. Any other error is returned as it is. Requests made
   * outside `call` (pairing by OTP) come here from the suites' setup.
   */
  stoppedByService(e: unknown, request: string, pairing?: Pairing): unknown {
    const id = isToolkitError(e) ? SERVICE_CAUSED[e.code] : undefined;
    if (!id) return e;
    const why = this.harness.redactor.redactText((e as Error).message);
    if (id === 'request.answered') {
      const [root] = this.judge(id, { request, error: why }).roots;
      if (!root) return e;
      this.harness.defects.waited('answer', root);
      return new ScenarioBlocked(`${root.check}: ${root.message}`, root);
    }
    const tokenExchange = [...this.exchanges].reverse().find((x) => x.operationId === 'getToken');
    const [root] = this.judge(id, { refused: why, ...(tokenExchange ? { exchange: trimmed(tokenExchange) } : {}) }).roots;
    if (!root) return e;
    if (pairing) this.harness.defects.block(tokenNeed(pairing), root);
    return new ScenarioBlocked(`${root.check}: ${root.message}`, root);
  }

  /** Keeps the pairing's terminal bookkeeping: transactions started and not yet seen final. */
  private track(pairing: Pairing, op: ContractOperation, res: PayConnectResponse, params?: Record<string, string>): void {
    const body = res.body as Record<string, unknown> | undefined;
    if (res.status !== 200 || typeof body !== 'object' || body === null) return;
    if (startsTransaction(op.operationId) && typeof body.transaction_id === 'string') pairing.open.add(body.transaction_id);
    if (
      op.operationId === 'getTransactionStatus' &&
      typeof body.status === 'string' &&
      this.harness.profile.transactionFinal.includes(body.status) &&
      params?.transaction_id
    )
      pairing.open.delete(params.transaction_id);
  }

  /** Stops the scenario: a prerequisite did not hold. */
  block(message: string): never {
    throw new ScenarioBlocked(message);
  }

  /**
   * Stops the scenario because of a defect found earlier (or just now). A root whose finding no
   * reported test holds (it was seen by a scope that only records) is reported here.
   */
  blockBy(root: RootCause): never {
    if (this.reported && !this.harness.defects.isReported(root))
      this.addFindings([
        {
          check: root.check,
          severity: root.severity,
          clause: root.clause,
          ...(root.quote ? { quote: root.quote } : {}),
          message: root.message,
        },
      ]);
    throw new ScenarioBlocked(`${root.check}: ${root.message}`, root);
  }

  /** `value` when it is present, else stops the scenario with `message`. */
  need<T>(value: T | undefined | null | false, message: string): T {
    if (value === undefined || value === null || value === false) this.block(message);
    return value as T;
  }

  /** The id field of a 200 answer, or stops the scenario. */
  idFrom(res: PayConnectResponse, field: 'transaction_id' | 'operation_id', what: string): string {
    const id = (res.body as Record<string, unknown> | undefined)?.[field];
    if (res.status !== 200 || typeof id !== 'string' || id === '') {
      this.check('request.accepted', res.exchange);
      this.block(`${what}: no ${field} (status ${res.status})`);
    }
    return id;
  }

  /**
   * Watches a transaction or operation until final or the deadline, and runs the convergence checks.
   * A kind of wait that has failed twice in a row is not waited for again: the scenario is blocked by
   * its root finding at once; likewise the wait for a valid webhook is dropped (polling goes on).
   */
  async converge(
    pairing: Pairing,
    kind: 'transaction' | 'operation',
    id: string,
    opts: ConvergeOptions = {},
  ): Promise<ConvergenceObservation & { last?: Record<string, unknown> }> {
    this.assertOpen();
    if (this.#settling.has(id)) {
      await this.settleWatches((other) => other === id);
      this.assertOpen();
    }
    const profile = this.harness.profile;
    const defects = this.harness.defects;
    const waitKind: WaitKind = kind === 'transaction' ? 'transaction-final' : 'operation-final';
    const stuck = defects.blocker(waitKind);
    if (stuck) this.blockBy(stuck);
    const webhooksObservable = this.waitsForWebhooks(pairing, kind, id);
    let last: Record<string, unknown> | undefined;
    const started = Date.now();
    const rx = pairing.receiver;
    const polls: Exchange[] = [];
    const askedMs = opts.deadlineMs ?? this.harness.ctx.deadlineMs;
    const deadlineMs = this.harness.budgeted(askedMs);
    const outOfRunTime = (o: { timedOut: boolean }, budgetMs: number, wantedMs: number) =>
      this.stopIfOutOfRunTime(`${kind} ${id}`, o, budgetMs, wantedMs);
    const graceMs = opts.webhookGraceMs ?? this.harness.ctx.webhookGraceMs;
    const steps = this.harness.steps;
    const watch = (ms: number, onFinal?: (soFar: ConvergenceObservation) => void) =>
      observe({
        kind,
        id,
        poll: async ({ remainingMs }) => {
          const { exchange, body, status, retryAfterMs } = await this.pollRecord(pairing, kind, id, remainingMs);
          polls.push(exchange);
          if (status) last = body;
          return { status, retryAfterMs };
        },
        webhooks: rx ? () => validWebhookStatuses(rx, kind, id, started) : undefined,
        // Woken by a delivery about this id only: another transaction's (one started while this watch
        // runs behind the test) is no news of this one and would cost a poll each.
        subscribe: rx ? (wake) => rx.onDelivery((d) => (names(d.body, id) ? wake() : undefined)) : undefined,
        webhooksObservable,
        final: kind === 'transaction' ? profile.transactionFinal : profile.operationFinal,
        deadlineMs: ms,
        settleMs: opts.settleMs ?? this.harness.ctx.settleMs,
        ...(opts.settleMs === undefined && this.harness.ctx.settleScale ? { settleScale: this.harness.ctx.settleScale } : {}),
        reachedAtDeadline: REACHED_AT_DEADLINE,
        ...(steps ? { stepElsewhere: () => steps.stepMs } : {}),
        webhookGraceMs: graceMs,
        ...(webhooksObservable ? { initialIntervalMs: firstPollGapMs(this.harness.ctx) } : {}),
        // Two misses anywhere in the run end the waits under way too, not only the later ones.
        webhookWaitFutile: () => defects.blocker('webhook-valid') !== undefined,
        signal: this.signal,
        ...(opts.onStatus ? { onStatus: opts.onStatus } : {}),
        ...(onFinal ? { onFinal } : {}),
      });
    /** Judges a watch that ended: measured again if the harness stood still through it, then the checks. */
    const judged = async (first: ConvergenceObservation) => {
      let obs = first;
      this.assertOpen();
      outOfRunTime(obs, deadlineMs, askedMs);
      // A wait through which the harness itself stood still says more about the harness than about the
      // service: it is measured again, with the time lost given back, before anything is judged.
      const webhookMissed = webhooksObservable && obs.finalByPoll !== undefined && !obs.webhooks.some((w) => w.status === obs.finalByPoll);
      const waited = obs.timedOut ? deadlineMs : webhookMissed ? Math.min(graceMs ?? deadlineMs, deadlineMs) : 0;
      const lost = waited > 0 ? this.harness.lostDuring(started) : 0;
      if (lost > 0 && lost >= STALL_SHARE * waited) {
        this.notes.push(`${kind} ${id}: measured again, the harness stood still ${lost} ms of a ${waited} ms wait`);
        this.remeasured.push({ what: `${kind} ${id}`, lostMs: lost, waitMs: waited });
        const againMs = Math.max(lost, 1000);
        const againBudget = this.harness.budgeted(againMs);
        const again = await watch(againBudget);
        this.assertOpen();
        outOfRunTime(again, againBudget, againMs);
        obs = {
          ...again,
          polled: [...obs.polled, ...again.polled].filter((s, i, all) => i === 0 || all[i - 1]!.status !== s.status),
          elapsedMs: Date.now() - started,
        };
      }
      steps?.saw(serviceStep(obs.polled, obs.webhooks, REACHED_AT_DEADLINE));
      this.judgeConvergence({ pairing, kind, id, obs, polls, started, webhooksObservable, waitKind });
      return { ...obs, last };
    };
    if (!opts.background) return judged(await watch(deadlineMs));
    return this.behind(
      pairing,
      kind,
      id,
      (onFinal) => watch(deadlineMs, onFinal).then(judged),
      () => last,
      opts.onSettled,
    );
  }

  /**
   * The checks of a convergence that ended, and what the run learns from it: coverage, timing, the
   * transactions left open, and the defects that block later waits of their kind.
   */
  private judgeConvergence(c: {
    pairing: Pairing;
    kind: 'transaction' | 'operation';
    id: string;
    obs: ConvergenceObservation;
    polls: Exchange[];
    started: number;
    webhooksObservable: boolean;
    waitKind: WaitKind;
  }): void {
    const { pairing, kind, id, obs, polls, started, webhooksObservable, waitKind } = c;
    const rx = pairing.receiver;
    const defects = this.harness.defects;
    this.transcript?.add({ kind: 'convergence', test: this.testName, scope: this.serial, observation: obs }, obs);
    const roots: Partial<Record<string, RootCause>> = {};
    for (const c of ['transition.legal', 'convergence.deadline', 'webhook.agrees-with-polling', 'webhook.delivered'])
      roots[c] = this.judge(c, obs).roots[0];
    if (webhooksObservable && rx)
      this.check(
        'webhook.data-matches-record',
        webhookData(
          kind,
          id,
          rx.eventsFor(id).filter((d) => d.receivedAt >= started),
          polls,
        ),
      );
    this.harness.judgeDeliveries(this, pairing);
    this.#coverage.convergence(obs);
    this.#timing.convergence(obs, started, this.startOf(kind, id));
    this.harness.recordConvergence(obs);
    if (kind === 'transaction' && obs.finalByPoll) pairing.open.delete(id);
    if (pairing.webhooksObservable && obs.finalByPoll) this.webhookFinals++;
    // The root of a wait that never ended: what the polls answered (a status outside the enum, a
    // broken record) when that was judged a defect, else the missed deadline itself.
    const missed = obs.timedOut ? (this.rootOfPolls(polls) ?? roots['convergence.deadline']) : undefined;
    if (kind === 'transaction' && missed) pairing.overdue.set(id, missed);
    defects.waited(waitKind, missed);
    if (webhooksObservable && obs.finalByPoll)
      defects.waited(
        'webhook-valid',
        roots['webhook.delivered'] ? (this.rootOfCheck('webhook.signature') ?? roots['webhook.delivered']) : undefined,
      );
  }

  /**
   * Whether a convergence waits for a webhook too: not when the pairing's deliveries cannot be
   * observed (not checked, saying why), nor once valid webhooks failed to come twice (the wait is
   * dropped, polling goes on).
   */
  private waitsForWebhooks(pairing: Pairing, kind: 'transaction' | 'operation', id: string): boolean {
    const noWebhook = pairing.webhooksObservable ? this.harness.defects.blocker('webhook-valid') : undefined;
    if (noWebhook) this.notes.push(`${kind} ${id}: not waiting for a webhook (blocked by ${noWebhook.check}: ${noWebhook.message})`);
    if (noWebhook) this.notChecked.add(`webhooks: not waited for, blocked by [${noWebhook.check}] ${noWebhook.message}`);
    else if (pairing.unobservableWhy) this.notChecked.add(`webhooks: ${pairing.unobservableWhy}`);
    return pairing.webhooksObservable && !noWebhook;
  }

  /** A wait that ran out of the run's time, not of its deadline, judges nothing of the service: not checked, and the scenario stops. */
  private stopIfOutOfRunTime(what: string, o: { timedOut: boolean }, budgetMs: number, wantedMs: number): void {
    if (!o.timedOut || budgetMs >= wantedMs) return;
    this.notChecked.add(
      `${what}: the run's time budget ended the wait after ${budgetMs} ms of its ${wantedMs} ` +
        `ms; whether it reaches a final status in time was not checked`,
    );
    throw new OutOfRunTime('run budget exceeded while waiting for a final status');
  }

  /** One poll of a record under watch: its status when a 200 gives one, and the wait the service asks for (Retry-After, at most 10 s). */
  private async pollRecord(pairing: Pairing, kind: 'transaction' | 'operation', id: string, remainingMs: number) {
    // A wait the service asks for (Retry-After) never runs past the deadline.
    const res = await this.call(pairing, kind === 'transaction' ? 'getTransactionStatus' : 'getOperation', {
      params: kind === 'transaction' ? { transaction_id: id } : { operation_id: id },
      maxWaitMs: Math.max(0, remainingMs),
    });
    const body = res.body as Record<string, unknown> | undefined;
    const status = res.status === 200 && typeof body?.status === 'string' ? body.status : undefined;
    const ra = Number(res.headers['retry-after']);
    return { exchange: res.exchange, body, status, retryAfterMs: Number.isFinite(ra) && ra > 0 ? Math.min(ra * 1000, 10_000) : undefined };
  }

  /** When the request that started a transaction or operation was sent (epoch ms), if this test sent it. */
  private startOf(kind: 'transaction' | 'operation', id: string): number | undefined {
    const ex = this.exchanges.find(
      (x) => x.request.method === 'POST' && (x.response?.body as Record<string, unknown> | undefined)?.[`${kind}_id`] === id,
    );
    return ex ? Date.parse(ex.startedAt) : undefined;
  }

  /** The root of an open transaction of the pairing that missed its deadline (its terminal stays busy), if any. */
  private overdueOn(pairing: Pairing): RootCause | undefined {
    for (const id of pairing.open) {
      const root = pairing.overdue.get(id);
      if (root) return root;
    }
    return undefined;
  }

  /** The root of a defect found on one of these exchanges in this test, if any. */
  private rootOfPolls(polls: Exchange[]): RootCause | undefined {
    const seqs = new Set(polls.map((x) => x.seq));
    const onPoll = (f: { evidence?: unknown }) => seqs.has((f.evidence as { exchange?: Exchange } | undefined)?.exchange?.seq ?? -1);
    const own = this.findings.find(onPoll);
    if (own) return this.#roots.get(own) ?? rootOf(own, this.testName);
    return this.repeats.find((r) => seqs.has(r.exchangeSeq ?? -1))?.root;
  }

  /** The root of the first finding of check `id` in this test (its own or a repeat), if any. */
  rootOfCheck(id: string): RootCause | undefined {
    const own = this.findings.find((f) => f.check === id);
    if (own) return this.#roots.get(own) ?? rootOf(own, this.testName);
    return this.repeats.find((r) => r.check === id)?.root;
  }
}

/** The statuses of `kind` that validly signed deliveries gave for record `id`, as a convergence observes them (ms since `started`). */
function validWebhookStatuses(rx: NonNullable<Pairing['receiver']>, kind: 'transaction' | 'operation', id: string, started: number) {
  return rx
    .eventsFor(id)
    .filter(
      (d) =>
        d.signature === 'valid' &&
        typeof (d.body as { data?: { status?: unknown } })?.data?.status === 'string' &&
        String(d.event ?? '').startsWith(`${kind}.`),
    )
    .map((d) => ({
      status: String((d.body as { data: { status: string } }).data.status),
      channel: 'webhook' as const,
      atMs: d.receivedAt - started,
    }));
}
