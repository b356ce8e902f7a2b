/**
 * Registered checks of the pairing, auth, config and isolation suites (see probes.ts for the
 * pattern). Every exported value with an `id` and a `run` is registered.
 *
 * Where a check holds a target to a value only sandbox.md gives (an exact status code, CARD, EUR,
 * the payment method ids of generate, the token lifetime in seconds), it skips on a target judged by
 * the public profile: the value is not an assumption there. Where a refusal is already judged by
 * another check, the exact-status check skips anything that is not a 4xx, so one defect gives one
 * finding.
 */
import type { Exchange } from '../core/index.ts';
import { defineCheck, fail, pass, skip } from './check.ts';
import { answered, is2xx, is4xx, sandboxOnly } from './guards.ts';

const describe = (ex: Exchange) => answered(ex);

/**
 * An exact-status sandbox rule on a refusal: skips when the answer is not a 4xx at all (the refusal
 * itself is judged by another check), fails when it is another 4xx.
 */
function exactRefusal<const Id extends string>(id: Id, clause: string, title: string, expected: readonly number[]) {
  return defineCheck<Exchange, Id>({
    id,
    clause,
    source: 'sandbox',
    title,
    run(ex, ctx) {
      const off = sandboxOnly(ctx);
      if (off) return off;
      if (!ex.response) return skip(`no response (${ex.error?.code ?? 'unknown error'})`);
      const s = ex.response.status;
      if (!is4xx(s)) return skip(`not a 4xx refusal (${s}): judged by the refusal check`);
      return expected.includes(s)
        ? pass()
        : fail({ message: `${describe(ex)}; the sandbox answers ${expected.join(' or ')}`, evidence: { status: s } });
    },
  });
}

/** An exact-status sandbox rule where any other status (acceptance included) deviates. */
function exactStatus<const Id extends string>(id: Id, clause: string, title: string, expected: readonly number[], what: string) {
  return defineCheck<Exchange, Id>({
    id,
    clause,
    source: 'sandbox',
    title,
    run(ex, ctx) {
      const off = sandboxOnly(ctx);
      if (off) return off;
      if (!ex.response) return skip(`no response (${ex.error?.code ?? 'unknown error'})`);
      const s = ex.response.status;
      if (expected.includes(s)) return pass();
      return fail({
        message: `${describe(ex)} (${what}${is2xx(s) ? ': accepted' : ''}); the sandbox answers ${expected.join(' or ')}`,
        evidence: { status: s },
      });
    },
  });
}

// --- pairing ---------------------------------------------------------------------------------------

/**
 * sandbox#pairing: a malformed or never-valid OTP (five digits, letters, empty, 000000) does not pair.
 * The spec shows no OTP format, so this is the sandbox's rule; it is a refusal, judged on any target.
 */
export const badOtpRefused = defineCheck<Exchange, 'pairing.bad-otp-refused'>({
  id: 'pairing.bad-otp-refused',
  clause: 'sandbox#pairing',
  source: 'sandbox',
  title: 'A malformed or never-valid OTP does not pair (a 4xx refusal)',
  run(ex) {
    if (!ex.response) return skip(`no response (${ex.error?.code ?? 'unknown error'})`);
    const s = ex.response.status;
    if (is4xx(s)) return pass();
    return fail({
      message: `${describe(ex)} for a malformed or never-valid OTP; expected a 4xx refusal${is2xx(s) ? ' (it paired)' : ''}`,
      evidence: { status: s },
    });
  },
});

/** sandbox#pairing: that refusal is a 400. */
export const badOtp400 = exactRefusal('pairing.bad-otp-400', 'sandbox#pairing', 'A malformed or never-valid OTP answers 400', [400]);

/**
 * spec#what-the-service-does: the integrator pairs with a terminal and reads "the terminal
 * configuration": the configuration's terminal_id is the paired terminal's, on any target.
 */
