/**
 * The package root (package.json, the contract, the suites), wherever the user runs from. Every
 * file the toolkit reads beside its code is found from here: the build's bundles (dist/bundle/, see
 * scripts/build.mjs) hold modules of every folder, so a path relative to a module's own place is
 * right only in a module two folders down (src/<room>/<file>.ts, dist/bundle/<chunk>.js), which
 * this one is (package-root.test.ts holds the others to it).
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The environment variable naming the folder of the suites' module cache (engine/module-cache.ts), or
 * `off`, which turns off the compiled config files' cache (config/file.ts) with it.
 */
export const MODULE_CACHE_ENV = 'PAYCONNECT_MODULE_CACHE';

/** The folder of the toolkit's cache of `kind` in the package `root`: its own node_modules/.cache (a reinstall empties it). */
export function packageCacheDir(kind: 'modules' | 'config', root: string = PACKAGE_ROOT): string {
  return join(root, 'node_modules', '.cache', 'payconnect-conformance', kind);
}
