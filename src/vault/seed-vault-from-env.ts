/**
 * Pairing credentials from the environment, for CI: `PAYCONNECT_VAULT_JSON` holds a whole vault (the
 * content of a vault file, kept as a CI secret). It becomes the vault file's content when there is
 * no vault file yet (0600, in a 0700 folder kept out of git), so pairings made during the run are
 * saved beside it as usual. Its text is never echoed: errors say only where it is wrong.
 */
import { dirname } from 'node:path';
import { ToolkitError } from '../core/errors.ts';
import { makeDirs } from '../core/make-dirs.ts';
import { parseVault } from './parse-vault.ts';
import { keepOutOfGit } from './save-vault-entry.ts';
import { nodeVaultFs } from './vault-fs.ts';
import { withVaultLock } from './with-vault-lock.ts';
import { writeFileAtomic } from './write-file-atomic.ts';

/** The environment variable. */
export const VAULT_JSON_ENV = 'PAYCONNECT_VAULT_JSON';

/**
 * Writes the vault of `PAYCONNECT_VAULT_JSON` to `file` when the variable is set; nothing otherwise.
 * @returns whether it did
 * @throws ToolkitError PCC_VAULT_INVALID when the variable is not a vault; PCC_CONFIG_INVALID when a
 *   vault file exists as well (one source of credentials, never a silent merge or overwrite)
 */
export async function seedVaultFromEnv(file: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  const text = env[VAULT_JSON_ENV];
  if (text === undefined || text.trim() === '') return false;
  const vault = parseVault(text, `from ${VAULT_JSON_ENV}`);
  let created: string | undefined;
  try {
    created = await makeDirs(dirname(file), 0o700);
  } catch (error) {
    throw new ToolkitError(
      'PCC_VAULT_WRITE',
      `the vault's directory ${dirname(file)} could not be created`,
      'choose a vault path in a writable directory',
      { cause: error },
    );
  }
  await withVaultLock(file, () => {
    if (existsNow(file)) {
      throw new ToolkitError(
        'PCC_CONFIG_INVALID',
        `${VAULT_JSON_ENV} is set and the vault file ${file} exists too`,
        `give the credentials one way: unset ${VAULT_JSON_ENV}, or move the vault file away (keep a copy: credentials cannot be recovered)`,
      );
    }
    writeFileAtomic(file, `${JSON.stringify(vault, null, 2)}\n`);
  });
  keepOutOfGit(dirname(file), created !== undefined);
  return true;
}

/** Whether anything is at `file` (a vault, or whatever else: either way not to be written over). */
function existsNow(file: string): boolean {
  try {
    nodeVaultFs.statSync(file);
    return true;
  } catch {
    return false;
  }
}
