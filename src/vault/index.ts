/** Pairing credentials: an atomic 0600 file, reused across runs, and the redaction list. */
export { findPairings } from './findPairings.ts';
export { loadVault, type LoadedVault } from './loadVault.ts';
export { parseVault, VAULT_INVALID_HINT } from './parseVault.ts';
export { removeVaultEntry } from './removeVaultEntry.ts';
export { saveVaultEntry } from './saveVaultEntry.ts';
export { secretsOf } from './secretsOf.ts';
export {
  emptyVault, VAULT_VERSION, vaultKey,
  type NewVaultEntry, type PairingCredentials, type Vault, type VaultEntry,
} from './vault.ts';
export { nodeVaultFs, type VaultFs, type VaultIoOptions } from './vaultFs.ts';
export { withVaultLock } from './withVaultLock.ts';
export { writeFileAtomic } from './writeFileAtomic.ts';
