/**
 * A path relative to a module's own place (`new URL('../../x', import.meta.url)`) means the same in
 * src/ and in the build's bundles only in a module two folders down (src/<room>/<file>.ts, as
 * dist/bundle/<chunk>.js is): one deeper or shallower would point elsewhere once bundled.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { expect, it } from 'vitest';
import { PACKAGE_ROOT } from './package-root.ts';

const SRC = join(PACKAGE_ROOT, 'src');
const RELATIVE_TO_MODULE = /new URL\(\s*['"`]\.{1,2}\/[^'"`]*['"`]\s*,\s*import\.meta\.url\s*\)/;

it('is the folder of package.json and the contract', () => {
  expect(JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')).name).toBe('payconnect-conformance');
  expect(existsSync(join(PACKAGE_ROOT, 'contracts', 'pay-connect.openapi.yaml'))).toBe(true);
});

it('is what every path relative to a module is found from: only modules two folders down use such paths', () => {
  const modules = readdirSync(SRC, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
  const relativeUsers = modules.filter((f) => RELATIVE_TO_MODULE.test(readFileSync(join(SRC, f), 'utf8')));
  // The pattern finds what it is meant to (this module's own definition among them).
  expect(relativeUsers).toContain(join('core', 'package-root.ts'));
  const misplaced = relativeUsers.filter((f) => relative(SRC, join(SRC, f)).split(sep).length !== 2);
  expect(misplaced, 'use PACKAGE_ROOT (core/package-root.ts) in these instead').toEqual([]);
});
