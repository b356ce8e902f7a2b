/** Unit tests of the release of a run's own pairings at its end: all at once, one vault write. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../config/testing.ts';
import { sendJson, startTestServer } from '../client/test-server.ts';
import { loadVault, saveVaultEntry } from '../vault/index.ts';
import { releaseRunPairings } from './release-run-pairings.ts';

const { emptyDir } = useTempDirs();

const credentials = (i: number) => ({
  pay_connect_id: `pc-${i}`,
  pay_connect_name: `n-${i}`,
  terminal_id: `t-${i}`,
  client_id: `c-${i}`,
  client_secret: `secret-${i}`,
  webhook_secret_key: null,
});

describe('releaseRunPairings', () => {
  it("unpairs the run's pairings side by side, removes them and keeps the rest and those the service held on to", async () => {
    let inFlight = 0;
    let most = 0;
    const server = await startTestServer(async (req, res) => {
      if (req.url === '/v1/auth/token/')
        return sendJson(res, {
          access_token: `tok-${JSON.parse(req.body).client_id}`,
          expires_in: '3600',
          token_type: 'Bearer',
          scope: 'default',
        });
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, 150));
      inFlight--;
      // The third pairing is not let go.
      return req.headers.authorization === 'Bearer tok-c-3' ? sendJson(res, { detail: 'busy' }, 409) : sendJson(res, {});
    });
    try {
      const vaultPath = join(await emptyDir(), 'vault.json');
      for (let i = 1; i <= 4; i++)
        await saveVaultEntry(vaultPath, {
          baseUrl: server.url,
          integratorId: 'i-1',
          webhookUrl: null,
          credentials: credentials(i),
          ephemeralRun: 'run-1',
        });
      await saveVaultEntry(vaultPath, { baseUrl: server.url, integratorId: 'i-1', webhookUrl: null, credentials: credentials(5) });
      const out = await releaseRunPairings({ vaultPath, baseUrl: server.url, integratorId: 'i-1', runId: 'run-1', timeoutMs: 5000 });
      expect(out).toEqual({ released: 3, kept: ['pc-3: unpair answered 409'] });
      expect(most).toBe(4);
      const { vault } = await loadVault(vaultPath);
      expect(vault.pairings.map((e) => e.credentials.client_id).sort()).toEqual(['c-3', 'c-5']);
      expect(server.seen.filter((r) => r.url === '/v1/pay-connect/unpair/')).toHaveLength(4);
    } finally {
      await server.close();
    }
  });
});
