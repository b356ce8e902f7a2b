/**
 * The harness of one terminal of a worker: the run context, the pairings (from the vault first, then
 * by OTP) and the scope of the test running on it; through the worker's services, which its other
 * terminals share, the redactor every record goes through and the ledger of the service's defects.
 * The shared pairings (the primary one and another) are kept usable: a terminal a test left busy is
 * freed by cancel and convergence, or the pairing is retired and replaced where OTPs allow; a
 * clean-up never unpairs a shared pairing.
 */
import { Redactor } from '../client/index.ts';
import { operationFor } from '../checks/index.ts';
import { type Exchange, type RootCause, ToolkitError, rootOf } from '../core/index.ts';
import { type Profile, resolveProfile } from '../profile/index.ts';
import { findPairings, loadPrivateVault, removeVaultEntry } from '../vault/index.ts';
import { type WebhookHub, type WebhookReceiver, readDeliveryTls, startWebhookHub } from '../webhooks/index.ts';
import type { RunContext } from './run-context.ts';
import { OtpSource, type WorkerShare } from './otp-source.ts';
import { type PairAttempt, Pairing, type PairingEnv, pairWithOtp, pairingFromVault, pairingOnClientOf } from './pairing.ts';
import { DefectLedger } from './defects.ts';
import { linkLedger } from './shared-ledger.ts';
import { type HarnessLoad, StallWatch } from './stall-watch.ts';
import { type ConvergenceTiming, RuntimeEvents } from './events.ts';
import { ScenarioBlocked, Scope, type ScopeHost } from './scope.ts';
import { ServiceSteps } from './service-steps.ts';
import { TranscriptRecorder } from '../transcript/recorder.ts';

type Shared = 'primary' | 'another';

/**
 * What every harness of one worker process shares, however many terminals (lanes) it drives at once:
 * one redactor (a secret any lane learnt is scrubbed from all of them), one defect ledger (linked once
 * to the run's hub), one transcript file with scope numbers unique in the worker, one watch of the
 * event loop they all run on.
 */
export class WorkerServices {
  readonly redactor = new Redactor();
  readonly defects = new DefectLedger();
  readonly stalls = new StallWatch();
  /** The service's step as the worker's convergences saw it (service-steps.ts). */
  readonly steps = new ServiceSteps();
  readonly transcript?: TranscriptRecorder;
  readonly #unlink?: () => void;
  #hub?: Promise<WebhookHub>;

  /** `worker`: vitest's number of the worker (from 1), which names its transcript file. */
  constructor(
    private readonly ctx: RunContext,
    worker = 1,
  ) {
    if (ctx.ledgerPort !== undefined) this.#unlink = linkLedger(this.defects, ctx.ledgerPort);
    if (ctx.transcriptDir) this.transcript = new TranscriptRecorder(ctx.transcriptDir, worker, (v) => this.redactor.redactValue(v));
  }

  /** The worker's webhook receiver, started with the first pairing that gives a webhook_url; a slot per pairing. */
  hub(): Promise<WebhookHub> {
    const { host, port } = this.ctx.webhookListen;
    this.#hub ??= startWebhookHub({
      host,
      port,
      publicUrl: this.ctx.webhookPublicUrl,
      ...(this.ctx.webhookTls ? { tls: readDeliveryTls(this.ctx.webhookTls) } : {}),
    });
    return this.#hub;
  }

  async close(): Promise<void> {
    await this.transcript?.flush().catch(() => undefined);
    this.#unlink?.();
    this.stalls.stop();
    if (this.#hub)
      await this.#hub.then(
        (h) => h.close(),
        () => undefined,
      );
  }
}

export class Harness implements ScopeHost {
  readonly redactor: Redactor;
  readonly events = new RuntimeEvents();
  readonly profile: Profile;
  readonly otps: OtpSource;
  readonly timings: ConvergenceTiming[] = [];
  readonly defects: DefectLedger;
  private seq = 0;
  private scope?: Scope;
  private readonly pairings: Pairing[] = [];
  private vaultEntries?: Promise<import('../vault/index.ts').VaultEntry[]>;
  private primaryPromise?: Promise<Pairing>;
  private anotherPromise?: Promise<Pairing | string>;
  /** The shared pairings in use, and why the ones retired were. */
  private readonly shared = new Map<Shared, Pairing>();
  private readonly retired = new Map<Shared, { root: RootCause; count: number }>();
  private slots = 0;
  /** Client ids of the pairings this run made by OTP. */
  private readonly madeHere = new Set<string>();
  /** The worker's services: shared with the worker's other lanes, or this harness's own. */
  private readonly services: WorkerServices;
  /** Whether {@link services} are this harness's own (closed with it). */
  private readonly ownServices: boolean;
  /** The run's transcript in this worker (RunContext.transcriptDir), else none. */
  readonly transcript?: TranscriptRecorder;

