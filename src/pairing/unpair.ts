/**
 * Unpairing, written once for `unpair` and for the run's release of the pairings it made on a receiver
 * of its own: the pairing's own credentials ask the service to let it go, and only a success answer
 * removes it from the vault. Any other answer, or none, keeps it there: the service may still hold the
 * pairing, and its credentials cannot be had again.
 */
import { Redactor, callOperation, createPayConnectClient, type PayConnectClientOptions } from '../client/index.ts';
import { removeVaultEntry, type VaultEntry } from '../vault/index.ts';
import type { VaultPlace } from './pair-by-otp.ts';

/** What unpairing did: unpaired and removed, or kept, with why (an answer's status, or the error, its secrets redacted). */
export type Unpaired = { readonly unpaired: true } | { readonly unpaired: false; readonly reason: string; readonly error?: unknown };

/**
 * Asks the service at `place` to let the vault's `entry` go, with the pairing's own credentials; the
 * vault is the caller's to write (unpairAndForget, or one write for many: the run's release).
 */
export async function unpairEntry(
  place: Omit<VaultPlace, 'vaultPath'>,
  entry: VaultEntry,
  opts: Pick<PayConnectClientOptions, 'timeoutMs' | 'transport'> = {},
): Promise<Unpaired> {
  const { client_id, client_secret, webhook_secret_key } = entry.credentials;
  const client = createPayConnectClient({
    baseUrl: place.baseUrl,
    integratorId: place.integratorId,
    credentials: { client_id, client_secret },
    redactor: new Redactor([client_secret, ...(webhook_secret_key ? [webhook_secret_key] : [])]),
    ...(opts.timeoutMs === undefined ? {} : { timeoutMs: opts.timeoutMs }),
    ...(opts.transport ? { transport: opts.transport } : {}),
  });
  try {
    const res = await callOperation(client, 'unpair');
    return res.status >= 300 ? { unpaired: false, reason: `unpair answered ${res.status}` } : { unpaired: true };
  } catch (error) {
    return { unpaired: false, reason: client.redactor.redactText((error as Error).message), error };
  } finally {
    await client.close();
  }
}

/**
 * Unpairs the vault's `entry` on the service at `place` and, once the service said yes, removes it from
 * the vault. Never throws for the service's doing or a vault that cannot be written: the outcome says so.
 */
export async function unpairAndForget(
  place: VaultPlace,
  entry: VaultEntry,
  opts: Pick<PayConnectClientOptions, 'timeoutMs' | 'transport'> = {},
): Promise<Unpaired> {
  const done = await unpairEntry(place, entry, opts);
  if (!done.unpaired) return done;
  try {
    await removeVaultEntry(place.vaultPath, (e) => e.key === entry.key && e.credentials.client_id === entry.credentials.client_id);
    return done;
  } catch (error) {
    return { unpaired: false, reason: `unpaired, but not removed from the vault: ${(error as Error).message}`, error };
  }
}
