/**
 * A firmware-release session as a person runs it (issue 16): scripts/check-manual-session.sh starts
 * `sim --terminal manual` and `run --terminal manual` in a real terminal (tmux), follows each
 * instruction on the virtual terminal through its action endpoint, presses Ctrl+C midway, resumes
 * with --resume and checks the session ends certified with its labels. Here it runs as CI runs it,
 * with a 300 ms settle window instead of a real service's 1 s (the simulator's records do not change
 * after their final status): the session's steps are the same, in half the time.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT, tempDir } from './support/run-cli.ts';

it('a tmux-driven manual session, stopped with Ctrl+C and resumed, ends certified', async () => {
  const out = tempDir('pcc-manual-');
  const child = spawn('bash', [join(ROOT, 'scripts', 'check-manual-session.sh'), out], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, VITEST: undefined, VITEST_POOL_ID: undefined, VITEST_WORKER_ID: undefined, SETTLE: '300ms', DRIVE_SECONDS: '240' } });
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
}, 600_000);
