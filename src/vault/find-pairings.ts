import { vaultKey, type Vault, type VaultEntry } from './vault.ts';

/**
 * The pairings saved for a target (base URL, trailing slashes ignored, and integrator id), in the
 * order they were first saved: the last one is the newest.
 */
export function findPairings(vault: Vault, baseUrl: string, integratorId: string): VaultEntry[] {
  const key = vaultKey(baseUrl, integratorId);
  return vault.pairings.filter((entry) => entry.key === key);
}
