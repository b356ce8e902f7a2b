import { spawn } from 'node:child_process';
import { readdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadVault } from './load-vault.ts';
import { saveVaultEntry } from './save-vault-entry.ts';
import { sampleEntry } from './testdata/sample-entry.ts';
import { useTempVault } from './testdata/temp-vault.ts';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, '..', '..');

let dir: string;
let file: string;
useTempVault('pcc-vault-proc-', (d, f) => ((dir = d), (file = f)));

interface Child {
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
  kill(): void;
  stdout: { text: string; on(line: RegExp, cb: () => void): void };
}

function run(script: string, ...args: string[]): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'testdata', script), ...args], { cwd: repoRoot });
  let stderr = '';
  const watchers: Array<{ line: RegExp; cb: () => void }> = [];
  const stdout = { text: '', on: (line: RegExp, cb: () => void) => watchers.push({ line, cb }) };
  child.stdout.on('data', (c: Buffer) => {
    stdout.text += c.toString();
    for (const w of watchers.splice(0)) {
      if (w.line.test(stdout.text)) w.cb();
      else watchers.push(w);
    }
  });
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, stderr })),
  );
  return { done, kill: () => child.kill('SIGKILL'), stdout };
}

describe('saveVaultEntry across real processes', () => {
  it('a process that saves and is SIGKILLed at once leaves a complete 0600 vault', async () => {
    await saveVaultEntry(file, sampleEntry('before'));
    const result = await run('save-then-kill.ts', file, 'killed').done;
    expect(result.signal, result.stderr).toBe('SIGKILL');
    const loaded = await loadVault(file);
    expect(loaded.vault.pairings.map((p) => p.credentials.pay_connect_id)).toEqual(['before', 'killed']);
    expect(loaded.vault.pairings[1]!.credentials.client_secret).toBe('client-secret-killed');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('a process SIGKILLed in the middle of a stream of saves leaves a parseable vault, and saving goes on', async () => {
    const child = run('save-loop.ts', file, 'k', '100000');
    child.stdout.on(/saved 5\n/, () => child.kill());
    const result = await child.done;
    expect(result.signal, result.stderr).toBe('SIGKILL');
    const reported = Math.max(...[...child.stdout.text.matchAll(/saved (\d+)/g)].map((m) => Number(m[1])));
    const loaded = await loadVault(file);
    expect(loaded.vault.pairings.length).toBeGreaterThanOrEqual(reported);
    expect(loaded.vault.pairings.map((p) => p.credentials.pay_connect_id).slice(0, reported)).toEqual(
      Array.from({ length: reported }, (_, i) => `k-${i + 1}`),
    );
    expect(loaded.mode).toBe(0o600);
    // A lock left by the killed process must not block the next save.
    await saveVaultEntry(file, sampleEntry('after'), { lockTimeoutMs: 2000 });
    expect((await loadVault(file)).vault.pairings.at(-1)!.credentials.pay_connect_id).toBe('after');
    expect((await readdir(dir)).filter((n) => n.endsWith('.lock'))).toEqual([]);
  });

  it('two processes saving at the same time lose nothing', async () => {
    const [a, b] = [run('save-loop.ts', file, 'a', '15'), run('save-loop.ts', file, 'b', '15')];
    const results = await Promise.all([a.done, b.done]);
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const ids = (await loadVault(file)).vault.pairings.map((p) => p.credentials.pay_connect_id);
    expect(ids).toHaveLength(30);
    expect(ids.filter((id) => id.startsWith('a-'))).toEqual(Array.from({ length: 15 }, (_, i) => `a-${i + 1}`));
    expect(ids.filter((id) => id.startsWith('b-'))).toEqual(Array.from({ length: 15 }, (_, i) => `b-${i + 1}`));
    expect(await readdir(dir)).toEqual(['vault.json']);
  });
});