  /**
   * @param share which of the run's terminals this harness drives: it pairs its own terminal and takes
   *   only its share of the OTPs and of the vault's pairings, so no two harnesses drive one terminal.
   * @param worker vitest's number of the worker (from 1), which names its transcript file.
   * @param services what the worker's harnesses share (one per terminal of the worker); absent: its own.
   */
  constructor(
    readonly ctx: RunContext,
    readonly share: WorkerShare = { index: 0, count: 1 },
    worker = 1,
    services?: WorkerServices,
  ) {
    this.profile = resolveProfile(ctx.profile);
    this.otps = new OtpSource(ctx.otps, ctx.mintOtps, share);
    this.ownServices = services === undefined;
    this.services = services ?? new WorkerServices(ctx, worker);
    this.redactor = this.services.redactor;
    this.defects = this.services.defects;
    const transcript = this.services.transcript;
    if (transcript) {
      this.events.on('delivery', (e) => transcript.delivery(e.test, e.pairing, e.delivery));
      this.transcript = transcript;
    }
  }

  /** A prefix that keeps this worker's pairing names and webhook slots apart from the others'. */
  private get tag(): string {
    return this.share.count > 1 ? `w${this.share.index + 1}-` : '';
  }

  /** The environment pairings and clients are made in. */
  get env(): PairingEnv {
    return {
      ctx: this.ctx,
      redactor: this.redactor,
      onExchange: (ex: Exchange) => this.scope?.recordExchange(ex),
      resolveOperation: (m, p) => operationFor(m, p)?.operationId,
      nextSeq: () => ++this.seq,
      openReceiver: (name, storedUrl) => this.openReceiver(name, storedUrl),
    };
  }

  /** A receiver in the run's hub: the slot a stored URL names, else a new slot for `name`. */
  private async openReceiver(name: string, storedUrl?: string): Promise<WebhookReceiver> {
    const hub = await this.services.hub();
    const stored = storedUrl === undefined ? undefined : hub.slotOf(storedUrl);
    return hub.open(
      stored !== undefined && !hub.isOpen(stored) ? stored : `${this.tag}${++this.slots}-${name.replace(/[^A-Za-z0-9._-]/g, '-')}`,
    );
  }

  /** Starts the scope of a test (the previous one ends). */
  begin(testName: string): Scope {
    this.scope = new Scope(this, testName);
    this.transcript?.add({ kind: 'scope', test: testName, scope: this.scope.serial });
    return this.scope;
  }

  /** The service's step as the worker's convergences saw it (shared by its lanes). */
  get steps(): ServiceSteps {
    return this.services.steps;
  }

  /** How many ms of `[from, to]` (epoch ms) this worker's event loop stood still. */
  lostDuring(from: number, to?: number): number {
    return this.services.stalls.lostDuring(from, to);
  }

  /** This worker's load so far: its longest event-loop delay, CPU time, stalls. */
  load(): HarnessLoad {
    return this.services.stalls.load();
  }

  /** `ms`, cut to what is left of the run's time budget. */
  budgeted(ms: number): number {
    const at = this.ctx.runDeadlineAt;
    return at === undefined ? ms : Math.max(0, Math.min(ms, at - Date.now()));
  }

  /**
   * Ends a test's scope: judges the deliveries that arrived meanwhile, frees the shared terminals the
   * test left busy, and closes the scope (nothing more is sent for the test).
   */
  async end(scope: Scope): Promise<void> {
    // A convergence behind the test is judged first; an error it hit is thrown once the test is ended.
    const behind = await scope.settled().then(
      () => undefined,
      (error: unknown) => ({ error }),
    );
    for (const p of this.pairings) this.judgeDeliveries(scope, p);
    for (const [role, p] of this.shared) if (p.open.size > 0) await this.free(scope, role, p);
    scope.close('the test ended');
    if (this.scope === scope) this.scope = undefined;
    await this.transcript?.flush();
    if (behind) throw behind.error;
  }

