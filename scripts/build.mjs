// `npm run build` (also run by `npm ci` through `prepare`): compiles src/ to dist/ (JavaScript and
// .d.ts) with tsc (emit only: type errors are typecheck's), indexes the suites' test names
// (dist/test-index.json, for verify-certificate), then records which sources it was built from. The
// command runs dist/ while that record matches src/ (no TypeScript loader in the main process: half
// the memory, a faster start), and falls back to running src/ through tsx otherwise.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { STAMP_FILE, sourceStamp } from '../bin/source-stamp.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
rmSync(join(root, 'dist'), { recursive: true, force: true });
// Emit only: `npm run typecheck` (a step of CI) checks the same sources and the tests with them, so
// checking here again cost every install a third of its build (8.9 -> 5.8 s, the output byte for byte
// the same).
execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), '--noCheck'], { stdio: 'inherit', cwd: root });
// What runs: the command line (bin/) and the entry points the suites and an integrator import, each
// bundled from the compiled files with what they share in common chunks (dynamic imports stay
// lazy, each its own chunk; packages stay imports). Node's ES module loader spends about half a
// millisecond of CPU on each module it resolves and reads, and a run loads some 300 of ours in its
// own process and 200 in each worker. Bundled, the modules a run's process loads took 440 ms of
// CPU instead of 600, and the harness's entry point (index) 135 instead of 220; the default run,
// 6 interleaved each, 14.4 CPU-s instead of 14.9. Every bundle is two folders down, as every
// module of src/ is, so a path relative to import.meta.url means the same in both
// (core/package-root.ts).
const esbuild = await import('esbuild');
await esbuild.build({
  absWorkingDir: root,
  // The suites also import the contract's table and the arbitraries from src/ (engine/built-harness.ts).
  entryPoints: {
    main: 'dist/cli/main.js',
    index: 'dist/index.js',
    suite: 'dist/suite.js',
    contract: 'dist/generated/contract.js',
    arbitraries: 'dist/arbitraries/index.js',
  },
  outdir: 'dist/bundle',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  chunkNames: 'chunk-[hash]',
  logLevel: 'warning',
});
// Every entry point package.json exports (`.`, `./suite`) is a file of the build: a missing one would
// only show in an integrator's install.
const { exports } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
for (const [entry, targets] of Object.entries(exports)) {
  for (const target of Object.values(targets)) {
    if (!existsSync(join(root, target))) throw new Error(`package.json exports ${entry} as ${target}, which the build did not write`);
  }
}
// The Allure generator's modules as one file: see scripts/build-allure.mjs. Without it the generator
// imports the installed packages (slower, the same report), so an Allure esbuild cannot bundle fails
// no install: it is said here, and src/report/allure-html.test.ts fails until the bundle is back.
const { buildAllureBundle } = await import('./build-allure.mjs');
try {
  await buildAllureBundle(root, esbuild);
} catch (e) {
  rmSync(join(root, 'dist', 'allure'), { recursive: true, force: true });
  process.stderr.write(`warning: the Allure bundle was not built (${e.message}); reports will load Allure's packages instead\n`);
}
// The suites' test names, for verify-certificate (collected once here rather than at each verification).
const { writeTestIndex } = await import(pathToFileURL(join(root, 'dist', 'engine', 'test-index.js')).href);
await writeTestIndex(root);
writeFileSync(join(root, STAMP_FILE), `${sourceStamp(root)}\n`);
