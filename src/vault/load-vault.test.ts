import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isToolkitError } from '../core/errors.ts';
import { loadPrivateVault, loadVault } from './load-vault.ts';
import { saveVaultEntry } from './save-vault-entry.ts';
import { sampleEntry } from './testdata/sample-entry.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pcc-vault-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('loadVault', () => {
  it('reads a missing file as an empty vault and creates nothing', async () => {
    const file = join(dir, 'nope', 'vault.json');
    expect(await loadVault(file)).toEqual({ file, vault: { version: 1, pairings: [] }, exists: false, mode: null, insecureMode: false });
    await expect(readFile(file)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('reads what was saved, with mode 0600 and no warning', async () => {
    const file = join(dir, 'vault.json');
    await saveVaultEntry(file, sampleEntry('a'));
    const loaded = await loadVault(file);
    expect(loaded).toMatchObject({ exists: true, mode: 0o600, insecureMode: false });
    expect(loaded.vault.pairings.map((p) => p.credentials.pay_connect_id)).toEqual(['a']);
  });

  it('flags a file readable by others', async () => {
    const file = join(dir, 'vault.json');
    await saveVaultEntry(file, sampleEntry('a'));
    await chmod(file, 0o644);
    expect(await loadVault(file)).toMatchObject({ mode: 0o644, insecureMode: true });
    await chmod(file, 0o400);
    expect(await loadVault(file)).toMatchObject({ insecureMode: false });
  });

  it('refuses a malformed file with PCC_VAULT_INVALID naming it, and leaves it untouched', async () => {
    const file = join(dir, 'vault.json');
    const text = '{"version": 1, "pairings": [{"key": "half';
    await writeFile(file, text, { mode: 0o644 });
    const error = await loadVault(file).catch((e: unknown) => e);
    expect(isToolkitError(error) && error.code).toBe('PCC_VAULT_INVALID');
    expect((error as Error).message).toContain(file);
    expect(await readFile(file, 'utf8')).toBe(text);
  });

  it('reports an unreadable path (a directory) as PCC_VAULT_INVALID', async () => {
    const error = await loadVault(dir).catch((e: unknown) => e);
    expect(isToolkitError(error) && error.code).toBe('PCC_VAULT_INVALID');
    expect((error as Error).message).toMatch(/could not be read \(EISDIR\)/);
  });
});

describe('loadPrivateVault', () => {
  it('refuses a vault open to group or others, naming the mode and the chmod that fixes it, and leaves it alone', async () => {
    const file = join(dir, 'vault.json');
    await saveVaultEntry(file, sampleEntry('a'));
    const text = await readFile(file, 'utf8');
    for (const mode of [0o644, 0o640, 0o604, 0o660]) {
      await chmod(file, mode);
      const error = await loadPrivateVault(file).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isToolkitError(error) && error.code).toBe('PCC_VAULT_INSECURE');
      expect((error as Error).message).toContain(`mode 0${mode.toString(8)}`);
      expect((error as { hint?: string }).hint).toBe(`run: chmod 600 ${file}`);
      expect(await readFile(file, 'utf8')).toBe(text);
    }
  });

  it('reads a vault only its owner may read, and a missing one', async () => {
    const file = join(dir, 'vault.json');
    await saveVaultEntry(file, sampleEntry('a'));
    for (const mode of [0o600, 0o400]) {
      await chmod(file, mode);
      expect((await loadPrivateVault(file)).vault.pairings).toHaveLength(1);
    }
    expect((await loadPrivateVault(join(dir, 'none.json'))).exists).toBe(false);
  });
});
