import { existsSync, writeSync } from 'node:fs';
import { chmod, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isToolkitError } from '../core/errors.ts';
import { findPairings } from './find-pairings.ts';
import { loadVault } from './load-vault.ts';
import { saveVaultEntry } from './save-vault-entry.ts';
import { sampleEntry } from './testdata/sample-entry.ts';
import { nodeVaultFs, type VaultFs } from './vault-fs.ts';
import { useTempVault } from './testdata/temp-vault.ts';

let dir: string;
let file: string;
useTempVault('pcc-vault-', (d, f) => ((dir = d), (file = f)));

const ids = async (): Promise<string[]> => (await loadVault(file)).vault.pairings.map((p) => p.credentials.pay_connect_id);

/**
 * A real fs that logs each call on a descriptor it opened (and each open and rename), and writes the
 * temporary file through `writeTmp` when given (the file's descriptor, the data, the real fs).
 */
function fsWithTmpFile(writeTmp?: (fd: number, data: string, real: VaultFs) => void, log?: string[]): VaultFs {
  const names = new Map<number, string>();
  const nameOf = (path: unknown) => {
    const name = String(path).slice(dir.length + 1) || '<dir>';
    return name.endsWith('.tmp') ? '<tmp>' : name;
  };
  const logged = (verb: string, fd: number) => {
    const name = names.get(fd);
    if (name !== undefined) log?.push(`${verb} ${name}`);
    return name;
  };
  return {
    ...nodeVaultFs,
    openSync: ((path: string, flags: string, mode?: number) => {
      const fd = nodeVaultFs.openSync(path, flags, mode);
      names.set(fd, nameOf(path));
      log?.push(`open ${nameOf(path)} ${flags}${mode === undefined ? '' : ` ${mode.toString(8)}`}`);
      return fd;
    }) as VaultFs['openSync'],
    closeSync: (fd) => {
      logged('close', fd);
      names.delete(fd);
      nodeVaultFs.closeSync(fd);
    },
    fchmodSync: (fd, mode) => {
      logged('chmod', fd);
      nodeVaultFs.fchmodSync(fd, mode);
    },
    fsyncSync: (fd) => {
      logged('sync', fd);
      nodeVaultFs.fsyncSync(fd);
    },
    writeFileSync: ((fd: number, data: string, encoding: BufferEncoding) => {
      const name = logged('writeFile', fd);
      if (name === '<tmp>' && writeTmp) writeTmp(fd, data, nodeVaultFs);
      else nodeVaultFs.writeFileSync(fd, data, encoding);
    }) as VaultFs['writeFileSync'],
    renameSync: (from, to) => {
      log?.push(`rename <tmp> ${String(to).slice(dir.length + 1)}`);
      nodeVaultFs.renameSync(from, to);
    },
  };
}

