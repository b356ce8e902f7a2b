/**
 * The stateful suite finds a fault that shows only after a particular sequence (an increment after a
 * completed preauthorization succeeds), shrinks it to at most 4 commands, prints its seed and a
 * replay command, and that command reproduces it.
 */
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { startSimulator } from '../src/index.ts';
import { runCli, tempDir } from './support/run-cli.ts';

const FAULT = 'preauth.increment-after-complete-succeeds';

test('a sequence-dependent fault is shrunk to at most 4 commands and the replay reproduces it', async () => {
  const r = await runCli(['run', '--no-html', '--suite', 'stateful', '--seed', '7', '--sim-fault', FAULT, '--strict'], {
    timeoutMs: 240_000,
  });
  expect(r.code, r.stderr).toBe(1);
  const cx = r.summary!.findings.find((f) => f.check === 'model.counterexample');
  expect(cx, JSON.stringify(r.summary!.findings.map((f) => f.check))).toBeDefined();
  const m = /(\d+) command\(s\) break the model: (.*?) \/\*/.exec(cx!.message);
  expect(m, cx!.message).not.toBeNull();
  expect(Number(m![1])).toBeLessThanOrEqual(4);
  expect(m![2]).toMatch(/Complete.*Increment/);
  expect(cx!.message).toMatch(/seed 7/);
  expect(r.summary!.findings.some((f) => f.check === 'model.operation-outcome' && f.clause === 'sandbox#preauthorization')).toBe(true);

  const replay = /replay: (.*)$/.exec(cx!.message)![1]!;
  const env = Object.fromEntries([...replay.matchAll(/(PAYCONNECT_[A-Z_]+)=(\S+)/g)].map((x) => [x[1]!, x[2]!]));
  expect(Object.keys(env)).toContain('PAYCONNECT_STATEFUL_REPLAY');
  const args = replay
    .split(/\s+payconnect-conformance\s+/)[1]!
    .split(/\s+/)
    .filter((a, i, all) => a !== '--reports' && all[i - 1] !== '--reports');
  const again = await runCli(args, { env, timeoutMs: 120_000 });
  expect(again.code, again.stderr).toBe(1);
  const cx2 = again.summary!.findings.find((f) => f.check === 'model.counterexample');
  expect(cx2?.message).toContain(m![2]!);
}, 400_000);

/**
 * Against a URL the model's waits leave their settle window running behind the next commands: a final
 * status that changes one step later (the terminal's clock is not skipped there) still fails the
 * sequence, judged on the record at the window's end, and shrinks to the wait that showed it.
 */
test('against a URL, a final status that changes after the wait returned still breaks the model', async () => {
  const sim = await startSimulator({ stepDelayMs: 100, deadlineMs: 2500, faults: ['transition.final-changes'] });
  try {
    const r = await runCli(
      [
        ...['run', '--no-html', '--suite', 'stateful', '--grep', 'part 1 of', '--seed', '5'],
        ...['--target', sim.url, '--integrator-id', sim.integratorId, '--profile', 'sandbox', '--vault', join(tempDir(), 'vault.json')],
        '--strict',
      ],
      { timeoutMs: 120_000 },
    );
    expect(r.code, r.stderr).toBe(1);
    const stale = r.summary!.findings.find((f) => f.check === 'model.final-state');
    expect(stale?.message, JSON.stringify(r.summary!.findings.map((f) => f.message))).toMatch(/status FAILED, expected SUCCESS/);
    const cx = r.summary!.findings.find((f) => f.check === 'model.counterexample');
    expect(cx?.message).toMatch(/\d+ command\(s\) break the model: .*wait\)/);
  } finally {
    await sim.close();
  }
}, 180_000);
