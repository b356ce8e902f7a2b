/** Endpoints that start, cancel and read transactions. */
import type { CancelAccepted, TransactionCreated } from '../generated/schema-types.ts';
import { broken } from './broken.ts';
import type { SimContext } from './sim-state.ts';
import { badRequest, conflict, HttpError, notFound } from './errors.ts';
import { isFinal, type PaymentMethodId, type Txn, type TxnKind } from './model.ts';
import { isPaymentMethod, printSlip, statusRecordJson } from './records.ts';
import { admitStatusRead } from './poll-limit.ts';
import type { ApiRequest, Reply, Route } from './router.ts';
import type { Pairing } from './store.ts';
import type { VirtualTerminal } from './virtual-terminal.ts';
import { amountField, optString, parseJsonObject, type Body } from './validate.ts';

/** A transaction and the terminal that holds it. */
export interface Found {
  readonly t: Txn;
  readonly terminal: VirtualTerminal;
}

/** An unknown (or other pairing's) id: 404, or 500 under `status.unknown-id-500`. */
export function unknownId(ctx: SimContext, what: string): HttpError {
  return ctx.faults.has('status.unknown-id-500')
    ? new HttpError(500, `internal error looking up the ${what}`)
    : notFound(`no such ${what}`);
}

/**
 * The pairing's own transaction `id`. `leaky` reads may, under `isolation.leak`, return another
 * pairing's transaction; every other read is isolated.
 */
export function findTxn(ctx: SimContext, p: Pairing, id: string, leaky = false): Found {
  const own = p.terminal.transaction(id);
  if (own) return { t: own, terminal: p.terminal };
  if (leaky && ctx.faults.has('isolation.leak')) {
    for (const other of ctx.registry.all()) {
      const t = other.terminal.transaction(id);
      if (t) return { t, terminal: other.terminal };
    }
  }
  throw unknownId(ctx, 'transaction');
}

function ensureIdle(ctx: SimContext, terminal: VirtualTerminal): void {
  if (terminal.busy && !ctx.faults.has('busy.no-409')) {
    throw conflict('the terminal is busy with another transaction');
  }
}

/** `client_transaction_id` as kept (dropped under `transaction.client-id-dropped`). */
function clientTxnIdOf(ctx: SimContext, body: Body): string | null {
  const id = optString(body, 'client_transaction_id');
  return ctx.faults.has('transaction.client-id-dropped') ? null : id;
}

/**
 * generate's `payment_method`: one of the configuration's ids, or null (the customer picks). The
 * payment method faults each bend one step: let an unknown id through (as null), refuse a listed
 * one, or drop the one sent.
 */
function paymentMethodOf(ctx: SimContext, body: Body): PaymentMethodId | null {
  const { faults } = ctx;
  const method = optString(body, 'payment_method');
  if (method === null) return null;
  if (!isPaymentMethod(method, ctx.liberal !== null)) {
    if (faults.has('generate.unknown-method-accepted')) return null;
    throw badRequest("payment_method is not one of the configuration's methods");
  }
  if (method === 'PAYCONIQ' && faults.has('generate.listed-method-refused')) throw badRequest('payment_method PAYCONIQ is not available');
  return faults.has('generate.payment-method-ignored') ? null : method;
}

/** generate, preauth and independent refund: validate, check the terminal is free, start. */
function start(ctx: SimContext, req: ApiRequest, kind: TxnKind): Reply {
  const body = parseJsonObject(req.raw);
  const zeroOk = kind === 'payment' && ctx.faults.has('generate.accepts-zero-amount');
  const amount = amountField(body, 'amount', zeroOk);
  const clientTxnId = clientTxnIdOf(ctx, body);
  const method = kind === 'payment' ? paymentMethodOf(ctx, body) : null;
  ensureIdle(ctx, req.pairing.terminal);
  // transaction.client-id-idempotent: the liberal sandbox answers a repeated request with the transaction it already made.
  const replay = ctx.liberal && clientTxnId !== null ? req.pairing.terminal.sameRequest(kind, amount, clientTxnId, method) : null;
  if (replay) return { status: 200, body: { transaction_id: replay.id } satisfies TransactionCreated };
  const t = req.pairing.terminal.start(kind === 'refund' ? refundKind(ctx) : kind, amount, clientTxnId, method);
  const created: TransactionCreated = { transaction_id: t.id };
  const hide = kind === 'payment' && ctx.faults.has('generate.missing-transaction-id');
  return {
    status: 200,
    body: broken(created, (c) => {
      if (hide) delete c.transaction_id;
    }),
  };
}

