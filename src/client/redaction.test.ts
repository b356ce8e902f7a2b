import { describe, expect, it } from 'vitest';
import { REDACTED, Redactor } from './redactor.ts';
import { CREDS, fakePayConnect, useClient } from './testing.ts';
import { sendJson } from './test-server.ts';

const start = useClient();
const PAIRING = {
  pay_connect_id: 'pc-1',
  pay_connect_name: 'till',
  terminal_id: 'T1',
  client_id: 'cid-9',
  client_secret: 'cs-from-pairing-9',
  webhook_secret_key: 'wh-from-pairing-9',
};

describe('redaction of Exchange records', () => {
  it('scrubs a pairing answer in its own record, learns its secrets, and hands the caller the real ones', async () => {
    const redactor = new Redactor();
    const { client, exchanges } = await start(
      (req, res) =>
        req.url.startsWith('/v1/pay-connect/pair/')
          ? sendJson(res, PAIRING)
          : res.writeHead(200, { 'content-type': 'text/plain' }).end(`echo ${PAIRING.client_secret} / ${PAIRING.webhook_secret_key}`),
      { redactor, credentials: undefined },
    );
    const paired = await client.request({ method: 'POST', path: '/v1/pay-connect/pair/', body: { name: 'till', otp: '123456' } });
    expect(paired.body).toEqual(PAIRING);
    expect(paired.rawBody).toContain(PAIRING.client_secret);
    expect(paired.exchange.response?.body).toMatchObject({ client_id: 'cid-9', client_secret: REDACTED, webhook_secret_key: REDACTED });
    expect(paired.exchange.response?.rawBody).not.toMatch(/from-pairing/);

    const echo = await client.request({ method: 'GET', path: '/v1/echo/', auth: 'none' });
    expect(echo.rawBody).toContain(PAIRING.client_secret);
    expect(echo.exchange.response?.rawBody).toBe(`echo ${REDACTED} / ${REDACTED}`);
    expect(JSON.stringify(exchanges)).not.toMatch(/from-pairing/);
    expect(redactor.redactText(`log: ${PAIRING.webhook_secret_key}`)).toBe(`log: ${REDACTED}`);
  });

  it('scrubs the token exchange and the bearer header, and keeps what is not secret', async () => {
    const fake = fakePayConnect();
    const { client, exchanges } = await start(fake.route);
    const res = await client.request({ method: 'GET', path: '/v1/pay-connect/config/' });
    const [token, config] = exchanges;
    expect(token?.request.body).toEqual({ grant_type: 'client_credentials', client_id: CREDS.client_id, client_secret: REDACTED });
    expect(token?.response?.body).toMatchObject({ access_token: REDACTED, token_type: 'Bearer', expires_in: '3600' });
    expect(config?.request.headers.authorization).toBe(`Bearer ${REDACTED}`);
    expect(config?.request.headers['x-pay-connect-integrator-id']).toBe('int-1');
    expect(res.exchange).toBe(config);
    const all = JSON.stringify(exchanges);
    expect(all).not.toContain('tok-1');
    expect(all).not.toContain(CREDS.client_secret);
    expect(client.redactor.redactText('tok-1')).toBe(REDACTED);
  });

  it("scrubs a probe's own bearer value and secrets given with setCredentials", async () => {
    const fake = fakePayConnect({ answer: (_req, res) => sendJson(res, { seen: 'probe-bearer-77 and cs-set-later' }) });
    const { client, exchanges } = await start(fake.route);
    client.setCredentials({ client_id: 'c', client_secret: 'cs-set-later' });
    const res = await client.request({ method: 'GET', path: '/v1/pay-connect/config/', auth: { bearer: 'probe-bearer-77' } });
    expect(res.body).toEqual({ seen: 'probe-bearer-77 and cs-set-later' });
    expect(exchanges[0]?.request.headers.authorization).toBe(`Bearer ${REDACTED}`);
    expect(exchanges[0]?.response?.body).toEqual({ seen: `${REDACTED} and ${REDACTED}` });
  });
});
