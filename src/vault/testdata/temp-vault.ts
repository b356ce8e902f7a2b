/** Test helper: a fresh folder per test holding the path of a vault file, removed after the test. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';

/** Before each test makes a folder (named with `prefix`) and hands it and `<folder>/vault.json` to `use`; after it, removes it. */
export function useTempVault(prefix: string, use: (dir: string, file: string) => void): void {
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), prefix));
    use(dir, join(dir, 'vault.json'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });
}