export const terminalMatchesConfig = defineCheck<
  { pairingTerminalId: unknown; configTerminalId: unknown },
  'pairing.terminal-matches-config'
>({
  id: 'pairing.terminal-matches-config',
  clause: 'spec#what-the-service-does',
  source: 'spec',
  title: "The configuration's terminal_id is the paired terminal's (the pairing result's terminal_id)",
  run(o) {
    if (typeof o.pairingTerminalId !== 'string' || o.pairingTerminalId === '') return skip('no terminal_id from pairing');
    if (typeof o.configTerminalId !== 'string') return skip('no terminal_id in the configuration');
    return o.pairingTerminalId === o.configTerminalId
      ? pass()
      : fail({
          message: `pairing terminal_id ${JSON.stringify(o.pairingTerminalId)} != configuration terminal_id ${JSON.stringify(o.configTerminalId)}`,
        });
  },
});

/** The identifying fields of a pairing result (secrets never leave the check). */
export interface PairingIdentity {
  pay_connect_id: unknown;
  terminal_id: unknown;
  client_id: unknown;
  client_secret: unknown;
  webhook_secret_key: unknown;
}

/** spec#pairing-result: `pay_connect_id` is the "Unique Pay-Connect ID". */
export const uniquePayConnectId = defineCheck<{ a: PairingIdentity; b: PairingIdentity }, 'pairing.unique-id'>({
  id: 'pairing.unique-id',
  clause: 'spec#pairing-result',
  source: 'spec',
  title: 'Two pairings have different pay_connect_id values',
  run({ a, b }) {
    if (typeof a.pay_connect_id !== 'string' || typeof b.pay_connect_id !== 'string')
      return skip('pay_connect_id missing (judged by the schema check)');
    return a.pay_connect_id !== b.pay_connect_id
      ? pass()
      : fail({ message: `two pairings share pay_connect_id ${JSON.stringify(a.pay_connect_id)}` });
  },
});

/** sandbox#pairing: every OTP pairs a fresh virtual terminal with its own terminal_id, credentials and webhook secret. */
export const ownTerminal = defineCheck<{ a: PairingIdentity; b: PairingIdentity }, 'pairing.own-terminal'>({
  id: 'pairing.own-terminal',
  clause: 'sandbox#pairing',
  source: 'sandbox',
  title: 'Each pairing gets its own terminal_id, credentials and webhook secret',
  run({ a, b }, ctx) {
    const off = sandboxOnly(ctx);
    if (off) return off;
    const shared = (['terminal_id', 'client_id', 'client_secret', 'webhook_secret_key'] as const).filter(
      (k) => typeof a[k] === 'string' && a[k] !== '' && a[k] === b[k],
    );
    return shared.length === 0 ? pass() : fail({ message: `two pairings share ${shared.join(', ')}` });
  },
});

/** profile: POST /v1/pay-connect/unpair/ answers 200 (no body); the sandbox may answer 204. */
export const unpairAccepted = defineCheck<Exchange, 'pairing.unpair-accepted'>({
  id: 'pairing.unpair-accepted',
  clause: 'profile#endpoints-the-spec-refers-to-but-does-not-show',
  source: 'profile',
  title: 'An authenticated unpair is accepted (2xx)',
  run(ex) {
    if (!ex.response) return skip(`no response (${ex.error?.code ?? 'unknown error'})`);
    return is2xx(ex.response.status)
      ? pass()
      : fail({ message: `${describe(ex)}; expected 200 (no body)`, evidence: { status: ex.response.status } });
  },
});

/** sandbox#pairing: after unpair the pairing's client credentials no longer obtain a token (400 or 401). */
export const credentialsRevoked = exactStatus(
  'auth.credentials-revoked-after-unpair',
  'sandbox#pairing',
  "After unpair the pairing's client credentials no longer obtain a token (400 or 401)",
  [400, 401],
  'a token request with unpaired credentials',
);

// --- auth ------------------------------------------------------------------------------------------

