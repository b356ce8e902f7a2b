import { ToolkitError } from '../core/errors.ts';
import { parseVault, VAULT_INVALID_HINT } from './parse-vault.ts';
import { emptyVault, type Vault } from './vault.ts';
import { nodeVaultFs, type VaultFs, type VaultIoOptions } from './vault-fs.ts';

/** What {@link loadVault} found. */
export interface LoadedVault {
  file: string;
  vault: Vault;
  /** False when there was no file (an empty vault is returned). */
  exists: boolean;
  /** The file's permission bits, or null when it does not exist. */
  mode: number | null;
  /**
   * True when the file grants more than 0600 (read/write for its owner only): show a warning,
   * since it holds client secrets. The next save writes it back as 0600.
   */
  insecureMode: boolean;
}

/**
 * Reads the vault. A missing file is an empty vault; nothing is ever written here.
 *
 * @throws ToolkitError PCC_VAULT_INVALID when the file is unreadable, not JSON, or not a vault (the
 *   message names the file and the wrong field)
 */
export async function loadVault(file: string, options: Pick<VaultIoOptions, 'fs'> = {}): Promise<LoadedVault> {
  return readVaultFile(file, options.fs ?? nodeVaultFs);
}

/** {@link loadVault}, synchronous: what a save reads under the vault lock (vault-fs.ts). */
export function readVaultFile(file: string, fs: VaultFs): LoadedVault {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return { file, vault: emptyVault(), exists: false, mode: null, insecureMode: false };
    }
    throw unreadable(file, error);
  }
  let text: string;
  let mode: number;
  try {
    mode = fs.fstatSync(fd).mode & 0o777;
    text = fs.readFileSync(fd, 'utf8');
  } catch (error) {
    throw unreadable(file, error);
  } finally {
    try {
      fs.closeSync(fd);
    } catch {
      // read already, or failed with its own error
    }
  }
  const vault = parseVault(text, file);
  const insecureMode = process.platform !== 'win32' && (mode & ~0o600) !== 0;
  return { file, vault, exists: true, mode, insecureMode };
}

/**
 * {@link loadVault} for a command about to use the vault: a vault that group or others may read (or
 * write) is refused, as ssh refuses a private key they can read, before any OTP is spent. Saving
 * still writes 0600 whatever it found: credentials that just arrived are never dropped for it.
 *
 * @throws ToolkitError PCC_VAULT_INSECURE for a vault with any permission for group or others
 */
export async function loadPrivateVault(file: string, options: Pick<VaultIoOptions, 'fs'> = {}): Promise<LoadedVault> {
  const loaded = await loadVault(file, options);
  if (loaded.exists && loaded.mode !== null && process.platform !== 'win32' && (loaded.mode & 0o077) !== 0) {
    throw new ToolkitError(
      'PCC_VAULT_INSECURE',
      `vault file ${file} is open to group or others (mode 0${loaded.mode.toString(8)}) and holds client secrets`,
      `run: chmod 600 ${file}`,
    );
  }
  return loaded;
}

function unreadable(file: string, error: unknown): ToolkitError {
  const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  return new ToolkitError('PCC_VAULT_INVALID', `vault file ${file} could not be read (${code})`, VAULT_INVALID_HINT, {
    cause: error,
  });
}
