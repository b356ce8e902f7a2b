/**
 * Where vitest keeps the suites' transformed modules between runs (its `experimental.fsModuleCache`).
 * Without it every run's process loads Vite's transform pipeline (rolldown and its native binding)
 * and transforms the suites again: a full sim run's largest process is about 90 MB bigger and spends
 * over a CPU-second more. An entry is keyed by the file's content, its id, the resolve settings (the
 * built harness's aliases among them) and NODE_ENV, and written atomically, so runs at once share it
 * safely.
 *
 * The folder is the package's own `node_modules/.cache/payconnect-conformance/modules` (a reinstall
 * empties it); where that cannot be written (a read-only install), runs transform as before.
 * `PAYCONNECT_MODULE_CACHE` names another folder (one a CI cache keeps), or `off`.
 */
import { access, constants } from 'node:fs/promises';
import { resolve } from 'node:path';
import { MODULE_CACHE_ENV, ToolkitError, makeDirs, packageCacheDir } from '../core/index.ts';

/** Makes `dir` (as every folder the toolkit makes: makeDirs) and tells whether this process can write in it. */
async function writable(dir: string): Promise<boolean> {
  try {
    await makeDirs(dir);
    await access(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The vitest options that turn the module cache on: in the folder `PAYCONNECT_MODULE_CACHE` names
 * (a folder it names that cannot be written is a usage error), else in `root`'s cache folder when it
 * can be written; none when it is `off` or the default folder cannot be written.
 */
export async function moduleCacheOptions(
  root: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ experimental?: { fsModuleCache: true; fsModuleCachePath: string } }> {
  const named = env[MODULE_CACHE_ENV]?.trim();
  if (named === 'off') return {};
  if (named) {
    const dir = resolve(named);
    if (!(await writable(dir)))
      throw new ToolkitError(
        'PCC_USAGE',
        `${MODULE_CACHE_ENV}=${named}: the module cache's folder cannot be made or written`,
        `name a folder this user can write, or set ${MODULE_CACHE_ENV}=off`,
      );
    return { experimental: { fsModuleCache: true, fsModuleCachePath: dir } };
  }
  const dir = packageCacheDir('modules', root);
  return (await writable(dir)) ? { experimental: { fsModuleCache: true, fsModuleCachePath: dir } } : {};
}

/**
 * Sets NODE_ENV as vitest's own start (`startVitest`, which a run uses) does before it creates its
 * server, for a `createVitest` (a collection of the suites) to do the same: NODE_ENV is part of every
 * module-cache key, and Vite would set it to `development` instead, so the collection would fill
 * entries no run reads (the build's collection left the first run 43 of its 87 modules to transform).
 */
export function nodeEnvAsVitestStarts(env: NodeJS.ProcessEnv = process.env): void {
  env.NODE_ENV ??= 'test';
}
