/**
 * `run`: one conformance run against one target. Starts the embedded simulator for `sim`, checks a URL
 * target is allowed and reachable, runs the vitest suites in one worker with the run context, and
 * writes summary.json. Never calls process.exit: it returns the exit code.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startVitest } from 'vitest/node';
import type { ResolvedConfig } from '../config/index.ts';
import { ToolkitError } from '../core/index.ts';
import { resolveProfile } from '../profile/index.ts';
import { CollectorReporter, type RunRecord, type Summary, type TestRecord, buildSummary, exitCodeFor, writeReportFile } from '../report/index.ts';
import { RUN_CONTEXT_KEY, type RunContext } from '../runtime/index.ts';
import { type SimulatorHandle, startSimulator } from '../simulator/index.ts';
import { assertReachable, assertTargetAllowed } from '../targets/index.ts';

/** The package root (suites live under it, wherever the user runs from). */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The tool's name and version, from package.json. */
export function toolInfo(): { name: string; version: string } {
  const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
  return { name: pkg.name, version: pkg.version };
}

/** Where output goes; tests capture it. */
export interface RunIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  /** Whether a person can be prompted. */
  interactive: boolean;
}

export interface RunResult {
  exitCode: 0 | 1 | 2;
  summary: Summary;
  record: RunRecord;
  /** The simulator's base URL or the target's. */
  baseUrl: string;
}

/** The suite folders a run includes. */
export const ALL_SUITES = ['pairing', 'auth', 'config', 'payment', 'cancel', 'preauth', 'print-slip', 'webhooks', 'isolation', 'refund', 'properties', 'stateful'];

interface OpenTarget {
  baseUrl: string;
  integratorId: string;
  vaultPath: string;
  sandbox: boolean;
  mintOtps: boolean;
  close(): Promise<void>;
}

async function openTarget(config: ResolvedConfig): Promise<OpenTarget> {
  const profile = resolveProfile(config.profile);
  if (config.target.kind === 'pact') {
    throw new ToolkitError('PCC_USAGE', 'the pact target is not built yet', 'use --target sim or --target <base url>');
  }
  if (config.target.kind === 'sim') {
    let sim: SimulatorHandle;
    try {
      sim = await startSimulator({ host: '127.0.0.1', port: 0, seed: config.seed, faults: config.sim.faults as never, stepDelayMs: config.sim.stepDelayMs, deadlineMs: config.sim.deadlineMs });
    } catch (e) {
      throw new ToolkitError('PCC_SIMULATOR', `the embedded simulator did not start: ${(e as Error).message}`, 'check the --sim-* settings', { cause: e });
    }
    // The simulator forgets everything when it stops, so its pairings go to a throw-away vault.
    const dir = mkdtempSync(join(tmpdir(), 'pcc-sim-vault-'));
    return {
      baseUrl: sim.url,
      integratorId: config.integratorId ?? sim.integratorId,
      vaultPath: join(dir, 'vault.json'),
      sandbox: true,
      mintOtps: true,
      close: async () => {
        await sim.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const baseUrl = config.target.baseUrl;
  assertTargetAllowed(baseUrl, profile, config.allowProduction);
  if (!config.integratorId) throw new ToolkitError('PCC_USAGE', 'a URL target needs --integrator-id', 'pass --integrator-id <id> (issued by the vendor), or set PAYCONNECT_INTEGRATOR_ID');
  await assertReachable(baseUrl);
  return { baseUrl, integratorId: config.integratorId, vaultPath: config.vaultPath, sandbox: config.profile === 'sandbox', mintOtps: config.profile === 'sandbox', close: async () => {} };
}

function suiteGlobs(suites: string[]): string[] {
  const names = suites.length > 0 ? suites : ALL_SUITES;
  return names.map((s) => `suites/${s}/**/*.suite.ts`);
}

/** Runs the suites against the configured target and writes the summary. */
export async function runConformance(config: ResolvedConfig, io: RunIo, hooks: { onTest?: (t: TestRecord) => void } = {}): Promise<RunResult> {
  const target = await openTarget(config);
  try {
    const ctx: RunContext = {
      targetKind: config.target.kind,
      baseUrl: target.baseUrl,
      integratorId: target.integratorId,
      profile: config.profile,
      strict: config.strict,
      terminal: config.terminal,
      interactive: io.interactive,
      deadlineMs: config.deadlineMs,
      settleMs: config.target.kind === 'sim' ? Math.max(150, config.sim.stepDelayMs * 4) : 1000,
      seed: config.seed,
      runs: config.runs,
      vaultPath: target.vaultPath,
      otps: config.otps,
      mintOtps: target.mintOtps,
      webhookListen: config.webhookListen,
      webhookPublicUrl: config.webhookPublicUrl,
      maxAmount: config.maxAmount,
      sandbox: target.sandbox,
      timeoutMs: 10_000,
    };
    const collector = new CollectorReporter(hooks.onTest);
    const perTest = config.terminal === 'manual' ? 30 * 60_000 : Math.max(60_000, config.deadlineMs * 6);
    const vitest = await startVitest(
      'test',
      [],
      {
        watch: false,
        config: false,
        root: PACKAGE_ROOT,
        include: suiteGlobs(config.suites),
        reporters: [collector],
        provide: { [RUN_CONTEXT_KEY]: ctx } as never,
        pool: 'forks',
        maxWorkers: 1,
        fileParallelism: false,
        isolate: false,
        testTimeout: perTest,
        hookTimeout: perTest,
        passWithNoTests: false,
        silent: true,
      },
      { logLevel: 'silent', server: { watch: null } },
      { stdout: devNull(), stderr: devNull() },
    );
    await vitest.close();
    const record = collector.record();
    if (record.tests.length === 0 && record.unhandled.length === 0) {
      record.unhandled.push(`no test ran (suites: ${config.suites.join(', ') || 'all'})`);
    }
    const summary = buildSummary(record, toolInfo(), { kind: config.target.kind, baseUrl: target.baseUrl });
    writeReportFile(join(config.reportsDir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
    return { exitCode: exitCodeFor(record, summary), summary, record, baseUrl: target.baseUrl };
  } finally {
    await target.close();
  }
}

import { Writable } from 'node:stream';
function devNull(): Writable {
  return new Writable({ write: (_c, _e, cb) => cb() });
}
