/**
 * Checks on the answer to a deliberate probe: a request the service must refuse, or must accept.
 * Each takes the probe's exchange; the suite decides when to send it.
 */
import type { Exchange, RuleSource } from '../core/index.ts';
import { operationWithId } from '../generated/contract.ts';
import { type Check, defineCheck, fail, pass, skip } from './check.ts';
import { answered, is2xx, is4xx } from './guards.ts';
import { PROFILE_ENDPOINTS, PROFILE_ENDPOINT_ROWS } from './rule-quotes.ts';

const describe = (ex: Exchange) => answered(ex);

/** A check that passes when the probe's status satisfies `ok`. */
function statusProbe<const Id extends string>(
  id: Id,
  clause: string,
  source: RuleSource,
  title: string,
  expected: string,
  ok: (s: number) => boolean,
): Check<Exchange, Id> {
  return defineCheck<Exchange, Id>({
    id,
    clause,
    source,
    title,
    run(ex) {
      if (!ex.response) return skip(`no response (${ex.error?.code ?? 'unknown error'})`);
      return ok(ex.response.status)
        ? pass()
        : fail({ message: `${describe(ex)}; expected ${expected}`, evidence: { status: ex.response.status } });
    },
  });
}

export const bearerRequired = statusProbe(
  'auth.bearer-required',
  'spec#authentication',
  'spec',
  'A request without a bearer token is refused',
  'a 4xx refusal',
  is4xx,
);
export const invalidTokenRefused = statusProbe(
  'auth.invalid-token-refused',
  'spec#authentication',
  'spec',
  'A request with an invalid bearer token is refused',
  'a 4xx refusal',
  is4xx,
);
export const integratorRequired = statusProbe(
  'auth.integrator-required',
  'spec#endpoints',
  'spec',
  'A request without X-Pay-Connect-Integrator-Id is refused',
  'a 4xx refusal',
  is4xx,
);
export const tokenWithoutIntegrator = statusProbe(
  'auth.token-without-integrator',
  'spec#endpoints',
  'spec',
  'The token endpoint works without the integrator header',
  '200',
  (s) => s === 200,
);
export const revokedAfterUnpair = statusProbe(
  'auth.revoked-after-unpair',
  'sandbox#pairing',
  'sandbox',
  'After unpair the old token is refused',
  'a 4xx refusal',
  is4xx,
);
export const otpOneTime = statusProbe(
  'pairing.otp-one-time',
  'spec#post-v1pay-connectpair',
  'spec',
  'A consumed OTP does not pair again',
  'a 4xx refusal',
  is4xx,
);
export const foreignIdRefused = statusProbe(
  'isolation.foreign-id',
  'sandbox#isolation',
  'sandbox',
  "A pairing cannot read or act on another pairing's transactions",
  'a 4xx refusal',
  is4xx,
);
export const foreignIdNotFound = statusProbe(
  'isolation.not-found',
  'sandbox#isolation',
  'sandbox',
  "Another pairing's id answers 404, like an unknown id",
  '404',
  (s) => s === 404,
);
export const unknownIdNotFound = statusProbe(
  'errors.unknown-id',
  'sandbox#errors',
  'sandbox',
  'An unknown transaction or operation id answers 404',
  '404',
  (s) => s === 404,
);
export const busyConflict = statusProbe(
  'sandbox.busy',
  'sandbox#transactions',
  'sandbox',
  'A second transaction while one is pending answers 409',
  '409',
  (s) => s === 409,
);
export const cancelFinalRefused = statusProbe(
  'sandbox.cancel-final',
  'sandbox#transactions',
  'sandbox',
  'Cancel of a final transaction answers 400',
  '400',
  (s) => s === 400,
);
export const slipFinalOnly = statusProbe(
  'print-slip.final-only',
  'sandbox#status-and-print-slip',
  'sandbox',
  'The print slip of a transaction not yet final is refused',
  '400',
  (s) => s === 400,
);
/**
 * An input a document calls invalid, as sent: its exchange, and what makes it invalid (the heading and
 * the sentence: an amount by sandbox.md Transactions, an OTP by sandbox.md Pairing, a missing field by
 * the document that calls it required). Its finding cites that clause and quotes that sentence.
 */
export interface InvalidInput {
  exchange: Exchange;
  because: { clause: string; quote: readonly string[] };
}

const SOURCES: Readonly<Record<string, RuleSource>> = { spec: 'spec', profile: 'profile', sandbox: 'sandbox' };

/**
 * An invalid request body gets a 4xx. Given the exchange alone, the input is judged by the rule's own
 * clause and quote (sandbox.md, Transactions: the amounts); given an {@link InvalidInput}, by the
 * sentence that makes it invalid, whose document also gives the finding's severity (sandbox and
 * profile warn: no sentence of the spec calls a request body invalid).
 */
export const invalidRejected = defineCheck<Exchange | InvalidInput, 'request.invalid-rejected'>({
  id: 'request.invalid-rejected',
  clause: 'sandbox#transactions',
  source: 'sandbox',
  title: 'An invalid request body gets a 4xx (never 2xx, never 5xx)',
  run(input) {
    const because = 'because' in input ? input.because : undefined;
    const ex = because ? (input as InvalidInput).exchange : (input as Exchange);
    if (!ex.response) return skip(`no response (${ex.error?.code ?? 'unknown error'})`);
    if (is4xx(ex.response.status)) return pass();
    const cited = because
      ? { clause: because.clause, quote: because.quote, source: SOURCES[because.clause.split('#')[0]!] ?? 'sandbox' }
      : {};
    return fail({ message: `${describe(ex)}; expected a 4xx`, evidence: { status: ex.response.status }, ...cited });
  },
});
export const validAccepted = statusProbe(
  'request.valid-accepted',
  'profile#endpoints-the-spec-refers-to-but-does-not-show',
  'profile',
  'A valid request body is accepted (2xx, or 409 while busy)',
  '2xx or 409',
  (s) => is2xx(s) || s === 409,
);
/**
 * A well-formed request the scenario needs answers 200. An endpoint of the spec is held to the spec
 * (a failure); one the spec refers to but does not show (status, operation details, unpair,
 * preauthorization, revert, refunds) to the public profile's row for it (a warning, a failure with
 * --strict): the spec says nothing of its answer.
 */
export const acceptedOk = defineCheck<Exchange, 'request.accepted'>({
  id: 'request.accepted',
  clause: 'spec#endpoints',
  source: 'spec',
  title: 'A well-formed request the scenario needs answers 200',
  run(ex) {
    if (!ex.response) return skip(`no response (${ex.error?.code ?? 'unknown error'})`);
    if (ex.response.status === 200) return pass();
    const row = ex.operationId === undefined ? undefined : PROFILE_ENDPOINT_ROWS[ex.operationId];
    const op = operationWithId(ex.operationId);
    const cited = row && op && op.source !== 'spec' ? { source: op.source, clause: PROFILE_ENDPOINTS, quote: [row] } : {};
    return fail({ message: `${describe(ex)}; expected 200`, evidence: { status: ex.response.status }, ...cited });
  },
});
