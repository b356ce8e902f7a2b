/**
 * A run against a URL that pairs by OTP on a receiver of its own (a port chosen for this run) leaves
 * pairings no later run can use: their webhook_url is gone with the run. They were saved to the vault
 * the moment they were made (credentials cannot be recovered); at the run's end they are unpaired and
 * then removed, so neither the vault nor the service fills up run after run. A pairing the service
 * does not let go is kept in the vault, and said so.
 */
import { unpairAndForget } from '../pairing/index.ts';
import type { Transport } from '../transport/index.ts';
import { findPairings, loadPrivateVault } from '../vault/index.ts';

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
    const done = await unpairAndForget(o, entry, { timeoutMs: o.timeoutMs, ...(o.transport ? { transport: o.transport } : {}) });
    if (done.unpaired) out.released++;
    else out.kept.push(`${entry.credentials.pay_connect_id || entry.credentials.client_id}: ${done.reason}`);
  }
  return out;
}
