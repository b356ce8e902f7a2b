/**
 * Authentication probes, for every operation of the contract's table: each one with `bearer: true`
 * without a bearer token and with an invalid one; each one with `integratorHeader: true` without the
 * integrator header and (when a pairing is bound to it) with another integrator id.
 *
 * Probes must never do harm when a broken service wrongly accepts them:
 * - they run on a pairing of their own (a fresh one when an OTP can be had, else the run's pairing),
 *   on every lane of the worker at once, each lane through a client of its own;
 * - path ids name nothing, except for the two read-only GETs (status, print slip), which use a
 *   final transaction of the probe pairing so that a wrongly accepted read shows as a 200;
 * - generate, preauth and independent refund carry a body a correct service would accept (an invalid
 *   body would be refused for the wrong reason and hide the defect); if one is accepted, the
 *   transaction it started is canceled with proper credentials and converged;
 * - those that start a transaction run alone, first (a terminal kept busy by one wrongly accepted
 *   would change what the others are answered); unpair comes last, alone, and once a probe of it
 *   was accepted the remaining unpair probes skip;
 * - the probes about the integrator header carry a valid token, given as their own: one request each;
 * - pairing without the integrator header spends an OTP only where the sandbox lets the toolkit mint
 *   them, and a pairing wrongly made is unpaired again.
 * Against the Pact mock every probe has an interaction of its own (src/pact/consumer/interactions.ts,
 * authProbes), the probes use the run's pairing and ids no service issued.
 */
import { randomBytes } from 'node:crypto';
import { describe } from 'vitest';
import { type Pairing, type PayConnectResponse, operations } from '../../src/index.ts';
import { scenario, type ScenarioContext } from '../../src/suite.ts';
import { freshClientTransactionId } from '../_setup/steps/client-transaction-id.ts';
import {
  PACT_EXAMPLE_OTP,
  disposeUnwantedPairing,
  mintedOtp,
  obtainToken,
  quickFinalTransaction,
  undoStartedTransaction,
  unknownId,
} from '../_setup/steps/pairing.ts';
import { underPact } from '../_setup/steps/payment.ts';

const capability = 'auth';

/** Operations that start a transaction when accepted. */
const STARTS_TRANSACTION = new Set(['generateTransaction', 'startPreauth', 'independentRefund']);
/** Read-only operations probed with a real id of the probe pairing. */
const READS_TRANSACTION = new Set(['getTransactionStatus', 'getPrintSlip']);

type Harness = ScenarioContext['harness'];

/** The probe pairing as made, once for the worker, by the lane of the probe that first needed it. */
interface ProbePairing {
  made?: Pairing;
  by: Harness;
  /** Why there is none (the probes then use each lane's own pairing of the run). */
  why?: string;
}
/** What a lane's probes act on: the probe pairing through a client of the lane, or the lane's own pairing. */
interface LaneProbe {
  p: Pairing;
  fresh: boolean;
}

let probeMade: Promise<ProbePairing> | undefined;
const lanes = new Map<Harness, LaneProbe>();
/** A final transaction of each pairing probed, by client id: null when none could be made. */
const finalTxns = new Map<string, Promise<string | null>>();
let unpairedByProbe = false;

/**
 * The probe pairing, once for the worker: a fresh one (so a wrongly accepted probe hits nothing else)
 * with a final transaction made on it straight away, so that the terminal is idle for every probe.
 */
async function makeProbePairing(t: ScenarioContext): Promise<ProbePairing> {
  // Against the Pact mock every probe is answered by its own interaction: the run's pairing will do.
  const f = underPact(t) ? 'the Pact mock keeps to one pairing' : await t.harness.fresh(t.scope, { webhook: false });
  if (typeof f === 'string') return { by: t.harness, why: f };
  await finalTransactionOf(t, f);
  return { made: f, by: t.harness };
}

/**
 * What this lane's probes act on. The probes of the worker run on all its lanes at once; each lane
 * acts on the one probe pairing through a client of its own (Harness.adopt), so what a probe
 * exchanges is recorded in its own test. Without a probe pairing: the lane's pairing of the run.
 */
async function probePairing(t: ScenarioContext): Promise<LaneProbe> {
  const known = lanes.get(t.harness);
  if (known) return known;
  await t.harness.primary(t.scope); // the run's pairing first: it must not be left without an OTP
  if (!probeMade) {
    const making = makeProbePairing(t);
    probeMade = making;
    // A probe stopped while making it (its scope closed) leaves the next probe to try again.
    making.catch(() => (probeMade === making ? (probeMade = undefined) : undefined));
  }
  const made = await probeMade;
  let lane: LaneProbe;
  if (made.made) lane = { p: made.by === t.harness ? made.made : t.harness.adopt(made.made), fresh: true };
  else {
    t.scope.notes.push(`${made.why}: probing with the run's pairing`);
    lane = { p: await t.harness.primary(t.scope), fresh: false };
  }
  lanes.set(t.harness, lane);
  return lane;
}

