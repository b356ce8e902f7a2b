/**
 * The per-test view of the harness: every request a test makes goes through `call`, so every exchange
 * is checked; `check` runs a registered check on an observation; `converge` watches a transaction or
 * operation to its end. Findings collect here and are attached to the test by the suites' setup.
 */
import type { PayConnectResponse } from '../client/index.ts';
import { type CheckContext, type ConvergenceObservation, getCheck, operationFor, runAutoChecks, runCheck } from '../checks/index.ts';
import { observe } from '../convergence/index.ts';
import { type Exchange, type Finding, ToolkitError } from '../core/index.ts';
import { operations } from '../generated/contract.ts';
import type { Harness } from './harness.ts';
import type { Pairing } from './pairing.ts';

/** Thrown when a scenario cannot go on (a prerequisite failed); the setup turns it into fail or skip. */
export class ScenarioBlocked extends Error {
  override readonly name = 'ScenarioBlocked';
}

/** Options of one call. */
export interface CallOptions {
  params?: Record<string, string>;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  auth?: 'auto' | 'none' | { bearer: string };
  integrator?: string;
}

const MAX_EVIDENCE_BODY = 4096;

function trimmed(ex: Exchange): Exchange {
  const raw = ex.response?.rawBody;
  if (!raw || raw.length <= MAX_EVIDENCE_BODY) return ex;
  return { ...ex, response: { ...ex.response!, rawBody: `${raw.slice(0, MAX_EVIDENCE_BODY)}… (${raw.length} chars)` } };
}

export class Scope {
  readonly findings: Finding[] = [];
  readonly exchanges: Exchange[] = [];
  readonly notes: string[] = [];
  private readonly seen = new Set<string>();

  constructor(readonly harness: Harness, readonly testName: string) {}

  private get checkCtx(): Omit<CheckContext, 'operation'> {
    return { profile: this.harness.profile, strict: this.harness.ctx.strict };
  }

  /** Adds findings, once each (a defect seen on every poll is one finding). */
  addFindings(list: Finding[]): void {
    for (const f of list) {
      const key = `${f.check}\u0000${f.message}`;
      if (this.seen.has(key)) continue;
      this.seen.add(key);
      this.findings.push({ ...f, test: this.testName });
    }
  }

  /** Called by the harness for every exchange recorded while this test runs. */
  recordExchange(ex: Exchange): void {
    this.exchanges.push(ex);
    for (const r of runAutoChecks(ex, this.checkCtx)) {
      this.addFindings(r.findings.map((f) => ({ ...f, evidence: { ...(f.evidence as object), exchange: trimmed(ex) } })));
    }
  }

  /** Runs the registered check `id` on `input`; true when it passed or was skipped. */
  check<I>(id: string, input: I, extraEvidence?: Record<string, unknown>): boolean {
    const r = runCheck(getCheck<I>(id), input, { ...this.checkCtx });
    const exchange = (input as Exchange | undefined)?.seq !== undefined ? trimmed(input as Exchange) : undefined;
    this.addFindings(r.findings.map((f) => ({ ...f, evidence: { ...(f.evidence as object), ...(exchange ? { exchange } : {}), ...extraEvidence } })));
    return r.outcome !== 'fail';
  }

  /** Whether any finding so far is a failure. */
  hasFailures(): boolean {
    return this.findings.some((f) => f.severity === 'failure');
  }

  /** Calls an operation of the contract by id. State-changing amounts are capped off sandboxes. */
  async call(pairing: Pairing, operationId: string, opts: CallOptions = {}): Promise<PayConnectResponse> {
    const op = operations.find((o) => o.operationId === operationId);
    if (!op) throw new ToolkitError('PCC_INTERNAL', `no operation ${operationId} in the contract`);
    const amount = (opts.body as { amount?: unknown } | undefined)?.amount;
    if (op.stateChanging && !this.harness.ctx.sandbox && typeof amount === 'number' && amount > this.harness.ctx.maxAmount) {
      throw new ToolkitError('PCC_AMOUNT_LIMIT', `refusing to send amount ${amount} to ${operationId} on a target that is not a sandbox (limit ${this.harness.ctx.maxAmount})`, 'raise --max-amount deliberately, or use a sandbox target');
    }
    const path = op.path.replace(/\{(\w+)\}/g, (_, k: string) => {
      const v = opts.params?.[k];
      if (v === undefined) throw new ToolkitError('PCC_INTERNAL', `missing path parameter ${k} for ${operationId}`);
      return encodeURIComponent(v);
    });
    return pairing.client.request({ method: op.method, path, body: opts.body, rawBody: opts.rawBody, headers: opts.headers, auth: opts.auth ?? (op.bearer ? 'auto' : 'none'), integrator: opts.integrator ?? 'auto' });
  }

  /** Stops the scenario: a prerequisite did not hold. */
  block(message: string): never {
    throw new ScenarioBlocked(message);
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

  /** Watches a transaction or operation until final or the deadline, and runs the convergence checks. */
  async converge(pairing: Pairing, kind: 'transaction' | 'operation', id: string, opts: { deadlineMs?: number } = {}): Promise<ConvergenceObservation & { last?: Record<string, unknown> }> {
    const profile = this.harness.profile;
    let last: Record<string, unknown> | undefined;
    const started = Date.now();
    const rx = pairing.receiver;
    const obs = await observe({
      kind,
      id,
      poll: async () => {
        const res = await this.call(pairing, kind === 'transaction' ? 'getTransactionStatus' : 'getOperation', { params: kind === 'transaction' ? { transaction_id: id } : { operation_id: id } });
        const body = res.body as Record<string, unknown> | undefined;
        const status = res.status === 200 && typeof body?.status === 'string' ? body.status : undefined;
        if (status) last = body;
        const ra = Number(res.headers['retry-after']);
        return { status, retryAfterMs: Number.isFinite(ra) && ra > 0 ? Math.min(ra * 1000, 10_000) : undefined };
      },
      webhooks: rx
        ? () => rx.eventsFor(id).filter((d) => d.signature === 'valid' && typeof (d.body as { data?: { status?: unknown } })?.data?.status === 'string' && String(d.event ?? '').startsWith(`${kind}.`))
            .map((d) => ({ status: String((d.body as { data: { status: string } }).data.status), channel: 'webhook' as const, atMs: d.receivedAt - started }))
        : undefined,
      subscribe: rx ? (wake) => rx.onDelivery(() => wake()) : undefined,
      webhooksObservable: pairing.webhooksObservable,
      final: kind === 'transaction' ? profile.transactionFinal : profile.operationFinal,
      deadlineMs: opts.deadlineMs ?? this.harness.ctx.deadlineMs,
      settleMs: this.harness.ctx.settleMs,
    });
    for (const id of ['transition.legal', 'convergence.deadline', 'webhook.agrees-with-polling', 'webhook.delivered']) this.check(id, obs);
    this.harness.judgeDeliveries(this, pairing);
    this.harness.recordConvergence(obs);
    return { ...obs, last };
  }

  /** The operation id of a request, for records that need it. */
  static operationIdOf(method: string, path: string): string | undefined {
    return operationFor(method, path)?.operationId;
  }
}
