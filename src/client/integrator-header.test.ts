import { Agent } from 'undici';
import { describe, expect, it } from 'vitest';
import { integratorHeader } from './integrator-header.ts';
import { fakePayConnect, useClient } from './testing.ts';
import { sendJson, startTestServer } from './test-server.ts';

const start = useClient();

describe('integratorHeader', () => {
  it('adds the configured id by default, and it is on the record', async () => {
    const fake = fakePayConnect();
    const { server, client } = await start(fake.route);
    const res = await client.request({ method: 'GET', path: '/v1/pay-connect/config/' });
    expect(fake.calls(server)[0]?.headers['x-pay-connect-integrator-id']).toBe('int-1');
    expect(res.exchange.request.headers['x-pay-connect-integrator-id']).toBe('int-1');
  });

  it('sends no header with integrator: none', async () => {
    const fake = fakePayConnect();
    const { server, client } = await start(fake.route);
    const res = await client.request({ method: 'GET', path: '/v1/pay-connect/config/', integrator: 'none' });
    expect(fake.calls(server)[0]?.headers).not.toHaveProperty('x-pay-connect-integrator-id');
    expect(res.exchange.request.headers).not.toHaveProperty('x-pay-connect-integrator-id');
  });

  it('sends the given value instead of the id (a wrong-id probe)', async () => {
    const fake = fakePayConnect();
    const { server, client } = await start(fake.route);
    await client.request({ method: 'GET', path: '/v1/pay-connect/config/', integrator: 'not-my-id' });
    expect(fake.calls(server)[0]?.headers['x-pay-connect-integrator-id']).toBe('not-my-id');
  });

  it('keeps a header the caller set itself, and strips it with none', async () => {
    const fake = fakePayConnect();
    const { server, client } = await start(fake.route);
    const headers = { 'X-Pay-Connect-Integrator-Id': 'from-caller' };
    await client.request({ method: 'GET', path: '/v1/pay-connect/config/', headers });
    await client.request({ method: 'GET', path: '/v1/pay-connect/config/', headers, integrator: 'none' });
    const [kept, stripped] = fake.calls(server);
    expect(kept?.headers['x-pay-connect-integrator-id']).toBe('from-caller');
    expect(stripped?.headers).not.toHaveProperty('x-pay-connect-integrator-id');
  });

  it('leaves it off the token request unless asked to send it', async () => {
    const without = await start(fakePayConnect().route);
    await without.client.request({ method: 'GET', path: '/v1/pay-connect/config/' });
    expect(without.server.seen[0]?.url).toBe('/v1/auth/token/');
    expect(without.server.seen[0]?.headers).not.toHaveProperty('x-pay-connect-integrator-id');

    const withIt = await start(fakePayConnect().route, { integratorOnTokenRequest: true });
    await withIt.client.request({ method: 'GET', path: '/v1/pay-connect/config/' });
    expect(withIt.server.seen[0]?.headers['x-pay-connect-integrator-id']).toBe('int-1');
  });

  it('works as a plain undici interceptor, without the client', async () => {
    const server = await startTestServer((req, res) => sendJson(res, req.headers));
    const agent = new Agent();
    try {
      const res = await agent.compose(integratorHeader('plain')).request({ origin: server.url, path: '/x/', method: 'GET' });
      expect(await res.body.json()).toMatchObject({ 'x-pay-connect-integrator-id': 'plain' });
    } finally {
      await agent.close();
      await server.close();
    }
  });
});
