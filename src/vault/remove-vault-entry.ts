import { readVaultFile } from './load-vault.ts';
import { VAULT_VERSION, type VaultEntry } from './vault.ts';
import { nodeVaultFs, type VaultIoOptions } from './vault-fs.ts';
import { withVaultLock } from './with-vault-lock.ts';
import { writeFileAtomic } from './write-file-atomic.ts';

/**
 * Removes pairings (for `unpair`), atomically and under the vault lock. `which` is a
 * `pay_connect_id` or a predicate. Nothing is written when nothing matches or the file is missing.
 *
 * @returns the removed entries
 * @throws ToolkitError PCC_VAULT_INVALID when the file is malformed (it is left untouched)
 * @throws ToolkitError PCC_VAULT_WRITE when the file cannot be written (the old one is left untouched)
 */
export async function removeVaultEntry(
  file: string,
  which: string | ((entry: VaultEntry) => boolean),
  options: VaultIoOptions = {},
): Promise<VaultEntry[]> {
  const fs = options.fs ?? nodeVaultFs;
  const matches = typeof which === 'string' ? (e: VaultEntry) => e.credentials.pay_connect_id === which : which;
  // Check before locking too: a missing vault has nothing to remove and needs no lock file.
  if (!readVaultFile(file, fs).exists) return [];
  return withVaultLock(
    file,
    () => {
      const { vault, exists } = readVaultFile(file, fs);
      if (!exists) return [];
      const removed = vault.pairings.filter(matches);
      if (removed.length === 0) return [];
      const pairings = vault.pairings.filter((e) => !removed.includes(e));
      writeFileAtomic(file, `${JSON.stringify({ ...vault, version: VAULT_VERSION, pairings }, null, 2)}\n`, fs);
      return removed;
    },
    options,
  );
}
