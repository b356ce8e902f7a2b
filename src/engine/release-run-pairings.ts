/**
 * A run against a URL that pairs by OTP on a receiver of its own (a port chosen for this run) leaves
 * pairings no later run can use: their webhook_url is gone with the run. They were saved to the vault
 * the moment they were made (credentials cannot be recovered); at the run's end they are unpaired and
 * then removed, so neither the vault nor the service fills up run after run. A pairing the service
 * does not let go is kept in the vault, and said so.
 */
import { unpairEntry } from '../pairing/index.ts';
import type { Transport } from '../transport/index.ts';
import { findPairings, loadPrivateVault, removeVaultEntry } from '../vault/index.ts';

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
export async function releaseRunPairings(o: {
  vaultPath: string;
  baseUrl: string;
  integratorId: string;
  runId: string;
  timeoutMs: number;
  transport?: Transport;
}): Promise<Released> {
  const { vault } = await loadPrivateVault(o.vaultPath);
  const mine = findPairings(vault, o.baseUrl, o.integratorId).filter((e) => e.ephemeralRun === o.runId);
  const named = (e: (typeof mine)[number]) => e.credentials.pay_connect_id || e.credentials.client_id;
  const outcomes = await Promise.all(
    mine.map((entry) => unpairEntry(o, entry, { timeoutMs: o.timeoutMs, ...(o.transport ? { transport: o.transport } : {}) })),
  );
  const unpaired = mine.filter((_, i) => outcomes[i]!.unpaired);
  const out: Released = { released: 0, kept: outcomes.flatMap((x, i) => (x.unpaired ? [] : [`${named(mine[i]!)}: ${x.reason}`])) };
  if (unpaired.length > 0) {
    try {
      const removed = await removeVaultEntry(o.vaultPath, (e) =>
        unpaired.some((u) => e.credentials.client_id === u.credentials.client_id && e.key === u.key),
      );
      out.released = removed.length;
    } catch (e) {
      for (const u of unpaired) out.kept.push(`${named(u)}: unpaired, but not removed from the vault: ${(e as Error).message}`);
    }
  }
  return out;
}
