import { spawnSync } from 'node:child_process';
import { readdir, unlink, utimes, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { isToolkitError } from '../core/errors.ts';
import { withVaultLock } from './with-vault-lock.ts';
import { nodeVaultFs, type VaultFs } from './vault-fs.ts';
import { useTempVault } from './testdata/temp-vault.ts';

let dir: string;
let file: string;
useTempVault('pcc-lock-', (d, f) => ((dir = d), (file = f)));

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('withVaultLock', () => {
  it('runs critical sections one at a time and removes its lock', async () => {
    let inside = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 8 }, () =>
        withVaultLock(file, async () => {
          inside++;
          most = Math.max(most, inside);
          await new Promise((r) => setTimeout(r, 5));
          inside--;
        }),
      ),
    );
    expect(most).toBe(1);
    expect(await readdir(dir)).toEqual([]);
  });

  it('releases the lock when the section throws', async () => {
    await expect(
      withVaultLock(file, async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await readdir(dir)).toEqual([]);
  });

  it('takes over a lock left by a killed process', async () => {
    await writeFile(`${file}.lock`, `${deadPid()} 0 nonce`);
    expect(await withVaultLock(file, async () => 'ran', { lockTimeoutMs: 200 })).toBe('ran');
  });

  it('takes over an empty lock (owner killed before writing its pid) after a grace second only', async () => {
    await writeFile(`${file}.lock`, '');
    await expect(withVaultLock(file, async () => 'ran', { lockTimeoutMs: 300 })).rejects.toMatchObject({ code: 'PCC_VAULT_WRITE' });
    const old = new Date(Date.now() - 2000);
    await utimes(`${file}.lock`, old, old);
    expect(await withVaultLock(file, async () => 'ran', { lockTimeoutMs: 300 })).toBe('ran');
  });

  it('takes over a lock older than staleLockMs, even of a live process', async () => {
    await writeFile(`${file}.lock`, `${process.ppid} 0 nonce`);
    const old = new Date(Date.now() - 60_000);
    await utimes(`${file}.lock`, old, old);
    expect(await withVaultLock(file, async () => 'ran', { lockTimeoutMs: 200, staleLockMs: 30_000 })).toBe('ran');
  });

  it('gives up with PCC_VAULT_WRITE on a fresh lock of a live process, leaving it in place', async () => {
    await writeFile(`${file}.lock`, `${process.ppid} ${Date.now()} nonce`);
    const error = await withVaultLock(file, async () => 'ran', { lockTimeoutMs: 100 }).catch((e: unknown) => e);
    expect(isToolkitError(error) && error.code).toBe('PCC_VAULT_WRITE');
    expect((error as { hint: string }).hint).toContain(`${file}.lock`);
    expect(await readdir(dir)).toEqual(['vault.json.lock']);
  });

  it('takes turns in the process: a caller waiting behind another of its process never polls the lock file', async () => {
    // The lock of another process holds the file while eight callers of this one wait: only one of them polls it.
    await writeFile(`${file}.lock`, `${process.ppid} ${Date.now()} nonce`);
    const opens: number[] = [];
    let caller = 0;
    const counting = (n: number): VaultFs => ({
      ...nodeVaultFs,
      openSync: ((...args: Parameters<VaultFs['openSync']>) => {
        opens.push(n);
        return nodeVaultFs.openSync(...args);
      }) as VaultFs['openSync'],
    });
    const order: number[] = [];
    const all = Promise.all(
      Array.from({ length: 8 }, () => {
        const n = ++caller;
        return withVaultLock(file, async () => void order.push(n), { fs: counting(n), lockTimeoutMs: 5000 });
      }),
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(new Set(opens)).toEqual(new Set([1]));
    expect(opens.length).toBeGreaterThan(3);
    await unlink(`${file}.lock`);
    await all;
    expect(order).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(await readdir(dir)).toEqual([]);
  });

  it('counts the wait behind callers of its own process toward lockTimeoutMs, and keeps the order after a time-out', async () => {
    let release!: () => void;
    const held = withVaultLock(file, () => new Promise<void>((r) => (release = r)));
    const started = Date.now();
    const late = await withVaultLock(file, async () => 'ran', { lockTimeoutMs: 150 }).catch((e: unknown) => e);
    expect(isToolkitError(late) && late.code).toBe('PCC_VAULT_WRITE');
    expect(Date.now() - started).toBeLessThan(1000);
    // The one that gave up does not let the next caller in before the holder is done.
    let inside = false;
    const next = withVaultLock(file, async () => {
      inside = true;
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(inside).toBe(false);
    release();
    await Promise.all([held, next]);
    expect(inside).toBe(true);
    expect(await readdir(dir)).toEqual([]);
  });
});
