/**
 * `mkdir -p` one level at a time. Node's recursive mkdir spins forever on some paths (under /proc it
 * loops at 100% CPU instead of failing), and every folder the toolkit writes to goes through here.
 */
import { mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/** The file-system calls {@link makeDirs} makes (a test or the vault may pass its own). */
export interface DirFs {
  mkdir(path: string, options: { mode?: number }): Promise<unknown>;
  stat(path: string): Promise<{ isDirectory(): boolean }>;
}

const nodeDirFs: DirFs = { mkdir: (p, o) => mkdir(p, o), stat: (p) => stat(p) };

/**
 * Makes `dir` and its missing parents with `mode`.
 * @returns the first folder made, or undefined when `dir` was there (as `mkdir -p` in Node)
 * @throws the file system's error (ENOENT, EACCES, ENOTDIR, EEXIST for a file in the way...)
 */
export async function makeDirs(dir: string, mode = 0o777, fs: DirFs = nodeDirFs): Promise<string | undefined> {
  const missing: string[] = [];
  for (let at = resolve(dir); ; at = dirname(at)) {
    try {
      const s = await fs.stat(at);
      if (!s.isDirectory()) throw Object.assign(new Error(`${at} is not a folder`), { code: 'ENOTDIR' });
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(at) === at) throw e;
      missing.unshift(at);
    }
  }
  for (const d of missing) {
    try {
      await fs.mkdir(d, { mode });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
  return missing[0];
}
