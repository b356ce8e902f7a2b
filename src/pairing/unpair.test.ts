/** Unit tests of unpairing over loopback: removed from the vault only once the service said yes. */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { sendJson, startTestServer, type TestServer } from '../client/test-server.ts';
import { findPairings, loadPrivateVault, saveVaultEntry } from '../vault/index.ts';
import { useTempVault } from '../vault/testdata/temp-vault.ts';
import { unpairAndForget } from './unpair.ts';

let vault = '';
useTempVault('pcc-unpair-', (_d, f) => (vault = f));
let server: TestServer | undefined;
afterEach(async () => server?.close());

const CREDENTIALS = {
  pay_connect_id: 'pc-1',
  pay_connect_name: 'till 1',
  terminal_id: 't-1',
  client_id: 'cid-1',
  client_secret: 'cs-secret-1',
  webhook_secret_key: 'whk-secret-1',
};

/** A service that issues a token and answers unpair with `status`; the vault holds one pairing on it. */
async function pairedOn(status: number) {
  server = await startTestServer((req, res) => {
    if (req.url === '/v1/auth/token/') return sendJson(res, { access_token: 'tok', token_type: 'Bearer', expires_in: 3600 });
    return status === 204 ? ((res.statusCode = 204), res.end()) : sendJson(res, status === 200 ? {} : { error: 'no' }, status);
  });
  const place = { vaultPath: vault, baseUrl: server.url, integratorId: 'i-1' };
  await saveVaultEntry(vault, { baseUrl: server.url, integratorId: 'i-1', webhookUrl: null, credentials: CREDENTIALS });
  const [entry] = findPairings((await loadPrivateVault(vault)).vault, server.url, 'i-1');
  return { place, entry: entry! };
}

describe('unpairAndForget', () => {
  it.each([200, 204])("unpairs with the pairing's own token and removes it from the vault after a %i", async (status) => {
    const { place, entry } = await pairedOn(status);
    expect(await unpairAndForget(place, entry)).toEqual({ unpaired: true });
    const unpair = server!.seen.find((r) => r.url === '/v1/pay-connect/unpair/');
    expect(unpair).toMatchObject({ method: 'POST', headers: { authorization: 'Bearer tok', 'x-pay-connect-integrator-id': 'i-1' } });
    expect(findPairings((await loadPrivateVault(vault)).vault, place.baseUrl, 'i-1')).toHaveLength(0);
  });

  it('keeps the pairing in the vault when the service refuses, saying why', async () => {
    const { place, entry } = await pairedOn(404);
    expect(await unpairAndForget(place, entry)).toEqual({ unpaired: false, reason: 'unpair answered 404' });
    expect(findPairings((await loadPrivateVault(vault)).vault, place.baseUrl, 'i-1')).toHaveLength(1);
  });

  it('keeps the pairing when no answer comes, and says why without its secrets', async () => {
    const { place, entry } = await pairedOn(200);
    await server!.close();
    server = undefined;
    const out = await unpairAndForget(place, entry, { timeoutMs: 2000 });
    expect(out.unpaired).toBe(false);
    expect(out.unpaired === false && out.error).toBeDefined();
    expect(JSON.stringify(out.unpaired === false ? out.reason : '')).not.toMatch(/secret-1/);
    expect(readFileSync(vault, 'utf8')).toContain('cid-1');
  });
});