  /**
   * Frees a shared pairing's terminal: each transaction left open is canceled and converged. When that
   * does not end them (or waits for a final status are known to be futile), the pairing is retired:
   * the next test that needs it gets a replacement, or is blocked by the root cause.
   */
  private async free(scope: Scope, role: Shared, p: Pairing): Promise<void> {
    // The test's own scope may be closed already (it ran out of time): clean up in a fresh one and
    // keep what it saw with the test.
    const cleanup = scope.closed ? new Scope(this, scope.testName) : scope;
    if (cleanup !== scope) {
      this.scope = cleanup;
      this.transcript?.add({ kind: 'scope', test: scope.testName, scope: cleanup.serial, parent: scope.serial });
    }
    let root: RootCause | undefined = this.defects.blocker('transaction-final');
    try {
      for (const id of [...p.open]) {
        if (root) break;
        await cleanup.call(p, 'cancelTransaction', { params: { transaction_id: id } });
        const obs = await cleanup.converge(p, 'transaction', id);
        if (!obs.finalByPoll) root = cleanup.rootOfCheck('convergence.deadline');
      }
    } catch (e) {
      if (!(e instanceof ScenarioBlocked)) throw e;
      root ??= e.blockedBy;
    } finally {
      if (cleanup !== scope) {
        scope.findings.push(...cleanup.findings);
        scope.repeats.push(...cleanup.repeats);
        scope.exchanges.push(...cleanup.exchanges);
        scope.webhookFinals += cleanup.webhookFinals;
        cleanup.close('clean-up ended');
        this.scope = scope;
      }
    }
    if (p.open.size === 0) return;
    const busy = `the terminal of ${p.label} stays busy with ${[...p.open].join(', ')}`;
    scope.notes.push(`${busy}: the pairing is retired`);
    // Without a finding to name (the clean-up itself was stopped), the busy terminal is the defect.
    this.retire(
      role,
      p,
      root ??
        rootOf({ check: 'convergence.deadline', severity: 'failure', clause: 'spec#what-the-service-does', message: busy }, scope.testName),
    );
  }

  /** Takes a shared pairing out of use; the next test that needs it gets a replacement or is blocked. */
  private retire(role: Shared, p: Pairing, root: RootCause): void {
    if (this.shared.get(role) !== p) return;
    this.shared.delete(role);
    const r = this.retired.get(role);
    this.retired.set(role, { root: r?.root ?? root, count: (r?.count ?? 0) + 1 });
    if (role === 'primary') this.primaryPromise = undefined;
    else this.anotherPromise = undefined;
  }

  /**
   * The vault's pairings for this target, but for those this run made: those belong to the test that
   * made them (it may unpair them), never to the shared pairings. The vault is read on first need,
   * which may come after a suite paired on purpose and before it removed its entry.
   */
  private async vault() {
    this.vaultEntries ??= loadPrivateVault(this.ctx.vaultPath).then((v) =>
      this.myShare(findPairings(v.vault, this.ctx.baseUrl, this.ctx.integratorId)),
    );
    return (await this.vaultEntries).filter((e) => !this.madeHere.has(e.credentials.client_id));
  }

  /**
   * With several workers, the vault's pairings that were there when the run began (`ctx.vaultPairings`,
   * in order) are dealt out like the OTPs; pairings other workers made since are theirs.
   */
  private myShare(entries: import('../vault/index.ts').VaultEntry[]) {
    const known = this.ctx.vaultPairings;
    if (this.share.count <= 1 || known === undefined) return entries;
    return entries.filter((e) => {
      const i = known.indexOf(e.credentials.client_id);
      return i >= 0 && i % this.share.count === this.share.index;
    });
  }

