/** A token source that exchanges client credentials at POST /v1/auth/token/ through the client. */
import { ToolkitError } from '../core/errors.ts';
import type { IntegratorMode } from './request-options.ts';
import { TOKEN_PATH } from './path.ts';
import type { TokenSource } from './token-cache.ts';

/** The client credentials a pairing returns. */
export interface PayConnectCredentials {
  client_id: string;
  client_secret: string;
}

/** The slice of the client a token source needs (kept small so it can be faked). */
export type TokenRequester = (request: {
  method: 'POST';
  path: string;
  body: unknown;
  auth: 'none';
  integrator: IntegratorMode;
}) => Promise<{ status: number; body: unknown }>;

/**
 * Fetches a token with `grant_type=client_credentials` through `send` (so the exchange is recorded
 * and redacted like any other). No bearer, and by default no integrator header: the spec does not
 * require one on the token endpoint.
 *
 * @param send - sends the token request (the client's `request`)
 * @param credentials - the current credentials, read at every fetch
 * @param integrator - the integrator header mode of the token request @default 'none'
 */
export function credentialsTokenSource(
  send: TokenRequester,
  credentials: () => PayConnectCredentials | undefined,
  integrator: IntegratorMode = 'none',
): TokenSource {
  return async () => {
    const creds = credentials();
    if (!creds) {
      throw new ToolkitError(
        'PCC_NO_PAIRING',
        'no client credentials to obtain a bearer token',
        'pair first, or pass credentials / tokenSource to the client',
      );
    }
    const { client_id, client_secret } = creds;
    const ask = (mode: IntegratorMode) =>
      send({
        method: 'POST',
        path: TOKEN_PATH,
        auth: 'none',
        integrator: mode,
        body: { grant_type: 'client_credentials', client_id, client_secret },
      });
    let answer = await ask(integrator);
    // A service that wrongly wants the integrator header here is reported by the auth suite
    // (auth.token-without-integrator); the rest of the run still needs a token, so ask once more
    // with the header. The token endpoint changes no transaction: this is a new question, not a
    // retry of a state-changing POST.
    if (answer.status === 400 && integrator === 'none') answer = await ask('auto');
    const body = (answer.body ?? {}) as { access_token?: unknown; expires_in?: unknown };
    if (answer.status !== 200 || typeof body.access_token !== 'string') {
      throw new ToolkitError(
        'PCC_AUTH_FAILED',
        `the token endpoint answered ${answer.status}${typeof body.access_token === 'string' ? '' : ' without an access_token'}`,
        'check client_id / client_secret; lost credentials need an unpair and a new pairing',
      );
    }
    return { access_token: body.access_token, expires_in: String(body.expires_in) };
  };
}
