/** Unit tests of makeDirs: mkdir -p one level at a time, failing (never spinning) where it cannot. */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeDirs } from './make-dirs.ts';

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pcc-dirs-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('makeDirs', () => {
  it('makes the missing levels with the mode, and says which was the first made', async () => {
    const deep = join(dir, 'a', 'b', 'c');
    expect(await makeDirs(deep, 0o700)).toBe(join(dir, 'a'));
    expect(statSync(deep).mode & 0o777).toBe(0o700);
    expect(await makeDirs(deep, 0o700)).toBeUndefined();
  });

  it("fails with the file system's code under a file, and under /proc, where recursive mkdir spins", async () => {
    writeFileSync(join(dir, 'f'), '');
    await expect(makeDirs(join(dir, 'f', 'x'))).rejects.toMatchObject({ code: 'ENOTDIR' });
    await expect(makeDirs('/proc/pcc-no-such/x')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
