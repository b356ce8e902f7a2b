/**
 * Small building blocks of the pairing, auth, config and isolation suites: explicit token requests,
 * unknown ids, and the clean-up after a probe that a broken service wrongly accepted (a pairing it
 * should not have made, a transaction it should not have started).
 */
import type { Pairing, PayConnectResponse } from '../../../src/index.ts';
import type { ScenarioContext } from '../../../src/suite.ts';
import { freshClientTransactionId } from './client-transaction-id.ts';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A field of a JSON object body, when it is a non-empty string. */
export function stringField(res: PayConnectResponse, key: string): string | undefined {
  const v = (res.body as Record<string, unknown> | undefined)?.[key];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** POST /v1/auth/token/ with client credentials, recorded in the test (no bearer; integrator as given). */
export function requestToken(
  t: ScenarioContext,
  via: Pairing,
  creds: { client_id: string; client_secret: string },
  integrator: 'none' | 'auto' = 'none',
): Promise<PayConnectResponse> {
  return t.scope.call(via, 'getToken', {
    body: { grant_type: 'client_credentials', client_id: creds.client_id, client_secret: creds.client_secret },
    auth: 'none',
    integrator,
  });
}

/**
 * A bearer token for `creds` obtained explicitly in the test, as the spec shows the request (no
 * integrator header). When only a request with the integrator header gets one, that is reported as
 * `auth.token-without-integrator` and the token is used anyway, so the test can go on; when neither
 * does, `request.accepted` reports the first answer. Also says which integrator mode worked.
 */
export async function obtainToken(
  t: ScenarioContext,
  via: Pairing,
  creds: { client_id: string; client_secret: string },
): Promise<{ bearer?: string; integrator: 'none' | 'auto'; res: PayConnectResponse }> {
  const res = await requestToken(t, via, creds, 'none');
  const bearer = res.status === 200 ? stringField(res, 'access_token') : undefined;
  if (bearer) return { bearer, integrator: 'none', res };
  const retry = await requestToken(t, via, creds, 'auto');
  const second = retry.status === 200 ? stringField(retry, 'access_token') : undefined;
  if (second) {
    t.scope.check('auth.token-without-integrator', res.exchange);
    return { bearer: second, integrator: 'auto', res: retry };
  }
  t.scope.check('request.accepted', res.exchange);
  return { integrator: 'none', res };
}

let unknownSeq = 0;

/** A well-formed id (UUID-shaped, like the sandbox's) that names nothing. Derived from the seed. */
export function unknownId(t: ScenarioContext): string {
  const n = ((t.harness.ctx.seed >>> 0) * 1000 + ++unknownSeq) % 0xffffffffffff;
  return `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

/** The example OTP of the Pact catalogue (src/pact/names.ts, EXAMPLE.otp): what the pairing steps send under `--target pact`. */
export const PACT_EXAMPLE_OTP = '123456';

/** A six-digit OTP the toolkit may spend, only where the sandbox lets it mint them; else undefined. */
export function mintedOtp(t: ScenarioContext): string | undefined {
  if (!t.harness.ctx.mintOtps) return undefined;
  const otp = String(1 + Math.floor(Math.random() * 999_998)).padStart(6, '0');
  t.harness.otps.consumed(otp);
  return otp;
}

/**
 * A pairing answer that should not have been given (a reused or malformed OTP that paired anyway):
 * its credentials are unpaired again so they do not linger on the service.
 */
export async function disposeUnwantedPairing(t: ScenarioContext, via: Pairing, res: PayConnectResponse): Promise<void> {
  const clientId = stringField(res, 'client_id');
  const clientSecret = stringField(res, 'client_secret');
  if (res.status !== 200 || !clientId || !clientSecret) return;
  t.harness.redactor.register(clientSecret, stringField(res, 'webhook_secret_key'));
  // A service may answer a reused OTP with a pairing the run already holds: that one stays.
  const held = t.harness.pairingWith(clientId);
  if (held) {
    t.scope.notes.push(`the answer repeats the credentials of ${held.label}, which this run uses: not unpaired`);
    return;
  }
  const creds = { client_id: clientId, client_secret: clientSecret };
  let bearer = stringField(await requestToken(t, via, creds, 'none'), 'access_token');
  bearer ??= stringField(await requestToken(t, via, creds, 'auto'), 'access_token');
  if (bearer) await t.scope.call(via, 'unpair', { auth: { bearer } });
  t.scope.notes.push(`unpaired the pairing ${stringField(res, 'pay_connect_id') ?? ''} that should not have been made`.trim());
}

/**
 * A probe that should have been refused started a transaction: find which of `candidates` owns it,
 * cancel it with proper credentials and converge it, so the terminal is free again.
 */
export async function undoStartedTransaction(t: ScenarioContext, res: PayConnectResponse, candidates: Pairing[]): Promise<void> {
  if (res.status < 200 || res.status >= 300) return;
  const id = stringField(res, 'transaction_id');
  if (!id) {
    t.scope.notes.push('a probe that should have been refused was accepted without a transaction_id: nothing to cancel');
    return;
  }
  for (const p of new Set(candidates)) {
    const st = await t.scope.call(p, 'getTransactionStatus', { params: { transaction_id: id } });
    if (st.status !== 200) continue;
    await t.scope.call(p, 'cancelTransaction', { params: { transaction_id: id } });
    await t.scope.converge(p, 'transaction', id);
    t.scope.notes.push(`canceled transaction ${id} that a refused probe should not have started`);
    return;
  }
  t.scope.notes.push(`transaction ${id}, started by a probe that should have been refused, was found on no known pairing`);
}

/**
 * A transaction of `p` that ends at once: generated, canceled straight away and converged (auto mode
 * uses the sandbox's "terminal offline" amount, which stays INITIATED until canceled). Undefined when
 * the terminal mode cannot make one.
 */
export async function quickFinalTransaction(t: ScenarioContext, p: Pairing, tag: string): Promise<string | undefined> {
  const plan = t.terminal.plan(t.harness.ctx.terminal === 'auto' ? 'offline' : 'approve', 1000 + ((t.harness.ctx.seed >>> 0) % 50) * 100);
  if (typeof plan === 'string') return undefined;
  const res = await t.scope.call(p, 'generateTransaction', {
    body: { amount: plan.amount, client_transaction_id: freshClientTransactionId(tag, t.harness.ctx) },
  });
  const id = t.scope.idFrom(res, 'transaction_id', 'generate');
  await t.scope.call(p, 'cancelTransaction', { params: { transaction_id: id } });
  const obs = await t.scope.converge(p, 'transaction', id);
  t.scope.need(obs.finalByPoll, `transaction ${id} did not reach a final status`);
  return id;
}
