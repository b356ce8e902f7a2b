/**
 * A run against a URL that pairs by OTP on a receiver of its own (a port chosen for this run) leaves
 * pairings no later run can use: their webhook_url is gone with the run. They were saved to the vault
 * the moment they were made (credentials cannot be recovered); at the run's end they are unpaired and
 * then removed, so neither the vault nor the service fills up run after run. A pairing the service
 * does not let go is kept in the vault, and said so.
 */
import { Redactor, createPayConnectClient } from '../client/index.ts';
import type { Transport } from '../transport/index.ts';
import { operations } from '../generated/contract.ts';
import { findPairings, loadPrivateVault, removeVaultEntry } from '../vault/index.ts';

const UNPAIR_PATH = operations.find((o) => o.operationId === 'unpair')!.path;

/** What the release did: how many pairings were unpaired, and why the others were kept. */
export interface Released {
  released: number;
  kept: string[];
}

/**
 * Unpairs and removes the vault's pairings marked with `runId` for this target. The pairings are let
 * go at once, not one after the other (each is a token request and an unpair: against a service 300 ms
 * away, eight terminals' took 5 s in a row), and the vault is written once for all of them.
 */
export async function releaseRunPairings(o: { vaultPath: string; baseUrl: string; integratorId: string; runId: string; timeoutMs: number; transport?: Transport }): Promise<Released> {
  const { vault } = await loadPrivateVault(o.vaultPath);
  const mine = findPairings(vault, o.baseUrl, o.integratorId).filter((e) => e.ephemeralRun === o.runId);
  const outcomes = await Promise.all(mine.map(async (entry): Promise<{ unpaired: true } | { kept: string }> => {
    const { client_id, client_secret, webhook_secret_key, pay_connect_id } = entry.credentials;
    const client = createPayConnectClient({
      baseUrl: o.baseUrl, integratorId: o.integratorId, timeoutMs: o.timeoutMs, credentials: { client_id, client_secret }, ...(o.transport ? { transport: o.transport } : {}),
      redactor: new Redactor([client_secret, ...(webhook_secret_key ? [webhook_secret_key] : [])]),
    });
    try {
      const res = await client.request({ method: 'POST', path: UNPAIR_PATH });
      return res.status >= 300 ? { kept: `${pay_connect_id || client_id}: unpair answered ${res.status}` } : { unpaired: true };
    } catch (e) {
      return { kept: `${pay_connect_id || client_id}: ${client.redactor.redactText((e as Error).message)}` };
    } finally {
      await client.close();
    }
  }));
  const unpaired = mine.filter((_, i) => 'unpaired' in outcomes[i]!);
  const out: Released = { released: 0, kept: outcomes.flatMap((x) => ('kept' in x ? [x.kept] : [])) };
  if (unpaired.length > 0) {
    try {
      const removed = await removeVaultEntry(o.vaultPath, (e) => unpaired.some((u) => e.credentials.client_id === u.credentials.client_id && e.key === u.key));
      out.released = removed.length;
    } catch (e) {
      for (const u of unpaired) out.kept.push(`${u.credentials.pay_connect_id || u.credentials.client_id}: unpaired, but not removed from the vault: ${(e as Error).message}`);
    }
  }
  return out;
}
