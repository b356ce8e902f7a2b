import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { ToolkitError } from '../core/errors.ts';
import { nodeVaultFs, type VaultFs } from './vault-fs.ts';

/** Directory fsync is not supported everywhere (Windows, some network file systems): not a failure. */
const DIR_SYNC_UNSUPPORTED = new Set(['EISDIR', 'EINVAL', 'EPERM', 'EACCES', 'ENOTSUP', 'EBADF']);

/**
 * Replaces `file` with `data` so that a reader, or a crash at any instant, sees either the old
 * content or the new one, never a mix: write a temporary file in the same directory (created with
 * `wx`, mode 0600), fsync it, rename it over `file`, fsync the directory. The result has mode 0600
 * whatever the old file had, since the renamed inode is the temporary file's.
 *
 * @throws ToolkitError PCC_VAULT_WRITE when any step before the rename fails; the old file is then
 *   untouched and the temporary file removed
 */
export async function writeFileAtomic(file: string, data: string, fs: VaultFs = nodeVaultFs): Promise<void> {
  const dir = dirname(file);
  const tmp = join(dir, `.${basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  let created = false;
  try {
    const handle = await fs.open(tmp, 'wx', 0o600);
    created = true;
    try {
      await handle.chmod(0o600); // the umask may have narrowed it; make it exactly 0600
      await handle.writeFile(data, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(tmp, file);
    created = false;
  } catch (error) {
    if (created) await fs.unlink(tmp).catch(() => {});
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new ToolkitError(
      'PCC_VAULT_WRITE',
      `the vault file ${file} could not be written (${code}); the previous file, if any, is untouched`,
      `check that the directory ${dir} is writable and the disk is not full, then pair again or re-run the save`,
      { cause: error },
    );
  }
  await syncDirectory(dir, fs);
}

async function syncDirectory(dir: string, fs: VaultFs): Promise<void> {
  let handle;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (!DIR_SYNC_UNSUPPORTED.has(code)) {
      throw new ToolkitError(
        'PCC_VAULT_WRITE',
        `the vault's directory ${dir} could not be synced (${code || (error as Error).message}); the new file is in place but may not survive a power loss`,
        'check the disk for errors',
        { cause: error },
      );
    }
  } finally {
    await handle?.close().catch(() => {});
  }
}
