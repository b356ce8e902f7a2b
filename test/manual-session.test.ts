/**
 * A firmware-release session as a person runs it (issue 16): scripts/check-manual-session.sh starts
 * `sim --terminal manual` and `run --terminal manual` in a real terminal (tmux), follows each
 * instruction on the virtual terminal through its action endpoint, presses Ctrl+C midway, resumes
 * with --resume and checks the session ends certified with its labels. Here it runs as CI runs it,
 * with a 300 ms settle window instead of a real service's 1 s (the simulator's records do not change
 * after their final status): the session's steps are the same, in half the time. Then its reports
 * are compared with a simulator run's (`compare`, both ways, and from its transcript alone), as a
 * firmware tester compares a session with an earlier run.
 */
import { spawn } from 'node:child_process';
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT, runCli, tempDir } from './support/run-cli.ts';

it('a tmux-driven manual session, stopped with Ctrl+C and resumed, ends certified; compared with a sim run, it shows what it could not do and no regression', async () => {
  const out = tempDir('pcc-manual-');
  // The simulator run compared below shares nothing with the session (its own vault, receiver and
  // reports): it goes while the session mostly waits on tmux, not after it.
  const simRun = runCli(['run', '--no-html', '--label', 'firmware=sim']);
  simRun.catch(() => undefined); // awaited below: its error is the test's there, not an unhandled one meanwhile
  const child = spawn('bash', [join(ROOT, 'scripts', 'check-manual-session.sh'), out], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      VITEST: undefined,
      VITEST_POOL_ID: undefined,
      VITEST_WORKER_ID: undefined,
      SETTLE: '300ms',
      DRIVE_SECONDS: '240',
    },
  });
  let log = '';
  child.stdout.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr.on('data', (d: Buffer) => (log += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(code, log).toBe(0);
  expect(log).toContain('OK: certified after an interruption and --resume');
  const screen = readFileSync(join(out, 'transcript.txt'), 'utf8');
  expect(screen).toMatch(/^Manual session: \d+ steps at the terminal/m);
  expect(screen).toContain('aborted by the operator: the session stops here');
  expect(screen).toMatch(/^Already passed and not repeated: \d+ tests\./m);
  expect(screen).toMatch(/^certification: CERTIFIED/m);

  // The firmware tester's next step: the session's reports against a simulator run's (compare A B).
  const session = join(out, 'reports');
  const sim = await simRun;
  expect(sim.code, sim.stderr).toBe(0);
  const compared = tempDir('pcc-manual-compare-');
  const cmp = await runCli(['compare', sim.reportsDir, session, '--reports', compared]);
  const c = readCompare(compared);
  // Exit code as the semantics say: nothing regressed (no flip to fail, no new finding, no slower
  // answer); the operator's pace (convergence, webhook arrival, terminal steps) is shown, never a regression.
  expect(cmp.code, cmp.stdout + cmp.stderr).toBe(0);
  expect(c.regressed).toBe(false);
  expect(c.candidate.labels).toEqual({ firmware: '4.2.1', terminal: 'SN-0042', tester: 'check-manual-session' });
  expect(c.base.labels).toEqual({ firmware: 'sim' });
  expect(cmp.stdout).toMatch(/^compare: firmware=4\.2\.1 terminal=SN-0042 tester=check-manual-session \(/m);
  // Tests matched by name: every test of the session is one of the sim run's; what the session could
  // not do at a terminal (auto-only scenarios) is pass->skipped with its reason, nothing else changed.
  expect(c.candidate.tests).toBe(sim.summary!.counts.tests);
  expect(c.tests.flipped.length + c.tests.same).toBe(c.candidate.tests);
  expect(c.tests.same).toBeGreaterThan(100);
  expect(c.tests.flipped.length).toBeGreaterThan(0);
  for (const f of c.tests.flipped) expect([f.test, f.change, typeof f.why]).toEqual([f.test, 'pass->skipped', 'string']);
  expect(c.findings).toEqual({ new: [], gone: [], persisting: [] });
  // The shapes and timing sections: what the session never provoked (an EXPIRED, a 409) disappeared;
  // the timing of the session was judged, its operator-paced series apart.
  expect(Object.keys(c.shapes.appeared).sort()).toEqual(Object.keys(c.shapes.disappeared).sort());
  expect(c.shapes.disappeared.statuses?.length).toBeGreaterThan(0);
  expect(c.timing.regressions).toEqual([]);
  expect(c.timing.operatorPaced.manual).toEqual(['candidate']);
  expect(cmp.stdout).toContain('operator-paced, never a regression (the candidate was a manual session');
  expect(readFileSync(join(compared, 'compare.html'), 'utf8')).toContain('firmware=4.2.1 terminal=SN-0042 tester=check-manual-session');
  // The other way round, and from the session's transcript alone (no summary.json): no crash, the same
  // tests matched, labels kept from the transcript's header.
  const bare = join(tempDir('pcc-manual-bare-'), 'reports');
  cpSync(session, bare, { recursive: true });
  rmSync(join(bare, 'summary.json'));
  const reverse = tempDir('pcc-manual-compare-');
  const back = await runCli(['compare', bare, sim.reportsDir, '--reports', reverse]);
  const r = readCompare(reverse);
  expect(back.code, back.stdout + back.stderr).toBe(r.regressed ? 1 : 0);
  expect(r.base.labels).toEqual(c.candidate.labels);
  expect(r.timing.operatorPaced.manual).toEqual(['base']);
  expect(r.tests.flipped.map((f) => `${f.change} ${f.test}`).sort()).toEqual(c.tests.flipped.map((f) => `skipped->pass ${f.test}`).sort());
}, 600_000);

interface CompareJson {
  base: { labels: Record<string, string>; tests: number };
  candidate: { labels: Record<string, string>; tests: number };
  regressed: boolean;
  tests: { flipped: { test: string; change: string; why?: string }[]; same: number };
  findings: { new: unknown[]; gone: unknown[]; persisting: unknown[] };
  shapes: { appeared: Record<string, string[]>; disappeared: Record<string, string[]> };
  timing: { regressions: unknown[]; operatorPaced: { manual: string[] } };
}
const readCompare = (dir: string) => JSON.parse(readFileSync(join(dir, 'compare.json'), 'utf8')) as CompareJson;