/** sandbox#tokens: a missing, unknown, expired or revoked bearer token answers 401. */
export const refused401 = exactRefusal(
  'auth.refused-401',
  'sandbox#tokens',
  'A missing, unknown, expired or revoked bearer token answers 401',
  [401],
);

/** sandbox#pairing: a missing integrator header answers 400. */
export const integratorMissing400 = exactRefusal(
  'auth.integrator-missing-400',
  'sandbox#pairing',
  'A request without the integrator header answers 400',
  [400],
);

/** sandbox#pairing: another integrator id than the pairing's answers 401. */
export const otherIntegratorRefused = exactStatus(
  'auth.other-integrator-refused',
  'sandbox#pairing',
  "A request with another integrator id than the pairing's answers 401",
  [401],
  'a request with another integrator id',
);

/** sandbox#tokens: the token endpoint works with the integrator header too. */
export const tokenWithIntegrator = exactStatus(
  'auth.token-with-integrator',
  'sandbox#tokens',
  'The token endpoint works with the integrator header',
  [200],
  'a token request with the integrator header',
);

/** spec#authentication: client credentials that did not come from pairing obtain no token. */
export const badCredentialsRefused = defineCheck<Exchange, 'auth.bad-credentials-refused'>({
  id: 'auth.bad-credentials-refused',
  clause: 'spec#authentication',
  source: 'spec',
  title: 'A token request with a wrong client_secret is refused',
  run(ex) {
    if (!ex.response) return skip(`no response (${ex.error?.code ?? 'unknown error'})`);
    const s = ex.response.status;
    return is4xx(s)
      ? pass()
      : fail({ message: `${describe(ex)} for a wrong client_secret; expected a 4xx refusal`, evidence: { status: s } });
  },
});

/** A refused request and how old the client's token was then (Scope.call measures it from the token's own exchange). */
export interface RefusedToken {
  /** The request refused with 401. */
  exchange: Exchange;
  /** The most the token can have aged when the service answered, ms. */
  tokenAgeMs: number;
  /** The token's lifetime as issued (`expires_in` read as seconds), ms. */
  lifetimeMs: number;
  /** The sequence number of the token's own request. */
  tokenSeq: number;
}

/**
 * sandbox#tokens: `expires_in` is a decimal string of seconds, and only an expired token answers 401.
 * A bearer request refused with 401 while the client used a token inside the lifetime it announced
 * means the token died early (or the lifetime is not in seconds). Judged on the auth suite's window of
 * calls (`calls`), and by the scope on any request of any test whose own token was refused while
 * younger than its `expires_in` (`early`): that request's own rule is not judged then, this is the root.
 */
export const tokenLifetimeHonoured = defineCheck<
  { calls: Exchange[]; expiresIn?: unknown; early?: RefusedToken },
  'auth.token-lifetime-honoured'
>({
  id: 'auth.token-lifetime-honoured',
  clause: 'sandbox#tokens',
  source: 'sandbox',
  title: 'Requests with a bearer token keep working over time while the client renews it by expires_in',
  run({ calls, expiresIn, early }, ctx) {
    const off = sandboxOnly(ctx);
    if (off) return off;
    if (early) {
      if (early.exchange.response?.status !== 401) return pass();
      if (early.tokenAgeMs >= early.lifetimeMs)
        return skip(`the token was ${early.tokenAgeMs} ms old, past its lifetime of ${early.lifetimeMs} ms`);
      // The age stays out of the message: every request the early death refuses is one defect.
      return fail({
        message: `a bearer token answered 401 before the expires_in ${JSON.stringify(expiresIn)} (seconds) it was issued with ran out`,
        evidence: {
          request: describe(early.exchange),
          tokenAgeMs: early.tokenAgeMs,
          expiresIn,
          lifetimeMs: early.lifetimeMs,
          tokenRequestSeq: early.tokenSeq,
          refusedSeq: early.exchange.seq,
        },
      });
    }
    if (calls.length === 0) return skip('no bearer request was made');
    const refused = calls.filter((c) => c.response?.status === 401);
    if (refused.length === 0) return pass();
    return fail({
      message:
        `${refused.length} of ${calls.length} bearer requests answered 401 with a token renewed by ` +
        `expires_in ${JSON.stringify(expiresIn)} (seconds): ${refused.map(describe).join('; ')}`,
      evidence: { refused: refused.map((c) => ({ seq: c.seq, path: c.request.path, startedAt: c.startedAt })) },
    });
  },
});