/** A final transaction of `p`, made once; null when it cannot be (the transaction never ends). */
async function finalTransactionOf(t: ScenarioContext, p: Pairing): Promise<string | null> {
  const key = p.credentials.client_id;
  const made = finalTxns.get(key);
  if (made) return made;
  const making = quickFinalTransaction(t, p, 'auth-probe');
  // Made once: when it cannot be, later probes use an id that names nothing.
  finalTxns.set(
    key,
    making.then(
      (id) => id ?? null,
      () => null,
    ),
  );
  return (await making) ?? null;
}

/** A final transaction of the probe pairing, or an id that names nothing when none can be made. */
async function readableId(t: ScenarioContext, p: Pairing): Promise<string> {
  // Against the Pact mock a probe's answer does not depend on the id: an id no service issued.
  if (underPact(t)) return unknownId(t);
  return (await finalTransactionOf(t, p)) ?? unknownId(t);
}

/** An amount a correct service accepts, that ends at once when canceled. */
function probeAmount(t: ScenarioContext): number {
  const plan = t.terminal.plan(t.harness.ctx.terminal === 'auto' ? 'offline' : 'approve', 1000);
  return typeof plan === 'string' ? 100 : plan.amount;
}

/** Path parameters and body of a probe of `operationId`. */
async function requestOf(
  t: ScenarioContext,
  p: Pairing,
  operationId: string,
  path: string,
): Promise<{ params: Record<string, string>; body?: unknown }> {
  const params: Record<string, string> = {};
  for (const [, name] of path.matchAll(/\{(\w+)\}/g)) {
    params[name!] = READS_TRANSACTION.has(operationId) ? await readableId(t, p) : unknownId(t);
  }
  const amount = probeAmount(t);
  const tag = freshClientTransactionId('auth-probe', t.harness.ctx);
  const body: Record<string, unknown> | undefined = STARTS_TRANSACTION.has(operationId)
    ? { amount, client_transaction_id: tag }
    : ['linkedRefund', 'preauthIncrement', 'preauthComplete'].includes(operationId)
      ? { amount }
      : undefined;
  if (body) t.param('amount', amount);
  return { params, body };
}

/** Undoes whatever a wrongly accepted probe did. */
async function afterProbe(t: ScenarioContext, p: Pairing, operationId: string, res: PayConnectResponse): Promise<void> {
  if (res.status < 200 || res.status >= 300) return;
  if (operationId === 'unpair') unpairedByProbe = true;
  if (STARTS_TRANSACTION.has(operationId)) {
    await undoStartedTransaction(t, res, [p, await t.harness.primary(t.scope)]);
  }
}

type Kind = 'bearer-missing' | 'bearer-invalid' | 'integrator-missing' | 'integrator-other';

const KINDS: Record<Kind, { label: string; clause: string; applies: (o: (typeof operations)[number]) => boolean }> = {
  'bearer-missing': { label: 'without a bearer token', clause: 'spec#authentication', applies: (o) => o.bearer },
  'bearer-invalid': { label: 'with an invalid bearer token', clause: 'spec#authentication', applies: (o) => o.bearer },
  'integrator-missing': { label: 'without the integrator header', clause: 'spec#endpoints', applies: (o) => o.integratorHeader },
  // A pairing binds the integrator id it was made with; pairing itself under another id is no defect.
  'integrator-other': { label: 'with another integrator id', clause: 'sandbox#pairing', applies: (o) => o.integratorHeader && o.bearer },
};