describe('saveVaultEntry', () => {
  it('appends pairings, several per target, and replaces one with the same pay_connect_id', async () => {
    await saveVaultEntry(file, sampleEntry('a'));
    await saveVaultEntry(file, sampleEntry('b'));
    await saveVaultEntry(file, sampleEntry('c', 'http://other', 'integrator-1'));
    const replaced = { ...sampleEntry('a'), webhookUrl: null, pairedAt: '2030-01-01T00:00:00.000Z' };
    await saveVaultEntry(file, replaced);
    expect(await ids()).toEqual(['a', 'b', 'c']);
    const { vault } = await loadVault(file);
    expect(findPairings(vault, 'http://127.0.0.1:4010/', 'integrator-1').map((p) => [p.credentials.pay_connect_id, p.webhookUrl])).toEqual([
      ['a', null],
      ['b', 'http://127.0.0.1:5555/webhook'],
    ]);
    expect(findPairings(vault, 'http://127.0.0.1:4010', 'someone-else')).toEqual([]);
  });

  it('writes mode 0600 over a looser file and creates a missing directory 0700', async () => {
    await writeFile(file, '{"version":1,"pairings":[]}', { mode: 0o644 });
    await chmod(file, 0o666);
    await saveVaultEntry(file, sampleEntry('a'));
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const nested = join(dir, 'deep', 'er', 'vault.json');
    await saveVaultEntry(nested, sampleEntry('a'));
    expect((await stat(join(dir, 'deep', 'er'))).mode & 0o777).toBe(0o700);
    expect((await stat(nested)).mode & 0o777).toBe(0o600);
  });

  it('follows the protocol: lock, temp file wx 0600, write, fsync, rename, fsync the directory', async () => {
    await saveVaultEntry(file, sampleEntry('a'));
    const log: string[] = [];
    await saveVaultEntry(file, sampleEntry('b'), { fs: fsWithTmpFile(undefined, log) });
    expect(log).toEqual([
      'open vault.json.lock wx 600',
      'writeFile vault.json.lock',
      'close vault.json.lock',
      'open vault.json r',
      'close vault.json',
      'open <tmp> wx 600',
      'chmod <tmp>',
      'writeFile <tmp>',
      'sync <tmp>',
      'close <tmp>',
      'rename <tmp> vault.json',
      'open <dir> r',
      'sync <dir>',
      'close <dir>',
    ]);
  });

  it('leaves the old vault byte-identical when the write fails midway (disk full)', async () => {
    await saveVaultEntry(file, sampleEntry('old'));
    const before = await readFile(file);
    const fs = fsWithTmpFile((fd, data) => {
      writeSync(fd, data.slice(0, Math.floor(data.length / 2)));
      throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    });
    const error = await saveVaultEntry(file, sampleEntry('new'), { fs }).catch((e: unknown) => e);
    expect(isToolkitError(error) && error.code).toBe('PCC_VAULT_WRITE');
    expect((error as Error).message).toMatch(/ENOSPC.*untouched/);
    expect((error as { hint: string }).hint).toContain(dir);
    expect((await readFile(file)).equals(before)).toBe(true);
    expect(await readdir(dir)).toEqual(['vault.json']); // temp file and lock removed
    await saveVaultEntry(file, sampleEntry('new'));
    expect(await ids()).toEqual(['old', 'new']);
  });

  it('leaves the old vault intact when the rename fails', async () => {
    await saveVaultEntry(file, sampleEntry('old'));
    const before = await readFile(file);
    const fs: VaultFs = {
      ...nodeVaultFs,
      renameSync: () => {
        throw Object.assign(new Error('cross-device link'), { code: 'EXDEV' });
      },
    };
    await expect(saveVaultEntry(file, sampleEntry('new'), { fs })).rejects.toMatchObject({ code: 'PCC_VAULT_WRITE' });
    expect((await readFile(file)).equals(before)).toBe(true);
    expect(await readdir(dir)).toEqual(['vault.json']);
  });

  it('refuses to write over a malformed vault and leaves it untouched', async () => {
    const text = '{"version":1,"pairings":[{"key":"x|y","credentials":{"client_secret":"only copy"}}]}';
    await writeFile(file, text, { mode: 0o600 });
    const error = await saveVaultEntry(file, sampleEntry('a')).catch((e: unknown) => e);
    expect(isToolkitError(error) && error.code).toBe('PCC_VAULT_INVALID');
    expect((error as Error).message).toMatch(/pairings\[0\]\.baseUrl must be a string/);
    expect(await readFile(file, 'utf8')).toBe(text);
    expect(await readdir(dir)).toEqual(['vault.json']);
  });

  it('holds the lock for no turn of the event loop: code that runs between two turns never finds it', async () => {
    // A worker's other tests run between turns; a save that gave them turns held the lock through them.
    let seen = 0;
    let turns = 0;
    let saving = true;
    const watch = () => {
      turns++;
      if (existsSync(`${file}.lock`)) seen++;
      if (saving) setImmediate(watch);
    };
    setImmediate(watch);
    // Started in turns of their own, as the lanes of a worker pair their terminals: the saves of group
    // g (i % 3) start in the loop's turn g + 1, each after the watch's own run in that turn, so the
    // watch has had at least three turns by the time the last save ends (timers of 0-2 ms once let
    // every save start and end within two turns, and the count below fail).
    const inTurn = (n: number, f: () => void): void => void setImmediate(() => (n === 0 ? f() : inTurn(n - 1, f)));
    await Promise.all(
      Array.from(
        { length: 10 },
        (_, i) => new Promise((saved) => inTurn(i % 3, () => void saveVaultEntry(file, sampleEntry(`p${i}`)).then(saved))),
      ),
    );
    saving = false;
    expect(turns).toBeGreaterThan(2);
    expect(seen).toBe(0);
    expect(await ids()).toHaveLength(10);
  });

  it('serialises concurrent saves of one process: none is lost', async () => {
    await Promise.all(Array.from({ length: 20 }, (_, i) => saveVaultEntry(file, sampleEntry(`p${i}`))));
    expect((await ids()).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `p${i}`).sort());
    expect(await readdir(dir)).toEqual(['vault.json']);
  });
});

describe('keeping the vault out of git', () => {
  const gitignore = (d: string) => readFile(join(d, '.gitignore'), 'utf8').catch(() => undefined);

  it('puts a .gitignore of * in a directory it creates, and in .payconnect/', async () => {
    const made = join(dir, 'new', 'place');
    await saveVaultEntry(join(made, 'vault.json'), sampleEntry('a'));
    expect(await gitignore(made)).toMatch(/^\*$/m);
    const dot = join(dir, '.payconnect');
    await import('node:fs/promises').then((f) => f.mkdir(dot));
    await saveVaultEntry(join(dot, 'vault.json'), sampleEntry('a'));
    expect(await gitignore(dot)).toMatch(/^\*$/m);
  });

  it('leaves a directory the user keeps, and a .gitignore already there, as they are', async () => {
    await saveVaultEntry(file, sampleEntry('a'));
    expect(await gitignore(dir)).toBeUndefined();
    const dot = join(dir, '.payconnect');
    await import('node:fs/promises').then((f) => f.mkdir(dot));
    await writeFile(join(dot, '.gitignore'), 'mine\n');
    await saveVaultEntry(join(dot, 'vault.json'), sampleEntry('a'));
    expect(await gitignore(dot)).toBe('mine\n');
  });
});
