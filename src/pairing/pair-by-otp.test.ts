/** Unit tests of pairing by OTP over loopback: the request, the credentials kept, and a refusal. */
import { readFileSync, statSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { Redactor, createPayConnectClient } from '../client/index.ts';
import { sendJson, startTestServer, type TestServer } from '../client/test-server.ts';
import { useTempVault } from '../vault/testdata/temp-vault.ts';
import { credentialsOf, pairByOtp } from './pair-by-otp.ts';

let vault = '';
useTempVault('pcc-pairing-', (_d, f) => (vault = f));
let server: TestServer | undefined;
afterEach(async () => server?.close());

const ANSWER = {
  pay_connect_id: 'pc-1',
  pay_connect_name: 'till 1',
  terminal_id: 't-1',
  client_id: 'cid-1',
  client_secret: 'cs-secret-1',
  webhook_secret_key: 'whk-secret-1',
};

describe('pairByOtp', () => {
  it('sends the OTP, name and webhook_url, saves the credentials (0600) and teaches the redactor their secrets', async () => {
    server = await startTestServer((_req, res) => sendJson(res, ANSWER));
    const redactor = new Redactor();
    const client = createPayConnectClient({ baseUrl: server.url, integratorId: 'i-1', redactor });
    const place = { vaultPath: vault, baseUrl: server.url, integratorId: 'i-1' };
    const { response, credentials } = await pairByOtp(client, place, {
      otp: '123456',
      name: 'till 1',
      webhookUrl: 'http://127.0.0.1:9/webhooks/1',
      redactor,
    });
    await client.close();
    expect(response.status).toBe(200);
    expect(JSON.parse(server.seen[0]!.body)).toEqual({ name: 'till 1', otp: '123456', webhook_url: 'http://127.0.0.1:9/webhooks/1' });
    expect(server.seen[0]!.url).toBe('/v1/pay-connect/pair/');
    expect(credentials).toEqual(ANSWER);
    const saved = JSON.parse(readFileSync(vault, 'utf8')) as { pairings: { baseUrl: string; webhookUrl: string; credentials: unknown }[] };
    expect(saved.pairings).toHaveLength(1);
    expect(saved.pairings[0]).toMatchObject({ baseUrl: server.url, webhookUrl: 'http://127.0.0.1:9/webhooks/1', credentials: ANSWER });
    expect(statSync(vault).mode & 0o777).toBe(0o600);
    expect(redactor.redactText('x cs-secret-1 whk-secret-1 x')).not.toMatch(/secret-1/);
  });

  it('keeps nothing from a refusal, and sends no webhook_url when there is none', async () => {
    server = await startTestServer((_req, res) => sendJson(res, { error: 'otp used' }, 400));
    const client = createPayConnectClient({ baseUrl: server.url, integratorId: 'i-1' });
    const answer = await pairByOtp(
      client,
      { vaultPath: vault, baseUrl: server.url, integratorId: 'i-1' },
      { otp: '654321', name: 'n', webhookUrl: null },
    );
    await client.close();
    expect(answer.response.status).toBe(400);
    expect(answer.credentials).toBeUndefined();
    expect(JSON.parse(server.seen[0]!.body)).toEqual({ name: 'n', otp: '654321' });
    expect(() => statSync(vault)).toThrow();
  });
});

describe('credentialsOf', () => {
  it('reads the credentials, fills a missing name, and gives undefined without client credentials', () => {
    expect(credentialsOf({ client_id: 'c', client_secret: 's' }, 'fallback')).toEqual({
      pay_connect_id: '',
      pay_connect_name: 'fallback',
      terminal_id: '',
      client_id: 'c',
      client_secret: 's',
      webhook_secret_key: null,
    });
    expect(credentialsOf({ client_id: 'c' })).toBeUndefined();
    expect(credentialsOf(undefined)).toBeUndefined();
  });
});
