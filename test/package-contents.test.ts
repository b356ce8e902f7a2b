/**
 * What the package holds: the toolkit, its suites, contract and sources, but none of the project's
 * own tests or the test kits they share (src/<room>/testing.ts): those are the project's, not a user's.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

it("leaves the project's tests and test kits out of the package, and keeps what runs", async () => {
  const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: ROOT,
    maxBuffer: 64 * 1024 * 1024,
  });
  const files = (JSON.parse(stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
  expect(files.filter((f) => /\.test\.[cm]?[jt]s$/.test(f))).toEqual([]);
  expect(files.filter((f) => /(^|\/)testing\.(d\.)?[jt]s$/.test(f))).toEqual([]);
  for (const kept of [
    'bin/payconnect-conformance.js',
    'dist/bundle/main.js',
    'dist/bundle/index.js',
    'dist/bundle/suite.js',
    'src/index.ts',
    'contracts/pay-connect.openapi.yaml',
    'suites/payment/payment.suite.ts',
  ])
    expect(files).toContain(kept);
  expect(files.some((f) => f.startsWith('contracts/pacts/'))).toBe(true);
}, 60_000);
