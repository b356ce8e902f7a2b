/**
 * A run against a URL that pairs by OTP on a receiver of its own (a port chosen for this run) leaves
 * pairings no later run can use: their webhook_url is gone with the run. They were saved to the vault
 * the moment they were made (credentials cannot be recovered); at the run's end they are unpaired and
 * then removed, so neither the vault nor the service fills up run after run. A pairing the service
 * does not let go is kept in the vault, and said so.
 */
import { Redactor, createPayConnectClient } from '../client/index.ts';
import type { Transport } from '../transport/index.ts';
import { pathFor } from '../generated/contract.ts';
import { findPairings, loadPrivateVault, removeVaultEntry } from '../vault/index.ts';

const UNPAIR_PATH = pathFor('unpair');

/** What the release did: how many pairings were unpaired, and why the others were kept. */
export interface Released {
  released: number;
  kept: string[];
}

/** Unpairs and removes the vault's pairings marked with `runId` for this target. */
export async function releaseRunPairings(o: { vaultPath: string; baseUrl: string; integratorId: string; runId: string; timeoutMs: number; transport?: Transport }): Promise<Released> {
  const { vault } = await loadPrivateVault(o.vaultPath);
  const mine = findPairings(vault, o.baseUrl, o.integratorId).filter((e) => e.ephemeralRun === o.runId);
  const out: Released = { released: 0, kept: [] };
  for (const entry of mine) {
    const { client_id, client_secret, webhook_secret_key, pay_connect_id } = entry.credentials;
    const client = createPayConnectClient({
      baseUrl: o.baseUrl, integratorId: o.integratorId, timeoutMs: o.timeoutMs, credentials: { client_id, client_secret }, ...(o.transport ? { transport: o.transport } : {}),
      redactor: new Redactor([client_secret, ...(webhook_secret_key ? [webhook_secret_key] : [])]),
    });
    try {
      const res = await client.request({ method: 'POST', path: UNPAIR_PATH });
      if (res.status >= 300) {
        out.kept.push(`${pay_connect_id || client_id}: unpair answered ${res.status}`);
        continue;
      }
      await removeVaultEntry(o.vaultPath, (e) => e.credentials.client_id === client_id && e.key === entry.key);
      out.released++;
    } catch (e) {
      out.kept.push(`${pay_connect_id || client_id}: ${client.redactor.redactText((e as Error).message)}`);
    } finally {
      await client.close();
    }
  }
  return out;
}
