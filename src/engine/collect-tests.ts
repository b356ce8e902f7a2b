/**
 * The tests the installed suites declare, read from vitest's collection (nothing runs): by name
 * (`capability > scenario`), the complete set a certificate of this toolkit version must list, and
 * with what each declares it needs of a run, so which tests a run will skip, and why, is known
 * before it starts.
 */
import { Writable } from 'node:stream';
import { createVitest } from 'vitest/node';
import { SUITE_NAMES } from '../config/index.ts';
import { capabilityOfFile } from '../report/index.ts';
import { RUN_CONTEXT_KEY, type RunContext } from '../runtime/index.ts';
import { type NeedsContext, type ScenarioNeeds, unmetNeed } from '../suite/needs.ts';
import { SCENARIO_META_KEY } from '../suite/scenario-declaration.ts';
import { PACKAGE_ROOT } from './run-conformance.ts';
import { moduleCacheOptions, nodeEnvAsVitestStarts } from './module-cache.ts';
import { harnessLoading } from './built-harness.ts';

const devNull = () => new Writable({ write: (_c, _e, cb) => cb() });

/** A test as its suite declares it. */
export interface DeclaredTest {
  /** `capability > scenario`. */
  name: string;
  /** The suite file (absolute). */
  file: string;
  /** What the test needs of a run (absent: nothing a run might lack). */
  needs?: ScenarioNeeds;
}

/** Every test of `suites` (default: all), sorted by name. */
export async function collectTests(
  suites: readonly string[] = SUITE_NAMES,
  kind: RunContext['targetKind'] = 'sim',
): Promise<DeclaredTest[]> {
  // Enough of a run's context for the suites to declare their tests; nothing is reached.
  const ctx: RunContext = {
    targetKind: kind,
    baseUrl: 'http://127.0.0.1:9',
    integratorId: 'collect',
    profile: 'sandbox',
    strict: false,
    terminal: 'auto',
    interactive: false,
    deadlineMs: 1500,
    settleMs: 80,
    webhookGraceMs: 1000,
    seed: 1,
    runs: 1,
    vaultPath: '',
    otps: [],
    mintOtps: false,
    webhookListen: { host: '127.0.0.1', port: 0 },
    maxAmount: 100,
    timeoutMs: 10_000,
    transport: {},
    workers: 1,
    vaultPairings: [],
    sandbox: true,
  };
  const loading = harnessLoading(PACKAGE_ROOT);
  const moduleCache = await moduleCacheOptions(PACKAGE_ROOT);
  nodeEnvAsVitestStarts();
  const vitest = await createVitest(
    'test',
    {
      watch: false,
      config: false,
      root: PACKAGE_ROOT,
      include: suites.map((s) => `suites/${s}/**/*.suite.ts`),
      reporters: [],
      provide: { [RUN_CONTEXT_KEY]: ctx },
      pool: 'forks',
      maxWorkers: 1,
      isolate: false,
      silent: true,
      passWithNoTests: true,
      // Loaded as a run loads them: the same module-cache entries (built-harness.ts).
      ...moduleCache,
      ...loading.test,
    },
    { logLevel: 'silent', server: { watch: null }, ...loading.vite },
    { stdout: devNull(), stderr: devNull() },
  );
  try {
    const { testModules } = await vitest.collect();
    const byName = new Map<string, DeclaredTest>();
    for (const m of testModules) {
      for (const tc of m.children.allTests()) {
        const declared = tc.meta()[SCENARIO_META_KEY];
        const name = `${declared?.capability ?? capabilityOfFile(m.moduleId)} > ${tc.name}`;
        byName.set(name, { name, file: m.moduleId, ...(declared?.needs ? { needs: declared.needs } : {}) });
      }
    }
    return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } finally {
    await vitest.close();
  }
}

/** The names of every test of `suites` (default: all), sorted. */
export async function collectTestNames(suites: readonly string[] = SUITE_NAMES, kind: RunContext['targetKind'] = 'sim'): Promise<string[]> {
  return (await collectTests(suites, kind)).map((t) => t.name);
}

/** The tests a run with `ctx` skips before they start, each with the reason its declaration gives. */
export function skippedByNeeds(tests: readonly DeclaredTest[], ctx: NeedsContext): { name: string; reason: string }[] {
  return tests.flatMap((t) => {
    const reason = unmetNeed(t.needs, ctx);
    return reason === undefined ? [] : [{ name: t.name, reason }];
  });
}
