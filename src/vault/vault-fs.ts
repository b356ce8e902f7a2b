import * as fsp from 'node:fs/promises';

/**
 * The file-system calls the vault makes, so a test can inject a failing one (root ignores read-only
 * directories, so permissions alone cannot simulate a failed write).
 */
export type VaultFs = Pick<typeof fsp, 'open' | 'readFile' | 'rename' | 'unlink' | 'mkdir' | 'stat'>;

/** The real file system. */
export const nodeVaultFs: VaultFs = fsp;

/** Options shared by the vault's file operations. */
export interface VaultIoOptions {
  /** File system to use. @default nodeVaultFs */
  fs?: VaultFs;
  /** How long a save waits for another process's lock before giving up. @default 10000 */
  lockTimeoutMs?: number;
  /** A lock older than this is taken as abandoned even if its process seems alive. @default 30000 */
  staleLockMs?: number;
}
