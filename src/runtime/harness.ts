/**
 * The harness of one worker: the run context, the redactor every record goes through, the pairings
 * (from the vault first, then by OTP), and the scope of the test that is running.
 */
import { Redactor } from '../client/index.ts';
import { operationFor } from '../checks/index.ts';
import { type Exchange, ToolkitError } from '../core/index.ts';
import { type Profile, resolveProfile } from '../profile/index.ts';
import { findPairings, loadVault, removeVaultEntry } from '../vault/index.ts';
import type { RunContext } from './context.ts';
import { OtpSource } from './otp-source.ts';
import { type PairAttempt, Pairing, type PairingEnv, pairWithOtp, pairingFromVault } from './pairing.ts';
import { Scope } from './scope.ts';

/** A convergence duration, for the report. */
export interface ConvergenceTiming {
  kind: string;
  elapsedMs: number;
  timedOut: boolean;
}

export class Harness {
  readonly redactor = new Redactor();
  readonly profile: Profile;
  readonly otps: OtpSource;
  readonly timings: ConvergenceTiming[] = [];
  private seq = 0;
  private scope?: Scope;
  private readonly pairings: Pairing[] = [];
  private vaultEntries?: Promise<import('../vault/index.ts').VaultEntry[]>;
  private primaryPromise?: Promise<Pairing>;
  private anotherPromise?: Promise<Pairing | string>;

  constructor(readonly ctx: RunContext) {
    this.profile = resolveProfile(ctx.profile);
    this.otps = new OtpSource(ctx.otps, ctx.mintOtps);
  }

  /** The environment pairings and clients are made in. */
  get env(): PairingEnv {
    return {
      ctx: this.ctx,
      redactor: this.redactor,
      onExchange: (ex: Exchange) => this.scope?.recordExchange(ex),
      resolveOperation: (m, p) => operationFor(m, p)?.operationId,
      nextSeq: () => ++this.seq,
    };
  }

  /** Starts the scope of a test (the previous one ends). */
  begin(testName: string): Scope {
    this.scope = new Scope(this, testName);
    return this.scope;
  }

  /** Ends a test's scope: judges the deliveries that arrived meanwhile. */
  end(scope: Scope): void {
    for (const p of this.pairings) this.judgeDeliveries(scope, p);
    if (this.scope === scope) this.scope = undefined;
  }

  private async vault() {
    this.vaultEntries ??= loadVault(this.ctx.vaultPath).then((v) => findPairings(v.vault, this.ctx.baseUrl, this.ctx.integratorId));
    return this.vaultEntries;
  }

  /** Pairs by OTP (runs the pairing-result checks in `scope`); undefined when no OTP is left. */
  async pairNew(scope: Scope, opts: { webhook?: boolean; name?: string } = {}): Promise<PairAttempt | undefined> {
    const otp = this.otps.next();
    if (otp === undefined) return undefined;
    const name = opts.name ?? `pcc-${this.ctx.seed}-${this.pairings.length + 1}`;
    const attempt = await pairWithOtp(this.env, otp, { name, webhook: opts.webhook ?? true, label: name });
    (attempt as PairAttempt & { otp?: string }).otp = otp;
    if (attempt.pairing) {
      this.pairings.push(attempt.pairing);
      const body = attempt.response.body as Record<string, unknown>;
      scope.check('pairing.name-echoed', { sentName: name, result: body });
      scope.check('pairing.webhook-key', { webhookUrlGiven: attempt.webhookUrl !== null, result: body });
    }
    return attempt;
  }

  /** The run's main pairing: a vault entry for this target, else a new one by OTP. */
  primary(scope: Scope): Promise<Pairing> {
    this.primaryPromise ??= (async () => {
      const entries = await this.vault();
      if (entries[0]) {
        const p = await pairingFromVault(this.env, entries[0], 'vault#1');
        this.pairings.push(p);
        return p;
      }
      const attempt = await this.pairNew(scope);
      if (!attempt) throw new ToolkitError('PCC_NO_PAIRING', `no pairing for ${this.ctx.baseUrl} (integrator ${this.ctx.integratorId}) in ${this.ctx.vaultPath}, and no OTP`, 'pair once with `payconnect-conformance pair --otp <six digits>`, or pass --otp');
      if (!attempt.pairing) throw new ToolkitError('PCC_PAIRING_FAILED', `pairing answered ${attempt.response.status}: ${attempt.response.rawBody.slice(0, 200)}`, 'check the OTP (one-time, six digits) and the integrator id');
      return attempt.pairing;
    })();
    this.primaryPromise.catch(() => undefined);
    return this.primaryPromise;
  }

  /** A pairing other than the primary one (the vault's next entry, else a new one); a skip reason when none can be had. */
  another(scope: Scope): Promise<Pairing | string> {
    this.anotherPromise ??= (async () => {
      const primary = await this.primary(scope);
      const unused = (await this.vault()).find((e) => e.credentials.client_id !== primary.credentials.client_id);
      if (unused) {
        const p = await pairingFromVault(this.env, unused, 'vault#2');
        this.pairings.push(p);
        return p;
      }
      const attempt = await this.pairNew(scope, { name: `another-${this.ctx.seed}` });
      if (!attempt) return 'a second pairing needs another OTP (pass --otp, or pair twice into the vault)';
      return attempt.pairing ?? `the second pairing answered ${attempt.response.status}`;
    })();
    return this.anotherPromise;
  }

  /** A brand-new pairing for a destructive test (unpair); a skip reason when no OTP is left. */
  async fresh(scope: Scope, opts: { webhook?: boolean } = {}): Promise<Pairing | string> {
    const attempt = await this.pairNew(scope, { webhook: opts.webhook ?? false, name: `fresh-${this.ctx.seed}-${this.pairings.length + 1}` });
    if (!attempt) return 'this test needs a fresh pairing and no OTP is left (pass another --otp)';
    return attempt.pairing ?? `the pairing answered ${attempt.response.status}`;
  }

  /** Forgets a pairing that was unpaired (and removes it from the vault). */
  async forget(p: Pairing): Promise<void> {
    const i = this.pairings.indexOf(p);
    if (i >= 0) this.pairings.splice(i, 1);
    await removeVaultEntry(this.ctx.vaultPath, (e) => e.credentials.client_id === p.credentials.client_id).catch(() => undefined);
    await p.close();
  }

  /** Runs the webhook checks on deliveries of `pairing` not judged yet. */
  judgeDeliveries(scope: Scope, pairing: Pairing): void {
    const rx = pairing.receiver;
    if (!rx) return;
    const all = rx.deliveries();
    for (const d of all.slice(pairing.judged)) {
      if (d.failedOnPurpose) continue;
      scope.check('webhook.signature', { event: d.event, eventId: d.eventId, signature: d.signature });
      if (d.body !== undefined && d.signature === 'valid') {
        scope.check('webhook.schema', d.body);
        for (const id of ['invariant.total-amount', 'invariant.currency']) scope.check(id, { body: d.body });
      }
    }
    pairing.judged = all.length;
  }

  /** Keeps a convergence's duration for the report. */
  recordConvergence(o: { kind: string; elapsedMs: number; timedOut: boolean }): void {
    this.timings.push({ kind: o.kind, elapsedMs: o.elapsedMs, timedOut: o.timedOut });
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.pairings.map((p) => p.close()));
    this.pairings.length = 0;
  }
}
