import { defineConfig } from 'vitest/config';

/**
 * The project's own tests. Three projects, so each can be run alone:
 * - unit: code beside its tests under src/, generators/ and scripts/ (simulator included, over real loopback);
 * - contracts: the contract, its examples, generated files and pact checks;
 * - selftest: the harness's self-tests (run against simulator fault switches);
 * - load: runs beside processes that keep every core busy, so alone, after the others (`npm test` runs
 *   it last): beside the other files it would stretch their timings and they its.
 * The conformance suites themselves are run by `payconnect-conformance run`, which builds its own
 * vitest configuration (src/cli/run), not by this file.
 */
/**
 * Unit and contract files mostly wait on loopback servers and child processes: two at a time halve
 * their wall time on a 2-core runner (152 s to 87 s), where vitest's default (cores - 1) runs one.
 * Files of one group run together, so the selftests come after them, in a group of their own.
 */
const BESIDE_EACH_OTHER = { maxWorkers: 2, sequence: { groupOrder: 0 } };

export default defineConfig({
  test: {
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
          exclude: ['test/load.test.ts'],
          testTimeout: 180_000,
          // Runs side by side in a file (the fault runs): three, not four. On a 2-core runner the runs
          // are CPU-bound, and a fourth only adds contention: test/faults.test.ts took 158 s and
          // 306 CPU-s with four, 144 s and 279 CPU-s with three, 143 s and 276 CPU-s with two.
          maxConcurrency: 3,
          hookTimeout: 60_000,
          // One file at a time, after unit and contracts: each file's runs keep the cores busy already.
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
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