/** A refund is recorded as a charge (tagged `charge`) under `refund.tagged-charge`. */
function refundKind(ctx: SimContext): TxnKind {
  return ctx.faults.has('refund.tagged-charge') ? 'payment' : 'refund';
}

/** POST /v1/pay-connect/transactions/{id}/refund/ */
function linkedRefund(ctx: SimContext, req: ApiRequest): Reply {
  const { t, terminal } = findTxn(ctx, req.pairing, req.params.id as string);
  const body = parseJsonObject(req.raw);
  const amount = amountField(body);
  const clientTxnId = clientTxnIdOf(ctx, body);
  const { faults } = ctx;
  if (t.status !== 'SUCCESS' && !faults.has('refund.non-success-accepted')) throw badRequest('only a SUCCESS transaction can be refunded');
  const left = t.amount + t.tip - t.refundTotal;
  if (amount > left && !faults.has('refund.above-remainder-accepted'))
    throw badRequest(`amount exceeds the unrefunded remainder (${left})`);
  ensureIdle(ctx, terminal);
  const refund = terminal.start(refundKind(ctx), amount, clientTxnId, t.method, t.id);
  const created: TransactionCreated = { transaction_id: refund.id };
  return { status: 200, body: created };
}

/** POST /v1/pay-connect/transactions/{id}/cancel/ */
function cancel(ctx: SimContext, req: ApiRequest): Reply {
  const { t, terminal } = findTxn(ctx, req.pairing, req.params.id as string);
  if (terminal.cancel(t) === 'final' && !ctx.faults.has('cancel.final-accepted')) {
    if (ctx.faults.has('cancel.final-stamps-canceled-at')) t.canceledAt = ctx.now();
    throw badRequest(`the transaction is already final (${t.status})`);
  }
  const accepted: CancelAccepted = {};
  return { status: 200, body: accepted };
}

/** Final statuses without a completed payment (`slip.unsuccessful-final-400` refuses their slip). */
const UNSUCCESSFUL = new Set<string>(['DECLINED', 'FAILED', 'EXPIRED', 'CANCELED']);

/** GET /v1/pay-connect/transactions/{id}/print-slip/ */
function slip(ctx: SimContext, req: ApiRequest): Reply {
  const { t, terminal } = findTxn(ctx, req.pairing, req.params.id as string, true);
  if (!isFinal(t.status) && !ctx.faults.has('slip.nonfinal-200')) {
    throw badRequest(`the transaction is not final yet (${t.status})`);
  }
  if (UNSUCCESSFUL.has(t.status) && ctx.faults.has('slip.unsuccessful-final-400')) {
    throw badRequest(`no print slip for a ${t.status} transaction`);
  }
  return { status: 200, body: printSlip(t, terminal, ctx.faults) };
}

/** The routes of this file. */
export function transactionRoutes(ctx: SimContext): Route[] {
  const base = '/v1/pay-connect/transactions';
  return [
    {
      method: 'POST',
      path: `${base}/generate/`,
      auth: 'bearer',
      handle: (r) => {
        if (ctx.faults.has('generate.server-error')) throw new HttpError(500, 'the terminal service is unavailable');
        return start(ctx, r, 'payment');
      },
    },
    { method: 'POST', path: `${base}/preauth/`, auth: 'bearer', handle: (r) => start(ctx, r, 'preauth') },
    { method: 'POST', path: `${base}/refund/`, auth: 'bearer', handle: (r) => start(ctx, r, 'refund') },
    { method: 'POST', path: `${base}/:id/refund/`, auth: 'bearer', handle: (r) => linkedRefund(ctx, r) },
    { method: 'POST', path: `${base}/:id/cancel/`, auth: 'bearer', handle: (r) => cancel(ctx, r) },
    { method: 'GET', path: `${base}/:id/print-slip/`, auth: 'bearer', handle: (r) => slip(ctx, r) },
    {
      method: 'GET',
      path: `${base}/:id/status/`,
      auth: 'bearer',
      handle: (r) => {
        admitStatusRead(ctx, r.pairing);
        const { t, terminal } = findTxn(ctx, r.pairing, r.params.id as string, true);
        return { status: 200, json: statusRecordJson(t, terminal) };
      },
    },
  ];
}
