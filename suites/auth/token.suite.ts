/**
 * Tokens: client credentials give a Bearer token (the schema checks judge token_type, scope and
 * expires_in from the recorded exchange), with or without the integrator header; wrong credentials
 * give none; and bearer requests keep working over more than a short token's lifetime because the
 * client renews it (with the `token.short-lived` fault the lifetime is 2 s; on a normal service the
 * same calls simply need no renewal).
 */
import { describe } from 'vitest';
import type { Exchange } from '../../src/index.ts';
import { scenario } from '../../src/suite.ts';
import { requestToken, sleep, stringField, unknownId } from '../_setup/steps/pairing.ts';

const capability = 'auth';

describe('auth: tokens', () => {
  scenario(
    'client credentials give a token (type Bearer, scope default) without the integrator header, and it works',
    { capability, clause: 'spec#authentication' },
    async (t) => {
      const p = await t.harness.primary(t.scope);
      // As the spec shows the token endpoint: no bearer, no integrator header.
      const tok = await requestToken(t, p, p.credentials, 'none');
      t.scope.check('auth.token-without-integrator', tok.exchange);
      const bearer = t.scope.need(stringField(tok, 'access_token'), `the token request answered ${tok.status} without an access_token`);
      t.param('expires_in', JSON.stringify((tok.body as Record<string, unknown>).expires_in));
      const cfg = await t.scope.call(p, 'getConfig', { auth: { bearer } });
      t.scope.check('request.accepted', cfg.exchange);
    },
  );

  scenario('the token endpoint also works with the integrator header', { capability, clause: 'sandbox#tokens' }, async (t) => {
    const p = await t.harness.primary(t.scope);
    const tok = await requestToken(t, p, p.credentials, 'auto');
    t.scope.check('auth.token-with-integrator', tok.exchange);
  });

  scenario('a wrong client_secret obtains no token', { capability, clause: 'spec#authentication' }, async (t) => {
    const p = await t.harness.primary(t.scope);
    const wrong = `${p.credentials.client_secret}-not-the-secret`;
    const tok = await requestToken(t, p, { client_id: p.credentials.client_id, client_secret: wrong });
    t.scope.check('auth.bad-credentials-refused', tok.exchange);
  });

  scenario(
    'the token is renewed when it runs out: bearer calls over more than 2 s keep working',
    { capability, clause: 'sandbox#tokens', timeout: 60_000 },
    async (t) => {
      const p = await t.harness.primary(t.scope);
      // The lifetime the service announces now (recorded here, so the schema checks see it).
      const tok = await requestToken(t, p, p.credentials);
      const expiresIn = (tok.body as Record<string, unknown> | undefined)?.expires_in;
      t.param('expires_in', JSON.stringify(expiresIn));
      const start = t.scope.exchanges.length;
      const missing = unknownId(t);
      // Alternate a GET and a harmless POST (cancel of an id that names nothing: the client never
      // re-sends a POST after a 401, so an expired token would show), sent 400 ms apart: over 2.8 s
      // whatever the answers take (a service 300 ms away made it 5.6 s when the waits came on top).
      // Each call waits for its own time, so the test ends with the last answer, not 400 ms after it.
      const begun = Date.now();
      for (let i = 0; i < 8; i++) {
        await sleep(Math.max(0, begun + i * 400 - Date.now()));
        if (i % 2 === 0) await t.scope.call(p, 'getConfig');
        else await t.scope.call(p, 'cancelTransaction', { params: { transaction_id: missing } });
      }
      const window = t.scope.exchanges.slice(start);
      const calls = window.filter((e: Exchange) => e.operationId !== 'getToken' && e.request.headers.authorization !== undefined);
      t.param('token-requests', window.length - calls.length);
      t.scope.check('auth.token-lifetime-honoured', { calls, expiresIn });
    },
  );
});
