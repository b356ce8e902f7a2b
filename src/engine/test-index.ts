/**
 * The names of every test the installed suites declare, written by the build beside dist/ so that
 * `verify-certificate` does not start vitest to collect them (3 of its 3.7 s). The index names the
 * suite files it was collected from by their fingerprint: when they changed since (a suite edited
 * without a build), the names are collected again, as without an index.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { collectTestNames } from './collect-tests.ts';

/** Where the build writes the index, relative to the package root. */
export const TEST_INDEX_FILE = 'dist/test-index.json';

interface TestIndex {
  /** {@link suitesFingerprint} of the files the names were collected from. */
  suites: string;
  /** Every test of every suite, `capability > scenario`, sorted. */
  tests: string[];
}

/** SHA-256 over the path and content of every file under suites/, in a fixed order. */
export function suitesFingerprint(root: string): string {
  const dir = join(root, 'suites');
  const files = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
  const hash = createHash('sha256');
  for (const file of files) hash.update(relative(dir, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

/** Collects every test's name and writes the index (the build calls it once dist/ is compiled). */
export async function writeTestIndex(root: string): Promise<number> {
  const index: TestIndex = { suites: suitesFingerprint(root), tests: await collectTestNames() };
  writeFileSync(join(root, TEST_INDEX_FILE), `${JSON.stringify(index, null, 1)}\n`);
  return index.tests.length;
}

/** Every test's name: from the build's index while the suites are those it was collected from, else collected now. */
export async function declaredTestNames(root: string): Promise<string[]> {
  try {
    const index = JSON.parse(readFileSync(join(root, TEST_INDEX_FILE), 'utf8')) as Partial<TestIndex>;
    if (index.suites === suitesFingerprint(root) && Array.isArray(index.tests)) return index.tests;
  } catch {
    /* no index (running from the sources), or an unreadable one: collect */
  }
  return collectTestNames();
}