  /** Pairs by OTP (runs the pairing-result checks in `scope`); undefined when no OTP is left. */
  async pairNew(scope: Scope, opts: { webhook?: boolean; name?: string } = {}): Promise<PairAttempt | undefined> {
    scope.assertOpen();
    const otp = this.otps.next();
    if (otp === undefined) return undefined;
    const name = opts.name ?? `${this.tag}pcc-${this.ctx.seed}-${this.pairings.length + 1}`;
    const attempt = await pairWithOtp(this.env, otp, { name, webhook: opts.webhook ?? true, label: name });
    (attempt as PairAttempt & { otp?: string }).otp = otp;
    if (attempt.pairing) {
      this.madeHere.add(attempt.pairing.credentials.client_id);
      this.pairings.push(attempt.pairing);
      const body = attempt.response.body as Record<string, unknown>;
      scope.check('pairing.name-echoed', { sentName: name, result: body });
      scope.check('pairing.webhook-key', { webhookUrlGiven: attempt.webhookUrl !== null, result: body });
    }
    return attempt;
  }

  /**
   * The run's main pairing: a vault entry for this target, else a new one by OTP. After it was retired
   * (its terminal stayed busy), a replacement by OTP, else the test is blocked by the root cause.
   */
  primary(scope: Scope): Promise<Pairing> {
    this.primaryPromise ??= (async () => {
      const retired = this.retired.get('primary');
      const p = retired ? await this.replacement(scope, 'primary', retired) : await this.firstPrimary(scope);
      this.shared.set('primary', p);
      return p;
    })();
    this.primaryPromise.catch(() => undefined);
    return this.primaryPromise;
  }

  /**
   * The pairing of a vault entry; undefined when its webhooks would go unobserved (another run's
   * receiver, no webhook_url) while the target mints OTPs: then a new pairing checks them instead of
   * leaving them "not checked".
   */
  private async fromVault(entry: import('../vault/index.ts').VaultEntry, label: string): Promise<Pairing | undefined> {
    const p = await pairingFromVault(this.env, entry, label);
    if (p.unobservableWhy && this.ctx.mintOtps && this.otps.available()) {
      await p.close();
      return undefined;
    }
    this.pairings.push(p);
    return p;
  }

  private async firstPrimary(scope: Scope): Promise<Pairing> {
    const [entry] = await this.vault();
    const stored = entry ? await this.fromVault(entry, 'vault#1') : undefined;
    if (stored) return stored;
    const attempt = await this.pairNew(scope);
    if (!attempt)
      throw new ToolkitError(
        'PCC_NO_PAIRING',
        `no pairing for ${this.ctx.baseUrl} (integrator ${this.ctx.integratorId}) in ${this.ctx.vaultPath}, and no OTP`,
        'pair once with `payconnect-conformance pair --otp <six digits>`, or pass --otp',
      );
    if (attempt.pairing) return attempt.pairing;
    return this.refused(scope, attempt);
  }

  /**
   * A pairing request that was refused. With an OTP the user gave, that may be the user's mistake (a
   * toolkit error that says so); with one minted as sandbox.md allows, the service is at fault.
   */
  private refused(scope: Scope, attempt: PairAttempt & { otp?: string }): never {
    if (attempt.otp !== undefined && this.otps.minted(attempt.otp)) {
      scope.check('request.accepted', attempt.response.exchange);
      const root = scope.rootOfCheck('request.accepted');
      if (root) scope.blockBy(root);
    }
    throw new ToolkitError(
      'PCC_PAIRING_FAILED',
      `pairing answered ${attempt.response.status}: ${attempt.response.rawBody.slice(0, 200)}`,
      'check the OTP (one-time, six digits) and the integrator id',
    );
  }

  /** A new pairing in place of a retired shared one, or the test is blocked by why it was retired. */
  private async replacement(scope: Scope, role: Shared, retired: { root: RootCause; count: number }): Promise<Pairing> {
    const attempt = this.otps.available()
      ? await this.pairNew(scope, { name: `${this.tag}${role}-${this.ctx.seed}-r${retired.count}` })
      : undefined;
    if (!attempt?.pairing) scope.blockBy(retired.root);
    scope.notes.push(`the ${role} pairing was retired (its terminal stayed busy): replaced by ${attempt.pairing.label}`);
    return attempt.pairing;
  }

