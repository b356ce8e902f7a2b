/**
 * Before an OTP is spent: the vault's folder takes a new file. A pairing whose credentials cannot be
 * saved is lost for good (the OTP is consumed and the secret is shown once), so this is checked first.
 */
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { ToolkitError } from '../core/errors.ts';
import { makeDirs } from '../core/make-dirs.ts';
import { dirFsOf, nodeVaultFs, type VaultFs } from './vault-fs.ts';

/** @throws ToolkitError PCC_VAULT_WRITE when the folder cannot be made or takes no file */
export async function assertVaultWritable(file: string, fs: VaultFs = nodeVaultFs): Promise<void> {
  const dir = dirname(file);
  const probe = join(dir, `.${basename(file)}.write-check-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await makeDirs(dir, 0o700, dirFsOf(fs));
    fs.closeSync(fs.openSync(probe, 'wx', 0o600));
    fs.unlinkSync(probe);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new ToolkitError(
      'PCC_VAULT_WRITE',
      `the vault ${file} could not be written (${code}); nothing was sent, no OTP was used`,
      'choose a vault path in a writable folder with --vault',
      { cause: error },
    );
  }
}
