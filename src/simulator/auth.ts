/**
 * Authentication of Pay-Connect endpoints (spec#authentication, sandbox#pairing, sandbox#tokens):
 * a missing integrator header is 400; a missing, unknown, expired or revoked token is 401; an
 * integrator id other than the pairing's is 401. The auth fault switches each relax one step.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { SimContext } from './sim-state.ts';
import { badRequest, unauthorized } from './errors.ts';
import type { Pairing } from './store.ts';

/** The integrator header of the spec. */
export const INTEGRATOR_HEADER = 'x-pay-connect-integrator-id';

/** The integrator id of a request, or null when missing or empty. */
export function integratorOf(headers: IncomingHttpHeaders): string | null {
  const v = headers[INTEGRATOR_HEADER];
  const s = Array.isArray(v) ? v[0] : v;
  return s === undefined || s.trim() === '' ? null : s.trim();
}

function bearerOf(headers: IncomingHttpHeaders): string | null {
  const m = /^Bearer +(\S+) *$/i.exec(headers.authorization ?? '');
  return m ? (m[1] as string) : null;
}

/** The pairing a request acts for; throws the 400/401 HttpError otherwise. */
export function authenticate(ctx: SimContext, headers: IncomingHttpHeaders): Pairing {
  const { faults, registry } = ctx;
  const integrator = integratorOf(headers);
  const lax = faults.has('auth.integrator-not-enforced');
  if (integrator === null && !lax) throw badRequest(`the ${INTEGRATOR_HEADER} header is required`);
  const fallback = () => (integrator === null ? null : registry.latestOf(integrator));

  let pairing: Pairing | null;
  if (headers.authorization === undefined) {
    pairing = faults.has('auth.bearer-not-enforced') ? fallback() : null;
    if (!pairing) throw unauthorized('an Authorization: Bearer token is required');
  } else {
    const token = bearerOf(headers);
    pairing = token === null ? null : registry.pairingOf(token);
    if (!pairing && token !== null && faults.has('auth.invalid-token-accepted')) pairing = fallback();
    if (!pairing) throw unauthorized('the bearer token is unknown, expired or revoked');
  }
  if (!lax && pairing.integratorId !== integrator) {
    throw unauthorized('the integrator id does not match the pairing');
  }
  return pairing;
}