// --- config ----------------------------------------------------------------------------------------

/** sandbox#configuration: the payment methods are not empty and include CARD. */
export const paymentMethodsIncludeCard = defineCheck<{ config: Record<string, unknown> }, 'config.payment-methods'>({
  id: 'config.payment-methods',
  clause: 'sandbox#configuration',
  source: 'sandbox',
  title: 'The configuration lists payment methods, CARD among them',
  run({ config }, ctx) {
    const off = sandboxOnly(ctx);
    if (off) return off;
    const list = config.payment_methods;
    if (!Array.isArray(list)) return skip('payment_methods is not an array (judged by the schema check)');
    if (list.length === 0) return fail({ message: 'payment_methods is empty' });
    const ids = list.map((m) => (m as { id?: unknown } | null)?.id);
    return ids.includes('CARD')
      ? pass()
      : fail({ message: `payment_methods ${JSON.stringify(ids)} do not include CARD`, evidence: { ids } });
  },
});

/** sandbox#configuration: currency EUR and timezone Europe/Ljubljana. */
export const sandboxConfigValues = defineCheck<{ config: Record<string, unknown> }, 'config.sandbox-values'>({
  id: 'config.sandbox-values',
  clause: 'sandbox#configuration',
  source: 'sandbox',
  title: 'The sandbox configuration answers currency EUR and timezone Europe/Ljubljana',
  run({ config }, ctx) {
    const off = sandboxOnly(ctx);
    if (off) return off;
    const want = { currency: 'EUR', timezone: 'Europe/Ljubljana' } as const;
    const bad = (Object.keys(want) as (keyof typeof want)[]).filter((k) => typeof config[k] === 'string' && config[k] !== want[k]);
    return bad.length === 0
      ? pass()
      : fail({ message: bad.map((k) => `${k} ${JSON.stringify(config[k])}, the sandbox says ${want[k]}`).join('; ') });
  },
});

/** sandbox#configuration: a payment method's id is a value `payment_method` takes in generate. */
export const paymentMethodAccepted = exactStatus(
  'config.payment-method-accepted',
  'sandbox#configuration',
  "generate accepts each configured payment method's id as payment_method",
  [200],
  'generate with a configured payment method',
);

/** sandbox#configuration: a `payment_method` that is not among the configuration's answers 400. */
export const unknownPaymentMethodRefused = exactStatus(
  'config.unknown-payment-method-refused',
  'sandbox#configuration',
  "generate with a payment_method not among the configuration's answers 400",
  [400],
  'generate with an unknown payment_method',
);

/** sandbox#status-and-print-slip: the status record's payment_method is the one generate was given. */
export const paymentMethodApplied = defineCheck<{ requested: string; record?: Record<string, unknown> }, 'config.payment-method-applied'>({
  id: 'config.payment-method-applied',
  clause: 'sandbox#status-and-print-slip',
  source: 'sandbox',
  title: 'The transaction record carries the payment_method generate was given',
  run({ requested, record }, ctx) {
    const off = sandboxOnly(ctx);
    if (off) return off;
    if (!record) return skip('no status record');
    if (!('payment_method' in record)) return skip('the status record has no payment_method');
    return record.payment_method === requested
      ? pass()
      : fail({ message: `payment_method ${JSON.stringify(record.payment_method)}, generate was given ${requested}` });
  },
});
