/** Test helpers of this folder: temporary folders with config files in them. Not exported by the barrel. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import type { ToolkitError } from '../core/errors.ts';
import { resolveConfig } from './resolve.ts';
import type { ResolvedConfig, UserConfig } from './types.ts';

/** The absolute path of this folder's barrel, for config files that import defineConfig. */
export const CONFIG_INDEX = fileURLToPath(new URL('./index.ts', import.meta.url));

/** A fresh temporary folder holding `files` (name -> content); `cleanup` removes it. */
export async function tempDirWith(files: Record<string, string>): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'pcc-config-'));
  for (const [name, content] of Object.entries(files)) await writeFile(join(dir, name), content);
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Temporary folders removed after each test of the calling file. */
export function useTempDirs() {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(cleanups.splice(0).map((c) => c()));
  });
  async function dirWith(files: Record<string, string>): Promise<string> {
    const { dir, cleanup } = await tempDirWith(files);
    cleanups.push(cleanup);
    return dir;
  }
  return {
    dirWith,
    emptyDir: () => dirWith({}),
    /** A folder with a config file exporting `config` (or holding the raw `source`). */
    dirWithConfig: (config: UserConfig | string, name = 'payconnect.config.mjs') =>
      dirWith({ [name]: typeof config === 'string' ? config : `export default ${JSON.stringify(config)};` }),
  };
}

/** The rejection of `promise`; fails the test when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<ToolkitError> {
  try {
    await promise;
  } catch (e) {
    return e as ToolkitError;
  }
  throw new Error('expected a rejection');
}

/** resolveConfig in `cwd`. */
export function resolveIn(cwd: string, argv: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<ResolvedConfig> {
  return resolveConfig({ argv, env, cwd });
}

/** The error resolveConfig throws in `cwd`. */
export function failure(cwd: string, argv: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<ToolkitError> {
  return rejection(resolveIn(cwd, argv, env));
}
