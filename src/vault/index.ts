/** Pairing credentials: an atomic 0600 file, reused across runs, and the redaction list. */
export { findPairings } from './find-pairings.ts';
export { loadPrivateVault, loadVault, type LoadedVault } from './load-vault.ts';
export { parseVault, VAULT_INVALID_HINT } from './parse-vault.ts';
export { removeVaultEntry } from './remove-vault-entry.ts';
export { saveVaultEntry } from './save-vault-entry.ts';
export { secretsOf } from './secrets-of.ts';
export { emptyVault, VAULT_VERSION, vaultKey, type NewVaultEntry, type PairingCredentials, type Vault, type VaultEntry } from './vault.ts';
export { nodeVaultFs, type VaultFs, type VaultIoOptions } from './vault-fs.ts';
export { withVaultLock } from './with-vault-lock.ts';
export { writeFileAtomic } from './write-file-atomic.ts';
export { VAULT_JSON_ENV, seedVaultFromEnv } from './seed-vault-from-env.ts';
export { assertVaultWritable } from './assert-vault-writable.ts';
export { prepareVault } from './prepare-vault.ts';
