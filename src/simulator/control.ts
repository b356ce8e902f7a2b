/**
 * The simulator's control surface: a person (or a script) acting on a manual virtual terminal.
 * Outside the Pay-Connect paths (`/_sim/...`), without authentication (a loopback tool), never bent
 * by fault switches, and not part of the OpenAPI contract.
 *
 *   GET  /_sim/terminals                       -> 200 {mode, terminals: [{terminal_id, waiting}]}
 *   POST /_sim/terminals/{terminal_id}/actions {"action": ..., "amount"?: n}
 *        -> 200 {terminal_id, transaction_id, action, status}; 404 not manual / unknown terminal;
 *           400 unknown action, bad JSON, bad amount; 409 nothing waits for an action
 *   POST /_sim/clock {"id": transaction or operation id, "max_ms": n, "settle_ms"?: m}
 *        -> 200 {terminal_id, id, skipped_ms, fired, status, final}: the clock of the terminal holding
 *           `id` skipped ahead until `id` is final (then m ms more) or n ms later (terminal-clock.ts),
 *           any mode; 404 no terminal holds it; 400 bad JSON, id, max_ms or settle_ms
 */
import { waitingView, type SimContext } from './sim-state.ts';
import type { TerminalMode, TerminalView } from './options.ts';
import type { Route } from './router.ts';
import { DEFAULT_MANUAL_TIP, TERMINAL_ACTIONS, type TerminalAction, type VirtualTerminal } from './virtual-terminal.ts';
import { parseJsonObject } from './validate.ts';
import { HttpError } from './errors.ts';

export { TERMINAL_ACTIONS, DEFAULT_MANUAL_TIP, type TerminalAction };

/** The path of the terminal list; actions are under `${CONTROL_PATH}/{terminal_id}/actions`. */
export const CONTROL_PATH = '/_sim/terminals';
/** Where a terminal's clock is skipped ahead (`POST`). */
export const CLOCK_PATH = '/_sim/clock';
/** The furthest one skip goes, ms (ten minutes: past any deadline the simulator takes). */
export const MAX_SKIP_MS = 600_000;

/** What a skip answers (HTTP 200 body). */
export interface SkipResult {
  readonly terminal_id: string;
  readonly id: string;
  readonly skipped_ms: number;
  readonly fired: number;
  /** The record's status after the skip. */
  readonly status: string | null;
  /** Whether that status is final. */
  readonly final: boolean;
}

/** The largest tip `add-tip` accepts, minor units. */
export const MAX_MANUAL_TIP = 100_000;

/** What an accepted action answers (HTTP 200 body, and `handle.act`'s result). */
export interface ActionResult {
  readonly terminal_id: string;
  readonly transaction_id: string;
  readonly action: TerminalAction;
  /** The transaction's status right after the action was taken. */
  readonly status: string;
}

/** What the control surface answers to GET /_sim/terminals. */
export interface TerminalsAnswer {
  readonly mode: TerminalMode;
  readonly terminals: TerminalView[];
}

/** An action taken, or why not (with the HTTP status it answers). */
export type ActionOutcome =
  { readonly ok: true; readonly result: ActionResult } | { readonly ok: false; readonly status: 400 | 404 | 409; readonly detail: string };

/** True when `v` names an operator action. */
export function isTerminalAction(v: unknown): v is TerminalAction {
  return typeof v === 'string' && (TERMINAL_ACTIONS as readonly string[]).includes(v);
}

/** Every live terminal, in pairing order, and what waits on it. */
export function terminalViews(ctx: SimContext): TerminalView[] {
  return [...ctx.registry.all()].map(({ terminal }) => {
    const t = terminal.waiting();
    return { terminal_id: terminal.id, waiting: t ? waitingView(ctx, terminal, t) : null };
  });
}

/** A terminal by id; with several of that id (`pair.shared-terminal-id`), the one that has waited longest. */
function findTerminal(ctx: SimContext, id: string): VirtualTerminal | null {
  let found: VirtualTerminal | null = null;
  let oldest = Infinity;
  for (const p of ctx.registry.all()) {
    if (p.terminal.id !== id) continue;
    const created = p.terminal.waiting()?.createdAt ?? Infinity;
    if (found === null || created < oldest) {
      found = p.terminal;
      oldest = created;
    }
  }
  return found;
}

const fail = (status: 400 | 404 | 409, detail: string): ActionOutcome => ({ ok: false, status, detail });

/** The terminal an action goes to, or the 404 why not (not in manual mode, unknown id). */
function target(ctx: SimContext, terminalId: string): VirtualTerminal | ActionOutcome {
  if (ctx.options.terminal !== 'manual')
    return fail(404, 'the virtual terminal is not in manual mode (start the simulator with terminal manual)');
  return findTerminal(ctx, terminalId) ?? fail(404, 'no such terminal');
}

