/**
 * The package root (package.json, the contract, the suites), wherever the user runs from. Every
 * file the toolkit reads beside its code is found from here: the build's bundles (dist/bundle/, see
 * scripts/build.mjs) hold modules of every folder, so a path relative to a module's own place is
 * right only in a module two folders down (src/<room>/<file>.ts, dist/bundle/<chunk>.js), which
 * this one is (package-root.test.ts holds the others to it).
 */
import { fileURLToPath } from 'node:url';

export const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));
