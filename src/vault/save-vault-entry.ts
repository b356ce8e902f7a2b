import { dirname } from 'node:path';
import { ToolkitError } from '../core/errors.ts';
import { loadVault } from './load-vault.ts';
import { VAULT_VERSION, vaultKey, type NewVaultEntry, type VaultEntry } from './vault.ts';
import { nodeVaultFs, type VaultIoOptions } from './vault-fs.ts';
import { withVaultLock } from './with-vault-lock.ts';
import { writeFileAtomic } from './write-file-atomic.ts';

/**
 * Saves one pairing, the moment its answer arrives: under the vault lock, reads the vault, replaces
 * the entry with the same key and `pay_connect_id` or appends it, and writes the file atomically
 * (mode 0600). Creates the directory (mode 0700) when missing.
 *
 * @returns the stored entry
 * @throws ToolkitError PCC_VAULT_INVALID when the existing file is malformed (it is left untouched)
 * @throws ToolkitError PCC_VAULT_WRITE when the file cannot be written (the old one is left untouched)
 */
export async function saveVaultEntry(file: string, entry: NewVaultEntry, options: VaultIoOptions = {}): Promise<VaultEntry> {
  const fs = options.fs ?? nodeVaultFs;
  const stored: VaultEntry = {
    key: vaultKey(entry.baseUrl, entry.integratorId),
    baseUrl: entry.baseUrl,
    integratorId: entry.integratorId,
    webhookUrl: entry.webhookUrl,
    pairedAt: entry.pairedAt ?? new Date().toISOString(),
    credentials: { ...entry.credentials },
  };
  try {
    await fs.mkdir(dirname(file), { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new ToolkitError('PCC_VAULT_WRITE', `the vault's directory ${dirname(file)} could not be created`,
      'choose a vault path in a writable directory', { cause: error });
  }
  await withVaultLock(file, async () => {
    const { vault } = await loadVault(file, { fs });
    const pairings = [...vault.pairings];
    const same = pairings.findIndex(
      (p) => p.key === stored.key && p.credentials.pay_connect_id === stored.credentials.pay_connect_id,
    );
    if (same >= 0) pairings[same] = stored;
    else pairings.push(stored);
    await writeFileAtomic(file, `${JSON.stringify({ ...vault, version: VAULT_VERSION, pairings }, null, 2)}\n`, fs);
  }, options);
  return stored;
}