function actOn(terminal: VirtualTerminal, action: unknown, amount: unknown): ActionOutcome {
  if (!isTerminalAction(action)) return fail(400, `action must be one of ${TERMINAL_ACTIONS.join(', ')}`);
  let tip = DEFAULT_MANUAL_TIP;
  if (amount !== undefined && amount !== null) {
    if (action !== 'add-tip') return fail(400, 'amount is taken by add-tip only');
    if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 1 || amount > MAX_MANUAL_TIP) {
      return fail(400, `amount must be an integer from 1 to ${MAX_MANUAL_TIP} (minor units)`);
    }
    tip = amount;
  }
  const out = terminal.act(action, tip);
  if (out.kind === 'nothing-waits') return fail(409, 'nothing waits for an action on this terminal');
  if (out.kind === 'no-tip-on-refund') return fail(400, 'add-tip does not apply to a refund');
  return { ok: true, result: { terminal_id: terminal.id, transaction_id: out.t.id, action, status: out.t.status } };
}

/**
 * Takes an operator action on terminal `terminalId`. `amount` (add-tip only) is an integer of minor
 * units, 1..100000, default 100; null and undefined mean "not given". Checked in this order: manual
 * mode and a known terminal (404), the action and amount (400), something waiting (409).
 */
export function takeAction(ctx: SimContext, terminalId: string, action: unknown, amount?: unknown): ActionOutcome {
  const terminal = target(ctx, terminalId);
  return 'ok' in terminal ? terminal : actOn(terminal, action, amount);
}

const skipMs = (v: unknown, min: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= MAX_SKIP_MS;

/**
 * Skips ahead the clock of the terminal that holds transaction or operation `id` until it is final
 * (then `settleMs` more), at most `maxMs`: integers, 1..MAX_SKIP_MS and 0..MAX_SKIP_MS (default 0).
 * 400 for a bad id, maxMs or settleMs, 404 when no terminal holds the id.
 */
export function skipClock(
  ctx: SimContext,
  id: unknown,
  maxMs: unknown,
  settleMs: unknown = 0,
): { ok: true; result: SkipResult } | { ok: false; status: 400 | 404; detail: string } {
  if (typeof id !== 'string' || id === '') return { ok: false, status: 400, detail: 'id must name a transaction or an operation' };
  if (!skipMs(maxMs, 1)) return { ok: false, status: 400, detail: `max_ms must be an integer from 1 to ${MAX_SKIP_MS}` };
  if (!skipMs(settleMs, 0)) return { ok: false, status: 400, detail: `settle_ms must be an integer from 0 to ${MAX_SKIP_MS}` };
  for (const { terminal } of ctx.registry.all()) {
    if (!terminal.transaction(id) && !terminal.operation(id)) continue;
    const s = terminal.skipAhead(id, maxMs, settleMs);
    return {
      ok: true,
      result: { terminal_id: terminal.id, id, skipped_ms: s.skippedMs, fired: s.fired, status: s.status, final: s.final },
    };
  }
  return { ok: false, status: 404, detail: 'no terminal holds this transaction or operation' };
}

/** The routes of the control surface (marked `control`: no auth, no fault applies to them). */
export function controlRoutes(ctx: SimContext): Route[] {
  const list = (): { status: number; body: TerminalsAnswer } => ({
    status: 200,
    body: { mode: ctx.options.terminal, terminals: terminalViews(ctx) },
  });
  const act: Route['handle'] = (r) => {
    const terminal = target(ctx, r.params.id as string);
    if ('ok' in terminal) return answer(terminal); // 404 whatever the body
    const body = parseJsonObject(r.raw);
    return answer(actOn(terminal, body.action, body.amount));
  };
  const skip: Route['handle'] = (r) => {
    const body = parseJsonObject(r.raw);
    const out = skipClock(ctx, body.id, body.max_ms, body.settle_ms ?? 0);
    if (!out.ok) throw new HttpError(out.status, out.detail);
    return { status: 200, body: out.result };
  };
  return [
    { method: 'POST', path: CLOCK_PATH, auth: 'none', control: true, handle: skip },
    { method: 'GET', path: CONTROL_PATH, auth: 'none', control: true, handle: list },
    { method: 'GET', path: `${CONTROL_PATH}/`, auth: 'none', control: true, handle: list },
    { method: 'POST', path: `${CONTROL_PATH}/:id/actions`, auth: 'none', control: true, handle: act },
    { method: 'POST', path: `${CONTROL_PATH}/:id/actions/`, auth: 'none', control: true, handle: act },
  ];
}

function answer(o: ActionOutcome): { status: number; body: ActionResult } {
  if (!o.ok) throw new HttpError(o.status, o.detail);
  return { status: 200, body: o.result };
}
