import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../config/testing.ts';
import { collectTests } from './collect-tests.ts';
import { moduleCacheOptions } from './module-cache.ts';
import { cachedModuleMetadata } from './testing.ts';

const { dirWith, emptyDir } = useTempDirs();

describe('moduleCacheOptions', () => {
  it("turns the cache on in the root's node_modules/.cache, making the folder", async () => {
    const root = await emptyDir();
    const options = await moduleCacheOptions(root);
    expect(options.experimental?.fsModuleCache).toBe(true);
    expect(options.experimental?.fsModuleCachePath).toBe(join(root, 'node_modules', '.cache', 'payconnect-conformance', 'modules'));
    expect(existsSync(options.experimental!.fsModuleCachePath)).toBe(true);
  });

  it('leaves it off where the folder cannot be made: runs transform as before', async () => {
    const root = await dirWith({ node_modules: 'a file where the folder would go' });
    expect(await moduleCacheOptions(root)).toEqual({});
  });

  it('takes the folder PAYCONNECT_MODULE_CACHE names, or none when it says off', async () => {
    const root = await emptyDir();
    const named = join(root, 'ci-cache');
    expect((await moduleCacheOptions(root, { PAYCONNECT_MODULE_CACHE: named })).experimental?.fsModuleCachePath).toBe(named);
    expect(existsSync(named)).toBe(true);
    expect(await moduleCacheOptions(root, { PAYCONNECT_MODULE_CACHE: 'off' })).toEqual({});
    expect(existsSync(join(root, 'node_modules'))).toBe(false);
  });

  it('refuses a named folder it cannot write, saying how to fix it', async () => {
    const root = await dirWith({ file: '' });
    await expect(moduleCacheOptions(root, { PAYCONNECT_MODULE_CACHE: join(root, 'file', 'cache') })).rejects.toMatchObject({
      code: 'PCC_USAGE',
      hint: expect.stringContaining('PAYCONNECT_MODULE_CACHE=off'),
    });
  });

  it("refuses a folder under /proc at once (Node's recursive mkdir spins there forever)", async () => {
    await expect(moduleCacheOptions(await emptyDir(), { PAYCONNECT_MODULE_CACHE: '/proc/pcc-module-cache' })).rejects.toMatchObject({
      code: 'PCC_USAGE',
    });
  }, 10_000);

  it('is what the suites are collected through: the collected suite is in the cache afterwards', async () => {
    const dir = join(await emptyDir(), 'modules');
    const before = process.env.PAYCONNECT_MODULE_CACHE;
    process.env.PAYCONNECT_MODULE_CACHE = dir;
    try {
      await collectTests(['config']);
    } finally {
      if (before === undefined) delete process.env.PAYCONNECT_MODULE_CACHE;
      else process.env.PAYCONNECT_MODULE_CACHE = before;
    }
    expect(cachedModuleMetadata(dir).some((meta) => meta.includes('/suites/config/config.suite.ts'))).toBe(true);
  }, 60_000);
});
