import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * The project's own tests, in projects that can each be run alone:
 * - unit: code beside its tests under src/, generators/ and scripts/ (simulator included, over real loopback);
 * - contracts: the contract, its examples, generated files and pact checks;
 * - selftest: the harness's self-tests (run against simulator fault switches), two files at a time;
 * - selftest-cpu: the self-tests that keep both cores busy alone (the fault runs), one at a time, last;
 * - load: runs beside processes that keep every core busy, so alone, after the others (`npm test` runs
 *   it last): beside the other files it would stretch their timings and they its.
 * The conformance suites themselves are run by `payconnect-conformance run`, which builds its own
 * vitest configuration (src/cli/run), not by this file.
 */
/** Selftest files whose runs keep both cores busy on their own (93-97 % of two cores). */
const CPU_BOUND = ['test/faults.test.ts', 'test/capabilities.test.ts'];

/**
 * The longest selftest files, in seconds (fresh-clone CI, two files at a time, measured again once the
 * liberal sandbox, slow-service, compare and coverage selftests joined, and again once the manual
 * session's comparison and the fold selftest joined: 13:37 in all, 1.6 of 2 cores busy), started first so that two
 * workers end together: without vitest's timing cache (a fresh clone) files go by size, and the
 * 29-line manual session (59 s) ran alone at the end. A file not listed only starts later.
 */
const SELFTEST_SECONDS: Record<string, number> = {
  'test/robustness.test.ts': 84,
  'test/manual-session.test.ts': 77,
  'test/package.test.ts': 65,
  'test/pact-verify.test.ts': 64,
  'test/staging-network.test.ts': 63,
  'test/liberal-sandbox.test.ts': 54,
  'test/coverage.test.ts': 52,
  'test/attest.test.ts': 42,
  'test/slow-service.test.ts': 33,
  'test/baseline.test.ts': 33,
  'test/rejudge.test.ts': 29,
  'test/pact-secrets.test.ts': 27,
  'test/reports.test.ts': 26,
  'test/report-size.test.ts': 26,
  'test/pact-target.test.ts': 24,
  'test/certify-client.test.ts': 24,
  'test/resume.test.ts': 22,
  'test/shards.test.ts': 19,
  'test/stateful.test.ts': 18,
  'test/ci-output.test.ts': 18,
  'test/fold.test.ts': 17,
  'test/vault-pairings.test.ts': 14,
  'test/secrets.test.ts': 14,
  'test/compare.test.ts': 13,
};

/** Known long selftest files first, longest first; the others after them in vitest's own order. */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const seconds = (f: TestSpecification) => {
      const path = f.moduleId.split('\\').join('/');
      return SELFTEST_SECONDS[path.slice(path.lastIndexOf('/test/') + 1)] ?? 0;
    };
    return [...(await super.sort(files))].sort((a, b) => seconds(b) - seconds(a));
  }
}

/**
 * Unit and contract files mostly wait on loopback servers and child processes: two at a time halve
 * their wall time on a 2-core runner (152 s to 87 s), where vitest's default (cores - 1) runs one.
 * Files of one group run together, so the selftests come after them, in groups of their own.
 * Without isolation a worker imports a module once for all its files, not once per file: 136 to 65 s
 * and 175 to 77 CPU-s for the 132 files (the same 1368 tests passing, in vitest's order and shuffled).
 * It holds because these files share no state through a module: none uses vi.mock, each restores the
 * timers it fakes, and no helper they import registers hooks at its top level (test/support/run-cli.ts
 * does, which is one reason the selftests keep their isolation).
 */
const BESIDE_EACH_OTHER = { maxWorkers: 2, isolate: false, sequence: { groupOrder: 0 } };

export default defineConfig({
  test: {
    // Vitest takes the sequencer from the root config only: it sorts every project's files.
    sequence: { sequencer: LongestFirst },
    // Every project inherits it. A selftest file runs in a fresh process (isolated), which transformed
    // src/ again each time (about 1.7 s of a file's 2.5 s start, measured with the fault table alone):
    // from the cache, a file written by the first worker that transformed it (the unit files run
    // first), keyed by content, so an edit is never hidden, 2.8 to 1.4-1.9 CPU-s a file. The suites a
    // child `run` executes keep their own cache (src/engine/module-cache.ts).
    experimental: { fsModuleCache: true },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'generators/**/*.test.ts', 'scripts/**/*.test.ts'],
          testTimeout: 30_000,
          ...BESIDE_EACH_OTHER,
        },
      },
      {
        test: {
          name: 'contracts',
          include: ['contracts/**/*.test.ts'],
          testTimeout: 120_000,
          ...BESIDE_EACH_OTHER,
        },
      },
      {
        test: {
          name: 'selftest',
          include: ['test/**/*.test.ts'],
          exclude: ['test/load.test.ts', ...CPU_BOUND],
          testTimeout: 180_000,
          hookTimeout: 60_000,
          // Two files at a time, after unit and contracts: most wait on child processes and timers
          // (41-75 % of two cores each, measured one at a time), so two fill the cores without
          // outrunning them.
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'selftest-cpu',
          include: CPU_BOUND,
          testTimeout: 180_000,
          // Runs side by side in a file (the fault runs): three, not four. On a 2-core runner the runs
          // are CPU-bound, and a fourth only adds contention: test/faults.test.ts took 158 s and
          // 306 CPU-s with four, 144 s and 279 CPU-s with three, 143 s and 276 CPU-s with two.
          maxConcurrency: 3,
          hookTimeout: 60_000,
          // One file at a time, after the other selftests: each keeps both cores busy alone (93-97 %).
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
        },
      },
      {
        test: {
          name: 'load',
          include: ['test/load.test.ts'],
          testTimeout: 600_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
