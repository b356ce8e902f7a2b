import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { loadVault } from './load-vault.ts';
import { removeVaultEntry } from './remove-vault-entry.ts';
import { saveVaultEntry } from './save-vault-entry.ts';
import { sampleEntry } from './testdata/sample-entry.ts';
import { nodeVaultFs, type VaultFs } from './vault-fs.ts';
import { useTempVault } from './testdata/temp-vault.ts';

let dir: string;
let file: string;
useTempVault('pcc-vault-', (d, f) => ((dir = d), (file = f)));

describe('removeVaultEntry', () => {
  it('removes by pay_connect_id or by predicate and returns what it removed', async () => {
    for (const id of ['a', 'b', 'c']) await saveVaultEntry(file, sampleEntry(id));
    expect((await removeVaultEntry(file, 'b')).map((e) => e.credentials.pay_connect_id)).toEqual(['b']);
    expect((await loadVault(file)).vault.pairings.map((e) => e.credentials.pay_connect_id)).toEqual(['a', 'c']);
    const removed = await removeVaultEntry(file, (e) => e.credentials.terminal_id === 'T-c');
    expect(removed.map((e) => e.credentials.pay_connect_id)).toEqual(['c']);
    await expect(stat(file).then((s) => s.mode & 0o777)).resolves.toBe(0o600);
    expect(await readdir(dir)).toEqual(['vault.json']);
  });

  it('writes nothing when nothing matches or there is no vault', async () => {
    expect(await removeVaultEntry(file, 'x')).toEqual([]);
    expect(await readdir(dir)).toEqual([]);
    await saveVaultEntry(file, sampleEntry('a'));
    const before = await stat(file);
    expect(await removeVaultEntry(file, 'x')).toEqual([]);
    expect((await stat(file)).ino).toBe(before.ino);
  });

  it('refuses a malformed vault and leaves the old one when the write fails', async () => {
    await writeFile(file, 'not json', { mode: 0o600 });
    await expect(removeVaultEntry(file, 'a')).rejects.toMatchObject({ code: 'PCC_VAULT_INVALID' });
    expect(await readFile(file, 'utf8')).toBe('not json');
    await rm(file);
    await saveVaultEntry(file, sampleEntry('a'));
    const before = await readFile(file);
    const fs: VaultFs = {
      ...nodeVaultFs,
      renameSync: () => {
        throw Object.assign(new Error('io'), { code: 'EIO' });
      },
    };
    await expect(removeVaultEntry(file, 'a', { fs })).rejects.toMatchObject({ code: 'PCC_VAULT_WRITE' });
    expect((await readFile(file)).equals(before)).toBe(true);
  });
});
