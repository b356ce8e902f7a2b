/** Endpoints of transaction operations: preauth increment and complete, revert, operation details. */
import type { OperationReference } from '../generated/schema-types.ts';
import { broken } from './broken.ts';
import { findTxn, unknownId } from './api-transactions.ts';
import type { SimContext } from './sim-state.ts';
import { badRequest } from './errors.ts';
import type { Op, OpType } from './model.ts';
import { admitStatusRead } from './poll-limit.ts';
import { operationRecord, otherId } from './records.ts';
import type { ApiRequest, Reply, Route } from './router.ts';
import { amountField, parseJsonObject } from './validate.ts';

function reference(ctx: SimContext, op: Op): Reply {
  const ref: OperationReference = { operation_id: op.id, transaction_id: op.txnId };
  return {
    status: 200,
    body: broken(ref, (r) => {
      if (ctx.faults.has('operation.missing-operation-id')) delete r.operation_id;
      if (op.type !== 'transaction.revert' && ctx.faults.has('operation.wrong-transaction-id')) r.transaction_id = otherId(op.txnId);
    }),
  };
}

/** increment / complete: only on a successful preauthorization (sandbox#preauthorization). */
function preauthOp(ctx: SimContext, req: ApiRequest, type: OpType): Reply {
  const { t, terminal } = findTxn(ctx, req.pairing, req.params.id as string);
  const amount = amountField(parseJsonObject(req.raw));
  if ((t.kind !== 'preauth' || t.status !== 'SUCCESS') && !ctx.faults.has('preauth.ops-on-any-transaction')) {
    throw badRequest('the transaction is not a successful preauthorization');
  }
  return reference(ctx, terminal.startOperation(type, t, amount));
}

/** revert: only the terminal's most recent SUCCESS transaction (sandbox#revert-and-refund). */
function revert(ctx: SimContext, req: ApiRequest): Reply {
  const { t, terminal } = findTxn(ctx, req.pairing, req.params.id as string);
  if (!terminal.isLastSuccess(t) && !ctx.faults.has('revert.older-accepted'))
    throw badRequest("only the terminal's most recent SUCCESS transaction can be reverted");
  return reference(ctx, terminal.startOperation('transaction.revert', t, null));
}

/** The routes of this file. */
export function operationRoutes(ctx: SimContext): Route[] {
  const base = '/v1/pay-connect/transaction-operations';
  return [
    {
      method: 'POST',
      path: `${base}/:id/preauth-increment/`,
      auth: 'bearer',
      handle: (r) => preauthOp(ctx, r, 'transaction.preauth.increment'),
    },
    {
      method: 'POST',
      path: `${base}/:id/preauth-complete/`,
      auth: 'bearer',
      handle: (r) => preauthOp(ctx, r, 'transaction.preauth.complete'),
    },
    { method: 'POST', path: `${base}/:id/revert/`, auth: 'bearer', handle: (r) => revert(ctx, r) },
    {
      method: 'GET',
      path: `${base}/:id/`,
      auth: 'bearer',
      handle: (r) => {
        admitStatusRead(ctx, r.pairing);
        const op = r.pairing.terminal.operation(r.params.id as string);
        if (!op) throw unknownId(ctx, 'operation');
        return { status: 200, body: operationRecord(op, ctx.faults) };
      },
    },
  ];
}
