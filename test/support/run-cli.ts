/**
 * Runs the real command line in a child process (never vitest inside vitest) and reads what it wrote.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'bin', 'payconnect-conformance.js');

export interface Summary {
  tool: { name: string; version: string };
  target: { kind: string; baseUrl: string };
  verdict: 'pass' | 'fail';
  counts: { tests: number; passed: number; failed: number; skipped: number; failures: number; warnings: number };
  findings: { check: string; severity: 'failure' | 'warning'; clause: string; message: string; test: string; evidence: unknown }[];
  /** The tests a time budget stopped (summary.ts). */
  incomplete?: { reason: string; tests: string[] };
  /** How a URL target was reached (core/connection-info.ts). */
  connection?: {
    trust: string;
    verification: 'on' | 'off';
    clientCertificate?: string;
    proxy?: { http?: string; https?: string; noProxy?: string };
  };
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  reportsDir: string;
  summary?: Summary;
}

/** Temporary folders made by the test file importing this module: removed after its tests (a run's reports are tens of MB). */
const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh temporary folder, removed after the test file's tests. */
export function tempDir(prefix = 'pcc-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** The environment of a child the tests start as a user would: this one's, without vitest's own, and `env` over it. */
export function childEnv(env: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...process.env, VITEST: undefined, VITEST_WORKER_ID: undefined, VITEST_POOL_ID: undefined, NODE_OPTIONS: undefined, ...env };
}

/**
 * `payconnect-conformance <args>`; for `run`, `--reports` defaults to a fresh temp folder and the
 * summary is read back. The child is killed if it outlives `timeoutMs`.
 */
export function runCli(args: string[], opts: { env?: NodeJS.ProcessEnv; timeoutMs?: number; cwd?: string } = {}): Promise<CliResult> {
  const isRun = args[0] === 'run';
  const reportsDir = isRun && !args.includes('--reports') ? tempDir('pcc-reports-') : (args[args.indexOf('--reports') + 1] ?? '');
  const full = isRun && !args.includes('--reports') ? [...args, '--reports', reportsDir] : args;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...full], {
      cwd: opts.cwd ?? ROOT,
      env: childEnv(opts.env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 170_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const file = join(reportsDir, 'summary.json');
      const summary = isRun && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Summary) : undefined;
      resolve({ code, signal, stdout, stderr, reportsDir, summary });
    });
  });
}
