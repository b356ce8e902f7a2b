/**
 * Schema-driven properties for every operation of the contract that takes a request body: invalid
 * bodies (one labelled breakage each) get a 4xx, never a 2xx or a 5xx; valid bodies are accepted.
 * Operations with a path id get their invalid bodies on an unknown id and on a prepared one.
 * The valid bodies are request-bodies.suite.ts, the invalid ones invalid-bodies.suite.ts (see
 * {@link declareValidBodies}).
 */
import { describe } from 'vitest';
import { validArbitrary } from '../../src/arbitraries/index.ts';
import type { ContractOperation, Pairing } from '../../src/index.ts';
import { scenario, type ScenarioContext } from '../../src/suite.ts';
import {
  type BodyEnv,
  bodyEnv,
  bodyOperations,
  brokenKey,
  fixBody,
  invalidBodies,
  pathParams,
  prepared,
  release,
  remainingOf,
  sendable,
  startsWhat,
  validGate,
} from './bodies.ts';
import { holds, verdict } from './property.ts';

const capability = 'properties';

/** Valid bodies start real transactions: a few runs are enough. */
const validRuns = (t: ScenarioContext) => Math.max(1, Math.min(t.harness.ctx.runs, 10));

/**
 * Invalid bodies are cheap: `ctx.runs` of them, except on the unauthenticated endpoints (token,
 * pairing) of a target that is not a sandbox, where many failed attempts could trip a lockout.
 */
const invalidRuns = (t: ScenarioContext, op: ContractOperation) =>
  op.bearer || t.harness.ctx.sandbox ? t.harness.ctx.runs : Math.min(t.harness.ctx.runs, 10);

/** The operation a prepared id comes from, for operations that act on a transaction. */
const PREPARE_WITH: Readonly<Record<string, 'generateTransaction' | 'startPreauth'>> = {
  linkedRefund: 'generateTransaction',
  preauthIncrement: 'startPreauth',
  preauthComplete: 'startPreauth',
};

interface Site {
  params?: Record<string, string>;
  where: string;
  /** The id in the path is one the service never issued. */
  unknownId?: boolean;
  /** Largest amount for valid bodies here (what is left to refund). */
  cap?: () => Promise<number | undefined>;
}

/** A prepared id for `op`, or a skip reason. */
async function preparedSite(t: ScenarioContext, p: Pairing, op: ContractOperation): Promise<Site | string> {
  const from = PREPARE_WITH[op.operationId];
  const [param] = pathParams(op);
  if (!from || !param) return `no way to prepare an id for ${op.operationId}`;
  const prep = await prepared(t, p, from);
  if (typeof prep === 'string') return prep;
  const site: Site = { params: { [param]: prep.id }, where: `prepared ${from} ${prep.id}` };
  if (op.operationId === 'linkedRefund') {
    site.cap = async () => {
      const res = await t.scope.call(p, 'getTransactionStatus', { params: { transaction_id: prep.id } });
      return res.status === 200 ? (remainingOf(res.body as Record<string, unknown>) ?? prep.remaining) : prep.remaining;
    };
  }
  return site;
}

/** Invalid bodies at `site` get a 4xx; whatever a wrongly accepted one started is let go. */
async function invalidProperty(t: ScenarioContext, p: Pairing, op: ContractOperation, env: BodyEnv, site: Site): Promise<void> {
  t.param('operation', op.operationId);
  t.param('schema', op.requestSchema as string);
  t.param('where', site.where);
  const bodies = invalidBodies(op);
  if (!bodies) return t.skip(`no document calls a body of ${op.operationId} invalid (the contract's own constraints are never asserted)`);
  const arb = bodies.filter((v) => sendable(op, v, env));
  await holds(
    t,
    `${op.operationId} invalid`,
    arb,
    invalidRuns(t, op),
    async (variant) => {
      const body = fixBody(variant.value, env, brokenKey(variant.reason));
      const res = await t.scope.call(p, op.operationId, { params: site.params, body });
      // The finding cites the sentence that makes this body invalid (variant.basis), not a clause of the suite's.
      const input = variant.basis ? { exchange: res.exchange, because: variant.basis } : res.exchange;
      const v = verdict(t, 'request.invalid-rejected', input, {
        reason: variant.reason,
        sent: body,
        where: site.where,
        ...(variant.basis ? { because: variant.basis } : {}),
      });
      await release(t, p, op, res);
      return res.status === 409 && startsWhat(op) !== 'nothing' ? { disturbed: v } : v;
    },
    { ahead: INVALID_AHEAD },
  );
}

/**
 * Invalid bodies go eight at a time. A correct service refuses each, so none changes the terminal and
 * each answer is its own. A body wrongly accepted makes the terminal busy (sandbox.md: "answers 409")
 * for the bodies sent beside it: an invalid body answered 409 while others were under way is sent
 * again alone, after them, and judged on that answer (Disturbed), as one at a time would judge it.
 * Their time is the service's answer time over this number: with every answer 300 ms late the eleven
 * tests of invalid bodies took 48.9 s of terminal time four at a time, 29.0 s eight at a time.
 */
const INVALID_AHEAD = 8;

