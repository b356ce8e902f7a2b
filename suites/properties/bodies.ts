/**
 * What the property suites need around the contract's request schemas: which operations take a body,
 * how a schema-valid body is made acceptable to the service without changing its shape (the
 * configuration's payment methods, the pairing's credentials, amounts the terminal mode and target
 * allow), which invalid variants may be sent, and how a started transaction is let go again.
 */
import type fc from 'fast-check';
import type { InvalidVariant, SchemaNode } from '../../src/arbitraries/index.ts';
import { deref, refusableInvalidArbitrary, schemaByName } from '../../src/arbitraries/index.ts';
import { operations } from '../../src/generated/contract.ts';
import type { ContractOperation, Pairing, PayConnectResponse } from '../../src/index.ts';
import { config } from '../_setup/steps/flows.ts';
import type { ScenarioContext } from '../../src/suite.ts';

/** Operations of the contract that take a request body. */
export function bodyOperations(): ContractOperation[] {
  return operations.filter((o) => typeof o.requestSchema === 'string' && o.requestSchema !== '');
}

/** The path parameters of an operation (`{transaction_id}` ...). */
export function pathParams(op: ContractOperation): string[] {
  return [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
}

/** What a 2xx answer of the operation started: from the contract's 200 schema. */
export function startsWhat(op: ContractOperation): 'transaction' | 'operation' | 'nothing' {
  const schema = op.responses['200']?.schema;
  if (schema === 'OperationReference') return 'operation';
  if (schema === 'TransactionCreated') return 'transaction';
  return 'nothing';
}

/** The top-level field an invalid variant broke ('' for the root), from its label. */
export function brokenKey(reason: string): string {
  const m = /(?: at |missing required )(.+)$/.exec(reason);
  const where = m?.[1] ?? '';
  return where === 'the root' ? '' : where.split(/[.[]/)[0]!;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What fixing a body needs. */
export interface BodyEnv {
  /** The pairing's client credentials (token bodies). */
  credentials: { client_id: string; client_secret: string };
  /** The configuration's payment method ids. */
  methods: string[];
  /** The largest amount that may be sent (sandbox range, or --max-amount off a sandbox). */
  cap: number;
  /** Auto mode on a sandbox: amounts end in 55, so a started transaction stays INITIATED until canceled. */
  hold: boolean;
  sandbox: boolean;
  maxAmount: number;
}

/** The body environment of a scenario. */
export async function bodyEnv(t: ScenarioContext, p: Pairing): Promise<BodyEnv> {
  const cfg = await config(t, p);
  const methods = Array.isArray(cfg?.payment_methods)
    ? (cfg.payment_methods as { id?: unknown }[]).map((m) => m?.id).filter((id): id is string => typeof id === 'string')
    : [];
  const { sandbox, maxAmount, terminal } = t.harness.ctx;
  const [, hi] = t.harness.profile.amountRange;
  return {
    credentials: { client_id: p.credentials.client_id, client_secret: p.credentials.client_secret },
    methods,
    cap: sandbox ? hi : Math.min(hi, maxAmount),
    hold: terminal === 'auto' && sandbox,
    sandbox,
    maxAmount,
  };
}

/** An amount from 1 to `cap` derived from `a` (ending in 55 when `hold` and it fits). */
export function mapAmount(a: number, cap: number, hold: boolean): number {
  const n = Math.abs(Math.trunc(a));
  if (hold && cap >= 55) return (n % (Math.floor((cap - 55) / 100) + 1)) * 100 + 55;
  return ((Math.max(n, 1) - 1) % Math.max(cap, 1)) + 1;
}

function pick<T>(list: readonly T[], seed: string): T | undefined {
  if (list.length === 0) return undefined;
  let h = 0;
  for (const c of seed) h = (h * 31 + c.codePointAt(0)!) >>> 0;
  return list[h % list.length];
}

/**
 * A body the service can accept, except in the field `broken` (undefined: fix every field). Only
 * values the sandbox constrains beyond the schema change: `amount` (range, cap, hold), `payment_method`
 * (one of the configuration's), and the token's `client_id`/`client_secret` (the pairing's).
 */
export function fixBody(value: unknown, env: BodyEnv, broken?: string, cap = env.cap): unknown {
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = { ...value };
  for (const k of Object.keys(out)) {
    if (k === broken) continue;
    const v = out[k];
    if (k === 'amount' && typeof v === 'number' && Number.isInteger(v)) out[k] = mapAmount(v, cap, env.hold);
    else if (k === 'payment_method' && typeof v === 'string') {
      const id = pick(env.methods, v);
      if (id === undefined) delete out[k];
      else out[k] = id;
    } else if (k === 'client_id' && typeof v === 'string') out[k] = env.credentials.client_id;
    else if (k === 'client_secret' && typeof v === 'string') out[k] = env.credentials.client_secret;
  }
  return out;
}

/** The component schema of an operation's body. */
export function requestSchemaOf(op: ContractOperation): SchemaNode {
  return deref(schemaByName(op.requestSchema as string));
}

/**
 * Whether an invalid variant may be sent: not a `null` in an optional field (whether null means
 * "absent" is not shown by the spec or the profiles), and no amount above --max-amount off a sandbox.
 */
export function sendable(op: ContractOperation, v: InvalidVariant, env: BodyEnv): boolean {
  const schema = requestSchemaOf(op);
  const key = brokenKey(v.reason);
  if (key !== '' && isObject(v.value) && v.value[key] === null && !(schema.required ?? []).includes(key)) return false;
  if (op.stateChanging && !env.sandbox && isObject(v.value) && typeof v.value.amount === 'number' && v.value.amount > env.maxAmount)
    return false;
  return true;
}

/**
 * The invalid bodies the properties send to `op`, each expected to be refused (a 4xx): only those a
 * document calls invalid, each with the rule and sentence that make it so (`basis`); never one that
 * breaks only a constraint of the contract's own (`x-ours`). Undefined: no document calls any body of
 * the operation invalid.
 */
export function invalidBodies(op: ContractOperation): fc.Arbitrary<InvalidVariant> | undefined {
  return refusableInvalidArbitrary(op.requestSchema as string);
}

/** A one-line rendering of a body for parameters and evidence. */
export function show(v: unknown): string {
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 200 ? `${s.slice(0, 200)}…` : s;
}

/**
 * Lets go of what a 2xx answer started: a transaction is canceled and converged (so the terminal is
 * free for the next one), an operation converged. Convergence runs its checks; its settle window
 * runs on behind the next body (nothing here judges the final status; the next request naming the
 * id, and the test's end, wait for it).
 */
export async function release(t: ScenarioContext, p: Pairing, op: ContractOperation, res: PayConnectResponse): Promise<void> {
  if (res.status < 200 || res.status > 299) return;
  const body = isObject(res.body) ? res.body : {};
  const what = startsWhat(op);
  if (what === 'operation' && typeof body.operation_id === 'string') {
    await t.scope.converge(p, 'operation', body.operation_id, { background: true });
  } else if (what === 'transaction' && typeof body.transaction_id === 'string') {
    await t.scope.call(p, 'cancelTransaction', { params: { transaction_id: body.transaction_id } });
    await t.scope.converge(p, 'transaction', body.transaction_id, { background: true });
  }
}

/** A final SUCCESS transaction prepared for the operations that act on one. */
export interface Prepared {
  id: string;
  /** The amount left to refund (amount + tip - refunded), when the record says. */
  remaining?: number;
}

const preparedCache = new WeakMap<Pairing, Map<string, Promise<Prepared | string>>>();

/** A SUCCESS payment (`generateTransaction`) or preauthorization (`startPreauth`) of the pairing, once per run; else why not. */
export function prepared(t: ScenarioContext, p: Pairing, startOp: 'generateTransaction' | 'startPreauth'): Promise<Prepared | string> {
  let byOp = preparedCache.get(p);
  if (!byOp) preparedCache.set(p, (byOp = new Map()));
  let hit = byOp.get(startOp);
  if (!hit) {
    hit = (async () => {
      if (t.harness.ctx.terminal === 'manual') return 'preparing a SUCCESS transaction needs a person in manual mode';
      const plan = t.terminal.plan('approve', 2000 + ((t.harness.ctx.seed >>> 0) % 50) * 100);
      if (typeof plan === 'string') return plan;
      const res = await t.scope.call(p, startOp, { body: { amount: plan.amount } });
      const id = t.scope.idFrom(res, 'transaction_id', `${startOp} (preparation)`);
      const obs = await t.scope.converge(p, 'transaction', id);
      if (obs.finalByPoll !== 'SUCCESS') return `the prepared ${startOp} ended ${obs.finalByPoll ?? 'without a final status'}, not SUCCESS`;
      return { id, remaining: remainingOf(obs.last) ?? plan.amount };
    })();
    byOp.set(startOp, hit);
  }
  return hit;
}

/** amount + tip - refunded of a status record, when it has the fields. */
export function remainingOf(record: Record<string, unknown> | undefined): number | undefined {
  if (!record || typeof record.amount !== 'number') return undefined;
  const tip = typeof record.tip_amount === 'number' ? record.tip_amount : 0;
  const refunded = typeof record.refund_total_amount === 'number' ? record.refund_total_amount : 0;
  return record.amount + tip - refunded;
}

/** Why valid bodies of a state-changing operation are not sent in this terminal mode, if they are not. */
export function validGate(t: ScenarioContext, op: ContractOperation): string | undefined {
  if (!op.stateChanging) return undefined;
  if (t.harness.ctx.terminal === 'manual')
    return 'valid bodies start real transactions one after another: run them with --terminal auto (sandbox) or observe';
  const plan = t.terminal.plan('offline');
  return typeof plan === 'string' ? plan : undefined;
}
