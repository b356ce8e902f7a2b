/** Endpoints of pairing, tokens, unpairing and configuration. */
import type { PairingResult, TokenResult } from '../generated/schema-types.ts';
import { integratorOf, INTEGRATOR_HEADER } from './auth.ts';
import { createPairing, type SimContext } from './sim-state.ts';
import { broken } from './broken.ts';
import { badRequest, unauthorized } from './errors.ts';
import type { OtpRejection } from './otp.ts';
import { configRecord } from './records.ts';
import type { ApiRequest, Reply, Route } from './router.ts';
import { anyString, LIBERAL_TEXT, optString, optUrl, parseJsonObject, reqString, type Body } from './validate.ts';

const OTP_REASONS = {
  malformed: 'otp must be a string of six digits',
  'never-valid': 'this otp is never valid',
  consumed: 'this otp has already been used',
} as const;

/** The token endpoint takes JSON, and also the form encoding OAuth clients commonly send. */
function tokenBody(req: ApiRequest): Body {
  const type = String(req.headers['content-type'] ?? '');
  if (/application\/x-www-form-urlencoded/i.test(type)) {
    return Object.fromEntries(new URLSearchParams(req.raw.toString('utf8')));
  }
  return parseJsonObject(req.raw);
}

/** POST /v1/auth/token/ */
function token(ctx: SimContext, req: ApiRequest): Reply {
  const { faults, options, registry } = ctx;
  const integrator = integratorOf(req.headers);
  if (faults.has('auth.token-requires-integrator') && integrator === null) {
    throw badRequest(`the ${INTEGRATOR_HEADER} header is required`);
  }
  if (faults.has('auth.token-refuses-integrator') && integrator !== null) {
    throw badRequest(`the ${INTEGRATOR_HEADER} header is not allowed here`);
  }
  const body = tokenBody(req);
  const grant = reqString(body, 'grant_type');
  if (grant !== 'client_credentials') throw badRequest('grant_type must be "client_credentials"');
  const clientId = reqString(body, 'client_id');
  const clientSecret = reqString(body, 'client_secret');
  if (faults.has('token.refused')) throw unauthorized('the client credentials are unknown or revoked');
  const lifetime = faults.has('token.short-lived') ? 2 : options.tokenLifetimeSec;
  // token.expires-early: the token dies after 1 s whatever expires_in announces; token.dies-early after 0.3 s.
  const lives = faults.has('token.expires-early') ? 1 : faults.has('token.dies-early') ? 0.3 : lifetime;
  const issued = registry.issueToken(clientId, clientSecret, lives, faults.has('auth.any-secret-accepted'));
  if (!issued) throw unauthorized('the client credentials are unknown or revoked');
  const result: TokenResult = {
    access_token: issued.token,
    expires_in: String(lifetime),
    token_type: 'Bearer',
    scope: 'default',
  };
  return {
    status: 200,
    body: broken(result, (r) => {
      if (faults.has('token.expires-in-number')) r.expires_in = lifetime;
      if (faults.has('token.type-lowercase')) r.token_type = 'bearer';
    }),
  };
}

/** The one pay_connect_id every pairing answers under `pair.shared-pay-connect-id`. */
const SHARED_PAY_CONNECT_ID = '00000000-0000-4000-8000-000000000001';

/** Refuses an OTP with 400, unless a pairing fault bends the answer (then it may return and pair). */
function refuseOtp(ctx: SimContext, why: OtpRejection): void {
  if (why === 'consumed') throw badRequest(OTP_REASONS[why]);
  if (ctx.faults.has('pair.bad-otp-accepted')) return;
  if (ctx.faults.has('pair.bad-otp-401')) throw unauthorized(OTP_REASONS[why]);
  throw badRequest(OTP_REASONS[why]);
}

/** POST /v1/pay-connect/pair/ */
function pair(ctx: SimContext, req: ApiRequest): Reply {
  const integrator = integratorOf(req.headers);
  if (integrator === null) throw badRequest(`the ${INTEGRATOR_HEADER} header is required`);
  const body = parseJsonObject(req.raw);
  // pair.name-any-string, pair.webhook-url-any-string: the liberal sandbox takes any string the documents leave open.
  const name = ctx.liberal ? anyString(body, 'name') : reqString(body, 'name');
  if (typeof body.otp !== 'string') throw badRequest('otp is required and must be a string');
  const webhookUrl = ctx.liberal ? optString(body, 'webhook_url', LIBERAL_TEXT) : optUrl(body, 'webhook_url');
  // Everything is validated before the OTP is consumed, so a typo elsewhere does not burn it.
  const rejected = ctx.otps.consume(body.otp, ctx.faults.has('pair.otp-reuse'));
  if (rejected) refuseOtp(ctx, rejected);
  const p = createPairing(ctx, name, integrator, webhookUrl);
  // A shared id and a name not echoed are lies the schema allows: they stay typed.
  const result: PairingResult = {
    pay_connect_id: ctx.faults.has('pair.shared-pay-connect-id') ? SHARED_PAY_CONNECT_ID : p.id,
    pay_connect_name: ctx.faults.has('pair.name-not-echoed') ? `${p.name} (sandbox)` : p.name,
    terminal_id: p.terminal.id,
    client_id: p.clientId,
    client_secret: p.clientSecret,
    webhook_secret_key: p.webhookSecret,
  };
  return {
    status: 200,
    body: broken(result, (r) => {
      if (ctx.faults.has('pair.missing-webhook-key')) delete r.webhook_secret_key;
    }),
  };
}

/** The routes of this file. */
export function pairingRoutes(ctx: SimContext): Route[] {
  return [
    { method: 'POST', path: '/v1/auth/token/', auth: 'none', handle: (r) => token(ctx, r) },
    { method: 'POST', path: '/v1/pay-connect/pair/', auth: 'none', handle: (r) => pair(ctx, r) },
    {
      method: 'POST',
      path: '/v1/pay-connect/unpair/',
      auth: 'bearer',
      handle: (r) => {
        if (ctx.faults.has('unpair.refused')) throw badRequest('the terminal cannot be unpaired now');
        ctx.registry.unpair(r.pairing, {
          keepTokens: ctx.faults.has('auth.unpair-not-revoking'),
          keepCredentials: ctx.faults.has('auth.credentials-survive-unpair'),
        });
        return { status: 200 }; // the public profile: "no body"
      },
    },
    {
      method: 'GET',
      path: '/v1/pay-connect/config/',
      auth: 'bearer',
      handle: (r) => ({ status: 200, body: configRecord(r.pairing.terminal, ctx.faults) }),
    },
  ];
}
