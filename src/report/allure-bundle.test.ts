/**
 * The build's bundle of Allure is used only where the installed packages are the ones it was built
 * from: a package tree and a build of their own in a temporary folder.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test } from 'vitest';
import { useTempDirs } from '../config/testing.ts';
import { findAllureBundle } from './allure-bundle.ts';

const { emptyDir } = useTempDirs();

/** A package root with node_modules/allure 3.2.0 and @allurereport/core 3.2.0, and a build of theirs. */
async function installed(): Promise<{ root: string; allure: string }> {
  const root = await emptyDir();
  const pkg = (dir: string, name: string, version: string) => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, version }));
  };
  pkg(join(root, 'node_modules', 'allure'), 'allure', '3.2.0');
  pkg(join(root, 'node_modules', '@allurereport', 'core'), '@allurereport/core', '3.2.0');
  mkdirSync(join(root, 'dist', 'allure'), { recursive: true });
  writeFileSync(join(root, 'dist', 'allure', 'modules.js'), 'export {};\n');
  manifest(root, { allure: '3.2.0', packages: { '@allurereport/core': { version: '3.2.0', dir: '../@allurereport/core' } } });
  return { root, allure: join(root, 'node_modules', 'allure') };
}

function manifest(root: string, value: unknown): void {
  writeFileSync(join(root, 'dist', 'allure', 'manifest.json'), typeof value === 'string' ? value : JSON.stringify(value));
}

test('the packages it was built from: the bundle, with the folder of each package that asks for its URL', async () => {
  const { root, allure } = await installed();
  expect(findAllureBundle(allure, root)).toEqual({
    bundle: {
      url: pathToFileURL(join(root, 'dist', 'allure', 'modules.js')).href,
      packages: { '@allurereport/core': `${pathToFileURL(join(root, 'node_modules', '@allurereport', 'core')).href}/` },
    },
  });
});

test('another allure installed since the build, or a package elsewhere: the packages, and why', async () => {
  const { root, allure } = await installed();
  writeFileSync(join(allure, 'package.json'), JSON.stringify({ name: 'allure', version: '3.3.0' }));
  expect(findAllureBundle(allure, root)).toEqual({ why: 'allure 3.3.0 is installed, the bundle is of 3.2.0' });

  const other = await installed();
  // npm put core under allure's own node_modules this time: the build's relative folder holds none.
  rmSync(join(other.root, 'node_modules', '@allurereport'), { recursive: true });
  expect(findAllureBundle(other.allure, other.root).why).toMatch(
    /@allurereport[/\\]core holds undefined undefined, the bundle has @allurereport\/core 3\.2\.0/,
  );

  const renamed = await installed();
  writeFileSync(
    join(renamed.root, 'node_modules', '@allurereport', 'core', 'package.json'),
    JSON.stringify({ name: '@allurereport/core', version: '3.1.9' }),
  );
  expect(findAllureBundle(renamed.allure, renamed.root).why).toMatch(
    /holds @allurereport\/core 3\.1\.9, the bundle has @allurereport\/core 3\.2\.0/,
  );
});

test('no build: the packages; a manifest the build does not write: an error of the toolkit', async () => {
  const { root, allure } = await installed();
  rmSync(join(root, 'dist'), { recursive: true });
  expect(findAllureBundle(allure, root).why).toMatch(/^no bundle in .*npm run build makes it/);

  const broken = await installed();
  manifest(broken.root, '{"allure":');
  expect(() => findAllureBundle(broken.allure, broken.root)).toThrow(expect.objectContaining({ code: 'PCC_INTERNAL' }));
  manifest(broken.root, { allure: '3.2.0', packages: { '@allurereport/core': { version: 3 } } });
  expect(() => findAllureBundle(broken.allure, broken.root)).toThrow(/not a manifest the build writes/);
});
