/**
 * The Allure generator's modules as one file (dist/allure/modules.js and its manifest, made by
 * scripts/build-allure.mjs): loaded in about half the CPU time of Allure's 470 modules, the report
 * the same. Used only where the installed packages are the ones it was built from; anywhere else
 * (no build, another Allure installed since, another layout of node_modules) the generator imports
 * the installed packages, as `allure generate` does.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PACKAGE_ROOT, ToolkitError } from '../core/index.ts';

/** What the generator is given to load the bundle (as one argument, JSON). */
export interface AllureBundle {
  /** The bundle's file URL. */
  url: string;
  /** The installed folder (a file URL ending in `/`) of each package whose files ask for their URL. */
  packages: Record<string, string>;
}

/** Why the installed packages are not the bundle's, when they are not. */
export type AllureBundleFound = { bundle: AllureBundle; why?: undefined } | { bundle?: undefined; why: string };

interface Manifest {
  allure: string;
  packages: Record<string, { version: string; dir: string }>;
}

function isManifest(value: unknown): value is Manifest {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Partial<Manifest>;
  return (
    typeof m.allure === 'string' &&
    typeof m.packages === 'object' &&
    m.packages !== null &&
    Object.values(m.packages).every((p) => typeof p?.version === 'string' && typeof p.dir === 'string')
  );
}

/** A package.json's name and version, or undefined where there is none. */
function installed(dir: string): { name?: unknown; version?: unknown } | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
  } catch {
    return undefined;
  }
}

/**
 * The bundle under `root`'s dist/allure/, checked against the `allure` package installed in
 * `allurePackage` and the packages the manifest names (each at its folder relative to that one).
 * @throws ToolkitError PCC_INTERNAL when the manifest is there but not one the build writes
 */
export function findAllureBundle(allurePackage: string, root: string = PACKAGE_ROOT): AllureBundleFound {
  const dir = join(root, 'dist', 'allure');
  const manifestFile = join(dir, 'manifest.json');
  const file = join(dir, 'modules.js');
  if (!existsSync(manifestFile) || !existsSync(file)) return { why: `no bundle in ${dir} (npm run build makes it)` };
  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
  } catch (e) {
    throw new ToolkitError('PCC_INTERNAL', `${manifestFile} cannot be read: ${(e as Error).message}`, 'run npm run build again', {
      cause: e,
    });
  }
  if (!isManifest(manifest))
    throw new ToolkitError('PCC_INTERNAL', `${manifestFile} is not a manifest the build writes`, 'run npm run build again');
  const allure = installed(allurePackage)?.version;
  if (allure !== manifest.allure) return { why: `allure ${String(allure)} is installed, the bundle is of ${manifest.allure}` };
  const packages: Record<string, string> = {};
  for (const [name, { version, dir: rel }] of Object.entries(manifest.packages)) {
    const at = resolve(allurePackage, rel);
    const found = installed(at);
    if (found?.name !== name || found.version !== version)
      return { why: `${at} holds ${String(found?.name)} ${String(found?.version)}, the bundle has ${name} ${version}` };
    packages[name] = pathToFileURL(at + sep).href;
  }
  return { bundle: { url: pathToFileURL(file).href, packages } };
}
