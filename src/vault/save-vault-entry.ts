import { basename, dirname, join } from 'node:path';
import { ToolkitError } from '../core/errors.ts';
import { makeDirs } from '../core/make-dirs.ts';
import { readVaultFile } from './load-vault.ts';
import { VAULT_VERSION, vaultKey, type NewVaultEntry, type VaultEntry } from './vault.ts';
import { dirFsOf, nodeVaultFs, type VaultFs, type VaultIoOptions } from './vault-fs.ts';
import { withVaultLock } from './with-vault-lock.ts';
import { writeFileAtomic } from './write-file-atomic.ts';

/**
 * Saves one pairing, the moment its answer arrives: under the vault lock, reads the vault, replaces
 * the entry with the same key and `pay_connect_id` or appends it, and writes the file atomically
 * (mode 0600). Creates the directory (mode 0700) when missing, then keeps it out of git.
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
    ...(entry.ephemeralRun ? { ephemeralRun: entry.ephemeralRun } : {}),
  };
  let created: string | undefined;
  try {
    created = await makeDirs(dirname(file), 0o700, dirFsOf(fs));
  } catch (error) {
    throw new ToolkitError(
      'PCC_VAULT_WRITE',
      `the vault's directory ${dirname(file)} could not be created`,
      'choose a vault path in a writable directory',
      { cause: error },
    );
  }
  await withVaultLock(
    file,
    () => {
      const { vault } = readVaultFile(file, fs);
      const pairings = [...vault.pairings];
      const same = pairings.findIndex((p) => p.key === stored.key && p.credentials.pay_connect_id === stored.credentials.pay_connect_id);
      if (same >= 0) pairings[same] = stored;
      else pairings.push(stored);
      writeFileAtomic(file, `${JSON.stringify({ ...vault, version: VAULT_VERSION, pairings }, null, 2)}\n`, fs);
    },
    options,
  );
  // After the save: nothing may come between the answer and the credentials on disk.
  keepOutOfGit(dirname(file), created !== undefined, fs);
  return stored;
}

/**
 * Puts a `.gitignore` of `*` in the vault's directory, so `git add .` never takes the secrets: in
 * a directory the vault made, or in the default `.payconnect/`, unless one is there already. A
 * directory the user chose and keeps is left as it is.
 */
export function keepOutOfGit(dir: string, madeHere: boolean, fs: VaultFs = nodeVaultFs): void {
  if (!madeHere && basename(dir) !== '.payconnect') return;
  try {
    const fd = fs.openSync(join(dir, '.gitignore'), 'wx', 0o600);
    try {
      fs.writeFileSync(fd, '# payconnect-conformance: pairing credentials (secrets) never go into git\n*\n', 'utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw new ToolkitError(
      'PCC_VAULT_WRITE',
      `${join(dir, '.gitignore')} could not be written`,
      "check that the vault's directory is writable",
      { cause: error },
    );
  }
}