/** Valid bodies at `site` are accepted (2xx, or 409 while busy); each started transaction is let go. */
async function validProperty(t: ScenarioContext, p: Pairing, op: ContractOperation, env: BodyEnv, site: Site): Promise<void> {
  t.param('operation', op.operationId);
  t.param('schema', op.requestSchema as string);
  t.param('where', site.where);
  await holds(t, `${op.operationId} valid`, validArbitrary(op.requestSchema as string), validRuns(t), async (value) => {
    const cap = site.cap ? await site.cap() : undefined;
    if (cap !== undefined && cap < 1) return true; // nothing left to refund: no valid amount exists
    const body = fixBody(value, env, undefined, cap === undefined ? env.cap : Math.min(cap, env.cap));
    const res = await t.scope.call(p, op.operationId, { params: site.params, body });
    const v = verdict(t, 'request.valid-accepted', res.exchange, { sent: body, where: site.where });
    await release(t, p, op, res);
    return v;
  });
}

/** The sandbox section each body's rules come from (the scenario's clause; the checks carry their own). */
const CLAUSES: Readonly<Record<string, string>> = {
  getToken: 'sandbox#tokens',
  pair: 'sandbox#pairing',
  generateTransaction: 'sandbox#transactions',
  startPreauth: 'sandbox#preauthorization',
  independentRefund: 'sandbox#revert-and-refund',
  linkedRefund: 'sandbox#revert-and-refund',
  preauthIncrement: 'sandbox#preauthorization',
  preauthComplete: 'sandbox#preauthorization',
};

const VALID_SKIP: Readonly<Record<string, string>> = {
  pair: 'a valid pairing body consumes a one-time OTP and returns credentials that cannot be recovered (the pairing suite pairs on purpose)',
};

/** The operations that take a body, with their path ids and scenario info. */
function bodyScenarios() {
  return bodyOperations().map((op) => ({
    op,
    ids: pathParams(op),
    info: { capability, clause: CLAUSES[op.operationId] ?? 'spec#endpoints' },
  }));
}

/**
 * Declares the valid-body property of every operation that takes a body, in one describe whose tests
 * a worker with several terminals runs side by side, those on a prepared id first. A valid body
 * starts a real transaction and waits for it to end, and one on a prepared id first prepares its
 * transaction (a preauthorization, itself converged): the longest tests of the properties (2.7 s a
 * preauth operation against 100 ms terminal steps, 8-15 s with every answer 300 ms late). The invalid
 * bodies are a file of their own ({@link declareInvalidBodies}), so that another worker takes them
 * side by side: in one file with these, on a worker of two terminals, they made the run's longest
 * chain (56 s at 300 ms an answer, the other workers done at 49-51 s).
 * @param alongside - declares more tests in the describe, after those on a prepared id
 */
export function declareValidBodies(alongside: () => void = () => {}): void {
  describe('request bodies', () => {
    const ordered = bodyScenarios().sort((a, b) => Number(b.ids.length > 0) - Number(a.ids.length > 0));
    for (const [i, { op, ids, info }] of ordered.entries()) {
      // What the suite file declares alongside comes after the prepared ids' tests, the longest.
      if (ids.length === 0 && (i === 0 || ordered[i - 1]!.ids.length > 0)) alongside();
      scenario(`${op.operationId}: valid bodies are accepted${ids.length > 0 ? ' on a prepared id' : ''}`, info, async (t) => {
        const skipWhy = VALID_SKIP[op.operationId] ?? validGate(t, op);
        if (skipWhy) t.skip(skipWhy);
        const p = await t.harness.primary(t.scope);
        let site: Site | string = { where: op.path };
        if (ids.length > 0) site = await preparedSite(t, p, op);
        if (typeof site === 'string') return t.skip(site);
        await validProperty(t, p, op, await bodyEnv(t, p), site);
      });
    }
  });
}

/** Declares the invalid-body properties of every operation that takes a body (see {@link declareValidBodies}). */
export function declareInvalidBodies(): void {
  describe('request bodies', () => {
    for (const { op, ids, info } of bodyScenarios()) {
      if (ids.length === 0) {
        scenario(`${op.operationId}: invalid bodies get a 4xx`, info, async (t) => {
          const p = await t.harness.primary(t.scope);
          await invalidProperty(t, p, op, await bodyEnv(t, p), { where: op.path });
        });
      } else {
        scenario(`${op.operationId}: invalid bodies on an unknown id get a 4xx`, info, async (t) => {
          const p = await t.harness.primary(t.scope);
          const params = Object.fromEntries(ids.map((k) => [k, `pcc-unknown-${t.harness.ctx.seed >>> 0}`]));
          await invalidProperty(t, p, op, await bodyEnv(t, p), { params, where: 'an unknown id', unknownId: true });
        });
        scenario(`${op.operationId}: invalid bodies on a prepared id get a 4xx`, info, async (t) => {
          const p = await t.harness.primary(t.scope);
          const site = await preparedSite(t, p, op);
          if (typeof site === 'string') return t.skip(site);
          await invalidProperty(t, p, op, await bodyEnv(t, p), site);
        });
      }
    }
  });
}
