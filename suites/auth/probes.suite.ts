/**
 * Authentication probes, for every operation of the contract's table: each one with `bearer: true`
 * without a bearer token and with an invalid one; each one with `integratorHeader: true` without the
 * integrator header and (when a pairing is bound to it) with another integrator id.
 *
 * Probes must never do harm when a broken service wrongly accepts them:
 * - they run on a pairing of their own (a fresh one when an OTP can be had, else the run's pairing);
 * - path ids name nothing, except for the two read-only GETs (status, print slip), which use a
 *   final transaction of the probe pairing so that a wrongly accepted read shows as a 200;
 * - generate, preauth and independent refund carry a body a correct service would accept (an invalid
 *   body would be refused for the wrong reason and hide the defect); if one is accepted, the
 *   transaction it started is canceled with proper credentials and converged;
 * - unpair comes last, and once a probe of it was accepted the remaining unpair probes skip;
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

const state: { probe?: Pairing; fresh?: boolean; txn?: string | null; unpaired?: boolean } = {};

/** The pairing the probes act on: a fresh one (so a wrongly accepted probe hits nothing else), else the run's. */
async function probePairing(t: ScenarioContext): Promise<Pairing> {
  if (!state.probe) {
    await t.harness.primary(t.scope); // the run's pairing first: it must not be left without an OTP
    // Against the Pact mock every probe is answered by its own interaction: the run's pairing will do.
    const f = underPact(t) ? 'the Pact mock keeps to one pairing' : await t.harness.fresh(t.scope, { webhook: false });
    if (typeof f === 'string') {
      t.scope.notes.push(`${f}: probing with the run's pairing`);
      state.probe = await t.harness.primary(t.scope);
      state.fresh = false;
    } else {
      state.probe = f;
      state.fresh = true;
    }
  }
  return state.probe;
}

/** A final transaction of the probe pairing, or an id that names nothing when none can be made. */
async function readableId(t: ScenarioContext, p: Pairing): Promise<string> {
  // Against the Pact mock a probe's answer does not depend on the id: an id no service issued.
  if (underPact(t)) return unknownId(t);
  if (state.txn === undefined) {
    // Made once: when it cannot be (the transaction never ends), later probes use an id that names nothing.
    state.txn = null;
    state.txn = (await quickFinalTransaction(t, p, 'auth-probe')) ?? null;
  }
  return state.txn ?? unknownId(t);
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
async function afterProbe(t: ScenarioContext, operationId: string, res: PayConnectResponse): Promise<void> {
  if (res.status < 200 || res.status >= 300) return;
  if (operationId === 'unpair') state.unpaired = true;
  if (STARTS_TRANSACTION.has(operationId)) {
    await undoStartedTransaction(t, res, [state.probe!, await t.harness.primary(t.scope)]);
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
  if (op.operationId === 'unpair' && state.unpaired) t.skip('an earlier unpair probe was wrongly accepted: the probe pairing is gone');
  const p = await probePairing(t);
  const { params, body } = await requestOf(t, p, op.operationId, op.path);
  const invalid = `pcc-invalid-${randomBytes(24).toString('base64url')}`;
  // An unpair probe that keeps the token would unpair the run's own pairing if wrongly accepted.
  let own: string | undefined;
  if (op.operationId === 'unpair' && kind.startsWith('integrator') && !state.fresh) {
    if (!underPact(t)) t.skip("this probe sends a valid token: it needs a pairing of its own (another OTP), not the run's");
    // The Pact mock revokes nothing, whatever it answers: the run's token, given explicitly.
    const tok = await obtainToken(t, p, p.credentials);
    own = t.scope.need(tok.bearer, `the token request answered ${tok.res.status} without an access_token`);
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
  await afterProbe(t, op.operationId, res);
}

// Unpair last: a wrongly accepted unpair probe ends the probe pairing.
const probed = operations
  .filter((o) => o.bearer || o.integratorHeader)
  .sort((a, b) => Number(a.operationId === 'unpair') - Number(b.operationId === 'unpair'));

// One after another, on one terminal: the probes share the probe pairing, and unpair comes last.
describe.sequential('auth: probes', () => {
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
      scenario(`${op.operationId}: ${KINDS[kind].label}`, { capability, clause: KINDS[kind].clause }, (t) => probe(t, op, kind));
    }
  }

  scenario(
    'the probe pairing is unpaired with proper credentials',
    { capability, clause: 'profile#endpoints-the-spec-refers-to-but-does-not-show' },
    async (t) => {
      const p = state.probe;
      if (!p) return t.skip('no probe pairing was made');
      if (!state.fresh) t.skip("the probes used the run's own pairing, which stays paired");
      try {
        if (state.unpaired) t.skip('a wrongly accepted unpair probe already ended the probe pairing');
        const res = await t.scope.call(p, 'unpair');
        t.scope.check('pairing.unpair-accepted', res.exchange);
      } finally {
        await t.harness.forget(p);
        state.probe = undefined;
      }
    },
  );
});
