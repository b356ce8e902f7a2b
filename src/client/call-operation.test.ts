/** Unit tests of callOperation over loopback: the contract's method and path, parameters encoded, nothing sent without them. */
import { afterEach, describe, expect, it } from 'vitest';
import { callOperation } from './call-operation.ts';
import { createPayConnectClient } from './client.ts';
import { sendJson, startTestServer, type TestServer } from './test-server.ts';

let server: TestServer | undefined;
afterEach(async () => server?.close());

describe('callOperation', () => {
  it("sends the operation's method and path, its parameters each one encoded segment, with the body and switches given", async () => {
    server = await startTestServer((_req, res) => sendJson(res, { ok: true }));
    const client = createPayConnectClient({ baseUrl: server.url, integratorId: 'i-1' });
    const res = await callOperation(client, 'cancelTransaction', {
      params: { transaction_id: 'a/b c' },
      body: { reason: 'x' },
      auth: { bearer: 'tok' },
    });
    await client.close();
    expect(res.status).toBe(200);
    expect(server.seen[0]).toMatchObject({
      method: 'POST',
      url: '/v1/pay-connect/transactions/a%2Fb%20c/cancel/',
      body: '{"reason":"x"}',
      headers: { authorization: 'Bearer tok' },
    });
  });

  it('refuses a call without a path parameter as PCC_INTERNAL, before anything is sent', async () => {
    server = await startTestServer((_req, res) => sendJson(res, {}));
    const client = createPayConnectClient({ baseUrl: server.url, integratorId: 'i-1' });
    await expect(callOperation(client, 'getTransactionStatus', { auth: 'none' })).rejects.toMatchObject({
      code: 'PCC_INTERNAL',
      message: expect.stringContaining('transaction_id'),
    });
    await client.close();
    expect(server.seen).toHaveLength(0);
  });
});