  /** A pairing other than the primary one (the vault's next entry, else a new one); a skip reason when none can be had. */
  another(scope: Scope): Promise<Pairing | string> {
    this.anotherPromise ??= (async () => {
      const retired = this.retired.get('another');
      if (retired) {
        const p = await this.replacement(scope, 'another', retired);
        this.shared.set('another', p);
        return p;
      }
      const primary = await this.primary(scope);
      const unused = (await this.vault()).find((e) => e.credentials.client_id !== primary.credentials.client_id);
      const p = unused ? await this.fromVault(unused, 'vault#2') : undefined;
      if (p) {
        this.shared.set('another', p);
        return p;
      }
      const attempt = await this.pairNew(scope, { name: `${this.tag}another-${this.ctx.seed}` });
      if (!attempt) return 'a second pairing needs another OTP (pass --otp, or pair twice into the vault)';
      if (attempt.pairing) this.shared.set('another', attempt.pairing);
      return attempt.pairing ?? `the second pairing answered ${attempt.response.status}`;
    })();
    this.anotherPromise.catch(() => undefined);
    return this.anotherPromise;
  }

  /** A brand-new pairing for a destructive test (unpair); a skip reason when no OTP is left. */
  async fresh(scope: Scope, opts: { webhook?: boolean } = {}): Promise<Pairing | string> {
    const attempt = await this.pairNew(scope, {
      webhook: opts.webhook ?? false,
      name: `${this.tag}fresh-${this.ctx.seed}-${this.pairings.length + 1}`,
    });
    if (!attempt) return 'this test needs a fresh pairing and no OTP is left (pass another --otp)';
    return attempt.pairing ?? `the pairing answered ${attempt.response.status}`;
  }

  /**
   * A pairing another lane of the worker made, as this lane's: the same credentials on a client of
   * this harness, so that what its requests exchange is recorded in this lane's test (a pairing's
   * client records into the harness that made it). Its deliveries stay with the lane that made it.
   * Forgotten with {@link forget}, like any.
   */
  adopt(p: Pairing): Pairing {
    const mine = pairingOnClientOf(this.env, p);
    this.pairings.push(mine);
    return mine;
  }

  /** Whether `p` is a pairing other tests use (never unpaired by a test or a clean-up). */
  isShared(p: Pairing): boolean {
    return [...this.shared.values()].includes(p);
  }

  /** The live pairing with these client credentials, if the run holds one (a disposal must not unpair it). */
  pairingWith(clientId: string): Pairing | undefined {
    return this.pairings.find((p) => p.credentials.client_id === clientId);
  }

  /**
   * Forgets a pairing that was unpaired (and removes it from the vault). What the worker recorded so
   * far goes to its transcript file now, not when the test ends: a test that pairs a terminal per
   * sequence (the model-based parts) otherwise held every sequence's exchanges and deliveries until
   * its end, memory that grew with --runs (a thorough run's worker past 350 MB).
   */
  async forget(p: Pairing): Promise<void> {
    const i = this.pairings.indexOf(p);
    if (i >= 0) this.pairings.splice(i, 1);
    await removeVaultEntry(this.ctx.vaultPath, (e) => e.credentials.client_id === p.credentials.client_id).catch(() => undefined);
    await p.close();
    await this.transcript?.flush().catch(() => undefined);
  }

  /** Runs the webhook checks on deliveries of `pairing` not judged yet (each is a `delivery` event of the scope's test). */
  judgeDeliveries(scope: Scope, pairing: Pairing): void {
    const rx = pairing.receiver;
    if (!rx) return;
    const all = rx.deliveries();
    for (const d of all.slice(pairing.judged)) {
      this.events.emit('delivery', { test: scope.testName, pairing: pairing.label, receiverUrl: rx.url, delivery: d });
      if (d.failedOnPurpose) continue;
      scope.check('webhook.signature', { event: d.event, eventId: d.eventId, signature: d.signature });
      if (d.body !== undefined && d.signature === 'valid') {
        scope.check('webhook.schema', d.body);
        for (const id of ['invariant.total-amount', 'invariant.currency'] as const) scope.check(id, { body: d.body });
      }
    }
    pairing.judged = all.length;
  }

  /** Keeps a convergence's duration for the report. */
  recordConvergence(o: ConvergenceTiming): void {
    const timing = { kind: o.kind, elapsedMs: o.elapsedMs, timedOut: o.timedOut };
    this.timings.push(timing);
    this.events.emit('convergence', timing);
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.pairings.map((p) => p.close()));
    this.pairings.length = 0;
    if (this.ownServices) await this.services.close();
  }
}
