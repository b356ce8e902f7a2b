// The Allure generator's modules in one file (dist/allure/modules.js), built by scripts/build.mjs.
//
// Why: the report's generator (src/report/allure-html.ts) imports Allure's core and its two plugins,
// some 470 modules of 2.4 MB. Node 20's ES module loader resolves, reads and links each one, and
// has no compile cache: 1.0-1.2 CPU-s of every run, spent while the tests compete for the cores.
// The same code as one file loads in 0.45-0.55 CPU-s, and the report it makes is the same (its
// tests: src/report/allure-html.test.ts). No library does this for a dependency of a dependency:
// esbuild bundles, and the two things a bundle changes are handled here and in the generator.
//
// - `import.meta.url`: Allure finds files of its own packages from it (its web app's archive, its
//   version). In the bundle every file would have the bundle's URL, so each use is replaced by the
//   URL the file has in its installed package, given to the bundle when it is loaded.
// - Plugins: Allure imports each plugin of the config by name when the config is resolved; from
//   the bundle the generator makes the plugins' instances itself from the bundled classes.
//
// The manifest beside it names, for each package whose files ask for their URL, its version and its
// folder relative to the `allure` package's folder. The generator uses the bundle only where the
// installed packages are exactly those (src/report/allure-bundle.ts); anywhere else (another Allure
// installed without a build, another layout of node_modules) it imports Allure as before.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';

/** The packages the bundle exports, by the plugin key a config gives them under (`awesome`, `agent`). */
const ENTRY = [
  "export * as core from '@allurereport/core';",
  "export { default as awesome } from '@allurereport/plugin-awesome';",
  "export { default as agent } from '@allurereport/plugin-agent';",
].join('\n');

/** The package that holds `file`: its name, version and folder. */
function packageOf(file) {
  for (let dir = dirname(file); ;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const { name, version } = JSON.parse(readFileSync(manifest, 'utf8'));
      if (name && version) return { name, version, dir };
    }
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${file}`);
    dir = up;
  }
}

const posix = (path) => path.split(sep).join('/');

/** Builds dist/allure/ under `root` (the package's folder) with `esbuild`. */
export async function buildAllureBundle(root, esbuild) {
  // As allureCliPath (src/report/allure-html.ts) finds it: `allure` exports no package.json.
  const allurePackage = join(dirname(createRequire(join(root, 'package.json')).resolve('allure')), '..');
  const anchors = {};
  const metaUrl = {
    name: 'installed-import-meta-url',
    setup(build) {
      build.onLoad({ filter: /[\\/]node_modules[\\/].*\.(?:m?js|cjs)$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes('import.meta.url')) return undefined;
        const pkg = packageOf(args.path);
        const seen = anchors[pkg.name];
        const dir = posix(relative(allurePackage, pkg.dir));
        if (seen && (seen.version !== pkg.version || seen.dir !== dir))
          throw new Error(`two copies of ${pkg.name} (${seen.dir}, ${dir}) ask for their URL: the bundle could not tell them apart`);
        anchors[pkg.name] = { version: pkg.version, dir };
        const file = JSON.stringify(posix(relative(pkg.dir, args.path)));
        return {
          contents: text.replaceAll('import.meta.url', `__pccInstalledUrl(${JSON.stringify(pkg.name)}, ${file})`),
          loader: 'js',
          resolveDir: dirname(args.path),
        };
      });
    },
  };
  const out = join(root, 'dist', 'allure');
  mkdirSync(out, { recursive: true });
  await esbuild.build({
    stdin: { contents: ENTRY, resolveDir: allurePackage, loader: 'js', sourcefile: 'allure-modules-entry.js' },
    outfile: join(out, 'modules.js'),
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // The CommonJS packages among them call require() for Node's own modules.
    banner: {
      js: [
        "import { createRequire as __pccCreateRequire } from 'node:module';",
        'const require = __pccCreateRequire(import.meta.url);',
        // The URL a bundled file has in its installed package: its package's folder, as the generator gives it.
        'const __pccInstalledUrl = (name, file) => {',
        '  const dir = globalThis.__pccAllurePackages?.[name];',
        '  if (!dir) throw new Error(`the Allure bundle was loaded without the folder of ${name}`);',
        '  return new URL(file, dir).href;',
        '};',
      ].join('\n'),
    },
    plugins: [metaUrl],
    logLevel: 'warning',
  });
  const { version } = JSON.parse(readFileSync(join(allurePackage, 'package.json'), 'utf8'));
  writeFileSync(join(out, 'manifest.json'), `${JSON.stringify({ allure: version, packages: anchors }, null, 2)}\n`);
}
