/** Interceptor: the `X-Pay-Connect-Integrator-Id` header, with a per-request override for probes. */
import type { Dispatcher } from 'undici';
import { contextOf, headersOf } from './request-options.ts';

/** The header name, lower-case as undici sends it. */
export const INTEGRATOR_HEADER = 'x-pay-connect-integrator-id';

/**
 * Adds `X-Pay-Connect-Integrator-Id: <id>` to every request. The request context decides per request
 * (`pcc.integrator`): `auto` adds `id` unless the caller already set the header, `none` removes it
 * (the token endpoint, or a probe for a missing header), any other string replaces it (a wrong id).
 *
 * @param id - the integrator id issued by the vendor
 */
export function integratorHeader(id: string): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) => {
    const mode = contextOf(opts)?.integrator ?? 'auto';
    const headers = headersOf(opts);
    if (mode === 'none') delete headers[INTEGRATOR_HEADER];
    else if (mode === 'auto') headers[INTEGRATOR_HEADER] ??= id;
    else headers[INTEGRATOR_HEADER] = mode;
    return dispatch({ ...opts, headers }, handler);
  };
}
