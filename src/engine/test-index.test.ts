import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { TEST_INDEX_FILE, declaredTestNames, suitesFingerprint } from './test-index.ts';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

/** A package root with one suite file and an index of `tests` collected from it as it was. */
function rootWithIndex(tests: string[]): string {
  const root = mkdtempSync(join(tmpdir(), 'pcc-test-index-'));
  roots.push(root);
  mkdirSync(join(root, 'suites', 'config'), { recursive: true });
  mkdirSync(join(root, 'dist'));
  writeFileSync(join(root, 'suites', 'config', 'config.suite.ts'), 'export {};\n');
  writeFileSync(join(root, TEST_INDEX_FILE), JSON.stringify({ suites: suitesFingerprint(root), tests }));
  return root;
}

it("reads the names from the build's index while the suites are those it was collected from", async () => {
  const root = rootWithIndex(['config > from the index']);
  expect(await declaredTestNames(root)).toEqual(['config > from the index']);
});

it('collects the names again once a suite file changed since the index was written', async () => {
  const root = rootWithIndex(['config > from the index']);
  writeFileSync(join(root, 'suites', 'config', 'config.suite.ts'), 'export {}; // edited\n');
  const names = await declaredTestNames(root);
  expect(names).not.toContain('config > from the index');
  expect(names.length).toBeGreaterThan(100);
  expect(names.some((n) => n.startsWith('config > '))).toBe(true);
}, 60_000);

it('collects them when there is no index (running from the sources)', async () => {
  const root = rootWithIndex([]);
  rmSync(join(root, TEST_INDEX_FILE));
  expect((await declaredTestNames(root)).length).toBeGreaterThan(100);
}, 60_000);
