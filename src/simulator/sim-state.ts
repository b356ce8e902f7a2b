/**
 * The simulator's shared state and the wiring between a pairing's terminal and the webhook sender.
 */
import { FaultSet } from './faults.ts';
import { Liberal } from './liberal.ts';
import { isFinal, type Txn, type TxnStatus } from './model.ts';
import type { ResolvedSimulatorOptions, WaitingTransaction } from './options.ts';
import { OtpBook } from './otp.ts';
import { operationRecord, statusRecord } from './records.ts';
import { SimRecorder } from './recording.ts';
import { Rng } from './rng.ts';
import { makeMerchant, Registry, secret, type Pairing } from './store.ts';
import { VirtualTerminal, type TerminalHooks } from './virtual-terminal.ts';
import { WebhookSender, type WebhookTarget } from './webhooks.ts';

/** Everything a request handler can reach. */
export interface SimContext {
  readonly options: ResolvedSimulatorOptions;
  readonly faults: FaultSet;
  readonly rng: Rng;
  readonly otps: OtpBook;
  readonly registry: Registry;
  readonly webhooks: WebhookSender;
  readonly now: () => number;
  /** The recording of requests and deliveries (the `record` option), or null. */
  readonly recorder: SimRecorder | null;
  /** The liberal sandbox's liberties (the `liberal` option), or null: the default simulator. */
  readonly liberal: Liberal | null;
}

/** Builds the state of one simulator instance. */
export function createContext(options: ResolvedSimulatorOptions): SimContext {
  const liberal = options.liberal ? new Liberal(options.seed) : null;
  const now = liberal ? () => liberal.now() : () => Date.now();
  const rng = new Rng(options.seed);
  // A stream of its own (the seed, scrambled): a fault rate changes no id or OTP of the run.
  const faultDraws = new Rng(options.seed ^ 0x5f3759df);
  const faults = new FaultSet(options.faults, options.faultRate, () => faultDraws.u32() / 0x1_0000_0000);
  const registry = new Registry(now, liberal ? () => liberal.accessToken() : undefined);
  const recorder = options.record ? new SimRecorder(options.record, () => registry.issuedSecrets()) : null;
  return {
    options,
    faults,
    rng,
    now,
    registry,
    recorder,
    liberal,
    otps: new OtpBook(rng),
    webhooks: new WebhookSender({
      retryScale: options.webhookRetryScale,
      faults,
      rng,
      stepDelayMs: options.stepDelayMs,
      forgeAfterFirstAccepted: options.forgeWebhook,
      liberal,
      ...(recorder ? { onAttempt: (a) => recorder.delivery(a) } : {}),
    }),
  };
}

/** For `webhook.disagrees-with-polling`: a final status other than the real one. */
function otherFinal(t: Txn): TxnStatus {
  return t.status === 'SUCCESS' ? 'DECLINED' : 'SUCCESS';
}

/** Hooks that turn a terminal's status changes into webhooks (nothing when no webhook_url). */
function webhookHooks(ctx: SimContext, target: WebhookTarget | null): TerminalHooks {
  return {
    onTransaction(t, terminal) {
      if (!target || ctx.faults.has('webhook.none')) return;
      // webhook.no-creation-events: the liberal sandbox does not post the creation.
      if (ctx.liberal && t.status === 'INITIATED') return;
      const data = statusRecord(t, terminal);
      let status: string = t.status;
      if (isFinal(t.status) && ctx.faults.has('webhook.disagrees-with-polling')) data.status = status = otherFinal(t);
      if (isFinal(t.status) && t.tip > 0 && ctx.faults.has('webhook.data-tip-mismatch'))
        Object.assign(data, { tip_amount: 0, total_amount: t.amount });
      ctx.webhooks.send(target, `transaction.${status.toLowerCase()}`, ctx.liberal ? ctx.liberal.transactionRecord({ ...data }) : data);
    },
    onOperation(o) {
      if (!target || ctx.faults.has('webhook.none')) return;
      if (ctx.liberal && o.status === 'INITIATED') return;
      const record = operationRecord(o, ctx.faults);
      ctx.webhooks.send(
        target,
        `operation.${String(record.status).toLowerCase()}`,
        ctx.liberal ? ctx.liberal.operationRecord(record) : record,
      );
    },
  };
}

/** What a manual terminal shows of a transaction that waits for an operator action. */
export function waitingView(ctx: SimContext, terminal: VirtualTerminal, t: Txn): WaitingTransaction {
  return {
    transaction_id: t.id,
    kind: t.kind,
    amount: t.amount,
    status: t.status === 'INITIATED' ? 'INITIATED' : 'IN_PROGRESS',
    tip: terminal.pendingTip(t),
    since_ms: Math.max(0, ctx.now() - t.createdAt),
  };
}

/** Creates and registers a pairing with a fresh virtual terminal. */
export function createPairing(ctx: SimContext, name: string, integratorId: string, webhookUrl: string | null): Pairing {
  const { rng, options } = ctx;
  const { liberal } = ctx;
  const id = liberal ? liberal.id('pairing') : rng.uuid();
  const webhookSecret = webhookUrl === null ? null : liberal ? liberal.webhookSecret() : secret();
  const target = webhookUrl === null || webhookSecret === null ? null : { key: id, url: webhookUrl, secret: webhookSecret };
  const onWaiting = options.onTerminalWaiting;
  const hooks: TerminalHooks = {
    ...webhookHooks(ctx, target),
    // Manual mode: tell the operator (the `sim` command prints a line) what waits for an action.
    ...(onWaiting ? { onWaiting: (t, term) => onWaiting({ terminal_id: term.id, waiting: waitingView(ctx, term, t) }) } : {}),
  };
  const terminal = new VirtualTerminal({ settings: options, faults: ctx.faults, rng, now: ctx.now, hooks, liberal }, makeMerchant(rng));
  const pairing: Pairing = {
    id,
    name,
    integratorId,
    clientId: liberal ? liberal.id('client') : rng.uuid(),
    clientSecret: liberal ? liberal.clientSecret() : secret(),
    webhookUrl,
    webhookSecret,
    terminal,
    tokens: [],
    revoked: false,
  };
  ctx.registry.add(pairing);
  return pairing;
}
