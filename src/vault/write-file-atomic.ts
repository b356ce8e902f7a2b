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
 * whatever the old file had, since the renamed inode is the temporary file's. Synchronous (vault-fs.ts).
 *
 * @throws ToolkitError PCC_VAULT_WRITE when any step before the rename fails; the old file is then
 *   untouched and the temporary file removed
 */
export function writeFileAtomic(file: string, data: string, fs: VaultFs = nodeVaultFs): void {
  const dir = dirname(file);
  const tmp = join(dir, `.${basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  let created = false;
  try {
    const fd = fs.openSync(tmp, 'wx', 0o600);
    created = true;
    try {
      fs.fchmodSync(fd, 0o600); // the umask may have narrowed it; make it exactly 0600
      fs.writeFileSync(fd, data, 'utf8');
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
    created = false;
  } catch (error) {
    if (created) {
      try {
        fs.unlinkSync(tmp);
      } catch {
        // gone already, or the folder refuses it: the write's own error is the one to report
      }
    }
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new ToolkitError(
      'PCC_VAULT_WRITE',
      `the vault file ${file} could not be written (${code}); the previous file, if any, is untouched`,
      `check that the directory ${dir} is writable and the disk is not full, then pair again or re-run the save`,
      { cause: error },
    );
  }
  syncDirectory(dir, fs);
}

function syncDirectory(dir: string, fs: VaultFs): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
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
    if (fd !== undefined) {
      try {
        fs.closeSync(fd);
      } catch {
        // closing a directory read for its fsync: nothing to lose
      }
    }
  }
}
