/**
 * A correct service gets 0 findings on a loaded CI runner behind a proxy that closes idle connections.
 * `sim` runs as a process of its own that closes every idle connection after 1 s without announcing
 * it (as nginx, AWS ALB, Envoy and HAProxy do), and three runs at once, at the default terminal count,
 * use it as their URL target while one process per core busy-loops beside them. Before the client put
 * each POST on a connection of its own, and before the harness gave back the time it stood still,
 * such runs failed the correct service (`request.answered` on POST /pair/ and /auth/token/).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runCli, tempDir } from './support/run-cli.ts';
import { type SimProcess, startSimProcess } from './support/sim-process.ts';

// The suites that pair, pay, fuzz request bodies (the one that failed) and wait for webhooks.
const SUITES = ['pairing', 'properties', 'payment', 'webhooks'].flatMap((s) => ['--suite', s]);

let sim: SimProcess;
const busy: ChildProcess[] = [];
beforeAll(async () => {
  sim = await startSimProcess(['--step-delay', '100', '--deadline', '2500', '--keep-alive', '1000']);
  for (let i = 0; i < availableParallelism(); i++) busy.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
});
afterAll(async () => {
  for (const b of busy) b.kill('SIGKILL');
  await sim.stop();
});

test('three runs at once against a 1 s unannounced keep-alive, beside a busy loop per core: 0 findings each', async () => {
  const run = () =>
    runCli(
      [
        'run',
        '--target',
        sim.url,
        '--integrator-id',
        sim.integratorId,
        '--profile',
        'sandbox',
        '--vault',
        join(tempDir(), 'vault.json'),
        '--no-html',
        ...SUITES,
      ],
      { timeoutMs: 400_000 },
    );
  const runs = await Promise.all([run(), run(), run()]);
  for (const r of runs) {
    const why = `${r.stdout
      .split('\n')
      .filter((l) => /^(FAIL|WARN|ERROR|PASS|HARNESS|harness)/.test(l))
      .join('\n')}\n${r.stderr}`;
    expect(r.summary?.findings, why).toEqual([]);
    expect(r.code, why).toBe(0);
    expect(r.summary!.counts.passed).toBeGreaterThan(20);
  }
}, 420_000);
