import * as nodeFs from 'node:fs';
import type { DirFs } from '../core/make-dirs.ts';

/**
 * The file-system calls the vault makes, so a test can inject a failing one (root ignores read-only
 * directories, so permissions alone cannot simulate a failed write). Synchronous: a save runs from
 * taking the lock to releasing it without giving the event loop a turn (with-vault-lock.ts), so the
 * lock is held for the file system's time, not for whatever the worker's other tests run meanwhile.
 */
export type VaultFs = Pick<
  typeof nodeFs,
  | 'openSync'
  | 'closeSync'
  | 'readFileSync'
  | 'writeFileSync'
  | 'fstatSync'
  | 'fsyncSync'
  | 'fchmodSync'
  | 'renameSync'
  | 'unlinkSync'
  | 'statSync'
  | 'mkdirSync'
>;

/** The real file system. */
export const nodeVaultFs: VaultFs = nodeFs;

/** `fs` as core/make-dirs.ts takes it. */
export function dirFsOf(fs: VaultFs): DirFs {
  return {
    mkdir: async (path, options) => fs.mkdirSync(path, options),
    stat: async (path) => fs.statSync(path),
  };
}

/** Options shared by the vault's file operations. */
export interface VaultIoOptions {
  /** File system to use. @default nodeVaultFs */
  fs?: VaultFs;
  /** How long a save waits for another process's lock before giving up. @default 10000 */
  lockTimeoutMs?: number;
  /** A lock older than this is taken as abandoned even if its process seems alive. @default 30000 */
  staleLockMs?: number;
}