/** Runs one probe of a bearer operation. */
async function probe(t: ScenarioContext, op: (typeof operations)[number], kind: Kind): Promise<void> {
  if (op.operationId === 'unpair' && unpairedByProbe) t.skip('an earlier unpair probe was wrongly accepted: the probe pairing is gone');
  const { p, fresh } = await probePairing(t);
  const { params, body } = await requestOf(t, p, op.operationId, op.path);
  const invalid = `pcc-invalid-${randomBytes(24).toString('base64url')}`;
  // An unpair probe that keeps the token would unpair the run's own pairing if wrongly accepted.
  let own: string | undefined;
  if (op.operationId === 'unpair' && kind.startsWith('integrator') && !fresh) {
    if (!underPact(t)) t.skip("this probe sends a valid token: it needs a pairing of its own (another OTP), not the run's");
    // The Pact mock revokes nothing, whatever it answers: the run's token, given explicitly.
    const tok = await obtainToken(t, p, p.credentials);
    own = t.scope.need(tok.bearer, `the token request answered ${tok.res.status} without an access_token`);
  } else if (kind.startsWith('integrator')) {
    // A valid token, given as the probe's own: the refusal is about the integrator header, so the
    // client neither drops its token on a 401 nor sends the probe again with a new one.
    own = await p.client.token();
  }
  const res = await t.scope.call(p, op.operationId, {
    params,
    body,
    ...(own ? { auth: { bearer: own } } : {}),
    ...(kind === 'bearer-missing' ? { auth: 'none' as const } : {}),
    ...(kind === 'bearer-invalid' ? { auth: { bearer: invalid } } : {}),
    ...(kind === 'integrator-missing' ? { integrator: 'none' } : {}),
    ...(kind === 'integrator-other' ? { integrator: `${t.harness.ctx.integratorId}-other` } : {}),
  });
  switch (kind) {
    case 'bearer-missing':
      t.scope.check('auth.bearer-required', res.exchange);
      t.scope.check('auth.refused-401', res.exchange);
      break;
    case 'bearer-invalid':
      t.scope.check('auth.invalid-token-refused', res.exchange);
      t.scope.check('auth.refused-401', res.exchange);
      break;
    case 'integrator-missing':
      t.scope.check('auth.integrator-required', res.exchange);
      t.scope.check('auth.integrator-missing-400', res.exchange);
      break;
    case 'integrator-other':
      t.scope.check('auth.other-integrator-refused', res.exchange);
      break;
  }
  await afterProbe(t, p, op.operationId, res);
}

/**
 * The probes run on every lane of the worker at once, except those that may change the probe
 * pairing's terminal when wrongly accepted: they run alone. Those that start a transaction come first,
 * each undone before the next, as the probe pairing is made (a service that acts on the latest pairing
 * without a token acts on it); unpair comes last (it ends the probe pairing). Rank 0 and 2 run alone.
 */
const rank = (o: (typeof operations)[number]) => (o.operationId === 'unpair' ? 2 : STARTS_TRANSACTION.has(o.operationId) ? 0 : 1);
const probed = operations.filter((o) => o.bearer || o.integratorHeader).sort((a, b) => rank(a) - rank(b));

describe('auth: probes', () => {
  for (const op of probed) {
    if (!op.bearer) {
      // Pairing (no bearer): only the integrator header can be missing.
      scenario(
        `${op.operationId}: without the integrator header`,
        { capability, clause: KINDS['integrator-missing'].clause },
        async (t) => {
          // Against the Pact mock the catalogue's example OTP: its interaction refuses the request whatever the OTP.
          const otp = mintedOtp(t) ?? (underPact(t) ? PACT_EXAMPLE_OTP : undefined);
          if (otp === undefined)
            t.skip('probing pairing without the integrator header needs an OTP the toolkit may spend (a sandbox that mints them)');
          const via = await t.harness.primary(t.scope);
          const res = await t.scope.call(via, op.operationId, {
            body: { name: `pcc-no-integrator-${t.harness.ctx.seed}`, otp },
            integrator: 'none',
          });
          t.scope.check('auth.integrator-required', res.exchange);
          t.scope.check('auth.integrator-missing-400', res.exchange);
          await disposeUnwantedPairing(t, via, res);
        },
      );
      continue;
    }
    for (const kind of Object.keys(KINDS) as Kind[]) {
      if (!KINDS[kind].applies(op)) continue;
      scenario(`${op.operationId}: ${KINDS[kind].label}`, { capability, clause: KINDS[kind].clause, sequential: rank(op) !== 1 }, (t) =>
        probe(t, op, kind),
      );
    }
  }

  scenario(
    'the probe pairing is unpaired with proper credentials',
    { capability, clause: 'profile#endpoints-the-spec-refers-to-but-does-not-show', sequential: true },
    async (t) => {
      const made = await probeMade?.catch(() => undefined);
      if (!made) return t.skip('no probe pairing was made');
      const ours = made.made;
      if (!ours) return t.skip("the probes used the run's own pairing, which stays paired");
      try {
        if (unpairedByProbe) t.skip('a wrongly accepted unpair probe already ended the probe pairing');
        const { p } = await probePairing(t);
        const res = await t.scope.call(p, 'unpair');
        t.scope.check('pairing.unpair-accepted', res.exchange);
      } finally {
        // Every lane's client of it is closed (the other lanes are idle: this test runs alone).
        const copies = new Map<Pairing, Harness>([[ours, made.by]]);
        for (const [h, lane] of lanes) {
          if (!lane.fresh) continue;
          copies.set(lane.p, h);
          lanes.delete(h);
        }
        for (const [p, h] of copies) await h.forget(p);
        probeMade = undefined;
      }
    },
  );
});
