/**
 * Preloaded into a benchmarked run's processes (NODE_OPTIONS=--require, bench/conformance.ts): writes
 * what each process cost, as JSON in a file named by its pid in the folder PCC_BENCH_CPU names: its
 * role (the run, a vitest worker, the Allure generator, sim), user + system CPU seconds (all its
 * threads), its largest resident set and how long it lived. Written when it exits, or when it is sent
 * SIGTERM (vitest ends its workers so): then, unless the process handles SIGTERM itself, the signal is
 * sent again with no handler left, so the process ends as it would have. Measures; changes nothing.
 */
// CommonJS: preloaded with --require, synchronously, before any module of the process.
/* eslint-disable @typescript-eslint/no-require-imports */
'use strict';
const { join } = require('node:path');
const { writeFileSync } = require('node:fs');

const dir = process.env.PCC_BENCH_CPU;
if (dir) {
  const started = Date.now();
  const script = (process.argv[1] ?? '').split('\\').join('/');
  const role = script.endsWith('/workers/forks.js')
    ? 'worker'
    : script.endsWith('/allure/cli.js')
      ? 'allure'
      : process.argv[2] === 'sim'
        ? 'sim'
        : process.argv[2] === 'run'
          ? 'run'
          : 'other';
  let written = false;
  const write = () => {
    if (written) return;
    written = true;
    const cpu = process.cpuUsage();
    const figures = {
      role,
      cpuS: (cpu.user + cpu.system) / 1e6,
      maxRssMb: process.resourceUsage().maxRSS / 1024,
      lifeS: (Date.now() - started) / 1000,
    };
    try {
      writeFileSync(join(dir, String(process.pid)), JSON.stringify(figures));
    } catch {
      /* the bench reads what is there */
    }
  };
  process.on('exit', write);
  const onTerm = () => {
    write();
    process.removeListener('SIGTERM', onTerm);
    // A process with SIGTERM handlers of its own has them called already, and no default action.
    if (process.listenerCount('SIGTERM') === 0) process.kill(process.pid, 'SIGTERM');
  };
  process.on('SIGTERM', onTerm);
}
