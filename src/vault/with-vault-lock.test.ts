import { spawnSync } from 'node:child_process';
import { readdir, utimes, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { isToolkitError } from '../core/errors.ts';
import { withVaultLock } from './with-vault-lock.ts';
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
});
