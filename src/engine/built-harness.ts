/**
 * How the suites reach the harness they import, one way for a run and for a collection of the suites
 * (collect-tests.ts): both then read and fill the same module-cache entries (module-cache.ts; vitest
 * keys an entry by the resolve settings too), so the build's collection, writing
 * dist/test-index.json, leaves every suite module a run transforms in the cache, and the first run
 * after a build is no bigger than the next ones.
 */
import { join } from 'node:path';

/** Whether this engine runs built (dist/, JavaScript) rather than from its TypeScript sources. */
const RUNNING_BUILT = import.meta.url.endsWith('.js');

/** What vitest (`test`) and Vite (`vite`) are given for it. */
export interface HarnessLoading {
  test: { server?: { deps: { external: RegExp[] } } };
  vite: { resolve?: { alias: { find: RegExp; replacement: string }[] } };
}

/**
 * Running built, the workers load the harness the suites import (src/index.ts) from the same build
 * under `root`, natively, instead of transforming some 300 TypeScript modules in every worker: the
 * build's files are external to Vite, and the suites' imports of the package's entry points resolve to
 * its bundles of them (dist/bundle/, as the package exports them: one module each and the chunks
 * they share with the command line, rather than 200 modules for Node's loader to resolve). The
 * suites and their setup stay TypeScript. From the sources, nothing changes.
 */
export function harnessLoading(root: string, built: boolean = RUNNING_BUILT): HarnessLoading {
  if (!built) return { test: {}, vite: {} };
  const dist = join(root, 'dist');
  return {
    test: { server: { deps: { external: [new RegExp(`^${dist.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[\\/]`)] } } },
    // Aliases match the import as written: the suites reach the harness through the package's entry
    // points, (../)+src/index.ts and (../)+src/suite.ts (the suite runtime), and import the contract's
    // table and the arbitraries from src/ too: each is a bundle of its own sharing the harness's
    // chunks, so a worker evaluates the generated validators once, natively, not a second copy
    // through Vite's module runner.
    vite: {
      resolve: {
        alias: [
          { find: /^(?:\.\.\/)+src\/(index|suite)\.ts$/, replacement: join(dist, 'bundle', '$1.js') },
          { find: /^(?:\.\.\/)+src\/generated\/contract\.ts$/, replacement: join(dist, 'bundle', 'contract.js') },
          { find: /^(?:\.\.\/)+src\/arbitraries\/index\.ts$/, replacement: join(dist, 'bundle', 'arbitraries.js') },
        ],
      },
    },
  };
}
