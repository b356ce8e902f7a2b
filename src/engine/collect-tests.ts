/**
 * The tests the installed suites declare, by name (`capability > scenario`), read from vitest's
 * collection (nothing runs): the complete set a certificate of this toolkit version must list.
 */
import { Writable } from 'node:stream';
import { createVitest } from 'vitest/node';
import { SUITE_NAMES } from '../config/index.ts';
import { META_KEY, type TestMeta } from '../core/index.ts';
import { capabilityOfFile } from '../report/index.ts';
import { RUN_CONTEXT_KEY, type RunContext } from '../runtime/index.ts';
import { PACKAGE_ROOT } from './run-conformance.ts';

const devNull = () => new Writable({ write: (_c, _e, cb) => cb() });

/** The names of every test of `suites` (default: all), sorted. */
export async function collectTestNames(suites: readonly string[] = SUITE_NAMES, kind: RunContext['targetKind'] = 'sim'): Promise<string[]> {
  // Enough of a run's context for the suites to declare their tests; nothing is reached.
  const ctx = {
    targetKind: kind, baseUrl: 'http://127.0.0.1:9', integratorId: 'collect', profile: 'sandbox', strict: false, terminal: 'auto', interactive: false,
    deadlineMs: 1500, settleMs: 80, webhookGraceMs: 1000, seed: 1, runs: 1, vaultPath: '', otps: [], mintOtps: false,
    webhookListen: { host: '127.0.0.1', port: 0 }, maxAmount: 100, timeoutMs: 10_000, transport: {}, workers: 1, vaultPairings: [],
  } as unknown as RunContext;
  const vitest = await createVitest('test', {
    watch: false, config: false, root: PACKAGE_ROOT, include: suites.map((s) => `suites/${s}/**/*.suite.ts`), reporters: [],
    provide: { [RUN_CONTEXT_KEY]: ctx } as never, pool: 'forks', maxWorkers: 1, isolate: false, silent: true, passWithNoTests: true,
  }, { logLevel: 'silent', server: { watch: null } }, { stdout: devNull(), stderr: devNull() });
  try {
    const { testModules } = await vitest.collect();
    const names = testModules.flatMap((m) => [...m.children.allTests()].map((tc) => {
      const meta = (tc.meta() as Record<string, unknown>)[META_KEY] as TestMeta | undefined;
      return `${meta?.capability ?? capabilityOfFile(m.moduleId)} > ${tc.name}`;
    }));
    return [...new Set(names)].sort();
  } finally {
    await vitest.close();
  }
}
