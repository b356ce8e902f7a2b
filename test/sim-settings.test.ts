/**
 * The simulator's settings as a user types them to `run` and `sim`: a run seed the help offers
 * (negative) runs and replays; a value beyond the simulator's range is refused before anything
 * starts, naming the flag the user typed (issue 41: it used to name the simulator's own option).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { runCli } from './support/run-cli.ts';

/** The terminal ids a run's transcript holds: the simulator draws them from its seed. */
function terminalIds(reportsDir: string): string[] {
  const text = gunzipSync(readFileSync(join(reportsDir, 'transcript.jsonl.gz'))).toString('utf8');
  return [...new Set([...text.matchAll(/\\?"terminal_id\\?":\\?"(\d+)/g)].map((m) => m[1]!))].sort();
}

describe('the simulator settings of run and sim', () => {
  it('run --seed -5 runs, and the same seed replays the same terminals', async () => {
    const RUN = ['run', '--no-html', '--suite', 'config', '--terminals', '1'];
    const [first, again, other] = await Promise.all([
      runCli([...RUN, '--seed', '-5']),
      runCli([...RUN, '--seed', '-5']),
      runCli([...RUN, '--seed', '-6']),
    ]);
    for (const r of [first, again, other]) expect(r.code, r.stderr).toBe(0);
    expect(first.stdout).toContain('seed -5');
    expect(terminalIds(first.reportsDir).length).toBeGreaterThan(0);
    expect(terminalIds(again.reportsDir)).toEqual(terminalIds(first.reportsDir));
    expect(terminalIds(other.reportsDir)).not.toEqual(terminalIds(first.reportsDir));
  });

  it("a step delay beyond the simulator's range is exit 2 naming the flag typed: --sim-step-delay for run, --step-delay for sim", async () => {
    const [run, sim] = await Promise.all([runCli(['run', '--sim-step-delay', '2s']), runCli(['sim', '--step-delay', '2s'])]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^PCC_USAGE: invalid sim\.stepDelay "2s" from flag --sim-step-delay: must be from 0ms to 1s\n {2}fix: /);
    expect(run.stderr).not.toContain('stepDelayMs');
    expect(sim.code).toBe(2);
    expect(sim.stderr).toMatch(/^PCC_USAGE: invalid --step-delay "2s": must be from 0ms to 1s\n/);
    // The fix's example lies in the range (it once said "such as 500ms, 30s or 2m").
    for (const r of [run, sim]) expect(r.stderr).toMatch(/fix: give a duration from 0ms to 1s, such as 500ms\n$/);
  });

  it('a fault switch the simulator does not have is exit 2 naming how it was given, with the nearest switch', async () => {
    const [flag, env, sim] = await Promise.all([
      runCli(['run', '--sim-fault', 'slip.total-mismach']),
      runCli(['run'], { env: { PAYCONNECT_SIM_FAULT: 'nope' } }),
      runCli(['sim', '--fault', 'webhook.nono']),
    ]);
    expect([flag.code, env.code, sim.code]).toEqual([2, 2, 2]);
    expect(flag.stderr).toMatch(/--sim-fault "slip\.total-mismach" is not a fault switch\n {2}fix: did you mean slip\.total-mismatch\?/);
    expect(env.stderr).toMatch(
      /PAYCONNECT_SIM_FAULT "nope" is not a fault switch\n {2}fix: 'payconnect-conformance sim --help' lists every fault switch/,
    );
    expect(sim.stderr).toMatch(/--fault "webhook\.nono" is not a fault switch\n {2}fix: did you mean webhook\.none\?/);
    // One line of fix, not the 90 switches.
    for (const r of [flag, env, sim]) expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(2);
  });
});
