/**
 * Verdicts that hold against a broken service. `sim` runs as a process of its own with
 * `--step-delay 100 --deadline 2500` and is used as a URL target, once correct and once per class of
 * untidy defect: each broken run ends with exit 1, the expected root finding first, no toolkit error
 * (`PCC_`), and within twice the wall time of the clean run of the same settings. Every run listens
 * for webhooks on a fixed `--webhook-listen` port (the staging recipe: one receiver per run), so the
 * clean run also shows that a fixed port works.
 *
 * Every run is `--strict`, so that the classes whose root is a profile rule (webhooks, operation
 * records) fail the run as a CI gate that asks for the sandbox's rules would; the clean run shows the
 * settings raise no false alarm. The clean run goes alongside the first broken ones, so that its time
 * is taken under the same load as theirs.
 */
import { createServer } from 'node:net';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, test } from 'vitest';
import { type CliResult, runCli, tempDir } from './support/run-cli.ts';
import { type SimProcess, startSimProcess } from './support/sim-process.ts';

const SIM = ['--step-delay', '100', '--deadline', '2500'];
const SUITES = ['pairing', 'payment', 'webhooks'].flatMap((s) => ['--suite', s]);

interface Timed {
  r: CliResult;
  ms: number;
}

/** A port nobody listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
}

/** `run` against a separately started sim with `faults`; `during` may act on the sim while the run goes. */
async function urlRun(faults: string[], during?: (sim: SimProcess) => Promise<void>): Promise<Timed> {
  const sim = await startSimProcess([...SIM, ...faults.flatMap((f) => ['--fault', f])]);
  try {
    const listen = ['--webhook-listen', `127.0.0.1:${await freePort()}`];
    const started = Date.now();
    const run = runCli(['run', '--target', sim.url, '--integrator-id', sim.integratorId, '--profile', 'sandbox', '--strict', '--vault', join(tempDir(), 'vault.json'), '--no-html', '--deadline', '4s', ...listen, ...SUITES], { timeoutMs: 170_000 });
    if (during) await during(sim);
    const r = await run;
    return { r, ms: Date.now() - started };
  } finally {
    await sim.stop();
  }
}

function brief(r: CliResult): string {
  return `exit ${r.code}\n${r.stdout.split('\n').filter((l) => /^(FAIL|WARN|ERROR|PASS|INCOMPLETE)/.test(l)).join('\n')}\n${r.stderr}`;
}

let cleanRun: Promise<Timed>;
beforeAll(() => {
  cleanRun = urlRun([]);
  cleanRun.catch(() => undefined);
});

test('the clean run, on a fixed webhook port, passes with zero findings and its webhook scenarios ran', async () => {
  const clean = await cleanRun;
  expect(clean.r.code, brief(clean.r)).toBe(0);
  expect(clean.r.summary?.findings).toEqual([]);
  const junit = readFileSync(join(clean.r.reportsDir, 'junit.xml'), 'utf8');
  const webhooks = /<testsuite name="webhooks" tests="(\d+)" failures="0" errors="0" skipped="(\d+)"/.exec(junit);
  expect(webhooks, junit.slice(0, 400)).not.toBeNull();
  // Deliveries reached the one receiver: the webhook scenarios passed, but for the retry one, which
  // does not fit a 4 s deadline against the profile's unscaled schedule.
  expect(Number(webhooks![1]) - Number(webhooks![2])).toBeGreaterThanOrEqual(4);
});

/** The classes of untidy defect: the simulator fault (or an act on the process) and the root finding expected first. */
const CLASSES: { name: string; faults: string[]; root: string; during?: (sim: SimProcess) => Promise<void> }[] = [
  { name: 'transactions never reach a final status', faults: ['transaction.never-converges'], root: 'convergence.deadline' },
  { name: 'an operation status outside the enum', faults: ['operation.status-outside-enum'], root: 'response.enum' },
  { name: 'webhooks signed over other bytes than those sent', faults: ['webhook.signed-other-bytes'], root: 'webhook.signature' },
  { name: 'no webhook is ever sent', faults: ['webhook.none'], root: 'webhook.delivered' },
  { name: 'token_type is not Bearer', faults: ['token.type-lowercase'], root: 'response.enum' },
  { name: 'no webhook_secret_key although a webhook_url was sent', faults: ['pair.missing-webhook-key'], root: 'response.schema' },
  { name: 'a consumed OTP pairs again', faults: ['pair.otp-reuse'], root: 'pairing.otp-one-time' },
  { name: 'the token endpoint refuses the credentials it issued', faults: ['token.refused'], root: 'auth.token-obtained' },
  {
    name: 'the service dies mid-run',
    faults: [],
    root: 'request.answered',
    // Long enough for the run to pair and start paying; the rest of it talks to a dead address.
    during: async (sim) => {
      await new Promise((r) => setTimeout(r, 12_000));
      await sim.kill();
    },
  },
];

describe.concurrent('a broken service: exit 1, the root finding first, no toolkit error, at most 2x the clean time', () => {
  for (const c of CLASSES) {
    test(c.name, async () => {
      const [{ r, ms }, clean] = await Promise.all([urlRun(c.faults, c.during), cleanRun]);
      const s = r.summary;
      expect(s, brief(r)).toBeDefined();
      expect(r.code, brief(r)).toBe(1);
      expect(`${r.stdout}\n${r.stderr}`, brief(r)).not.toMatch(/PCC_/);
      expect(s!.findings[0]?.check, brief(r)).toBe(c.root);
      expect(ms, `${c.name}: ${ms} ms against ${clean.ms} ms clean`).toBeLessThanOrEqual(2 * clean.ms);
    }, 180_000);
  }
});

test('a run past --max-duration stops, fails with "run budget exceeded" and lists the tests not finished', async () => {
  const started = Date.now();
  // A slow virtual terminal makes the whole run far longer than the budget (a clean run fits 8 s now).
  const r = await runCli(['run', '--no-html', '--max-duration', '6s', '--sim-step-delay', '150ms']);
  const ms = Date.now() - started;
  expect(r.code, brief(r)).toBe(1);
  expect(r.summary?.verdict).toBe('fail');
  expect(r.summary?.incomplete?.reason).toBe('run budget exceeded');
  expect(r.summary!.incomplete!.tests.length).toBeGreaterThan(0);
  expect(r.stdout).toMatch(/^INCOMPLETE run budget exceeded: \d+ tests? not finished/m);
  expect(`${r.stdout}\n${r.stderr}`).not.toMatch(/PCC_/);
  // The budget, plus starting up and writing the reports: nothing waits on past it.
  expect(ms).toBeLessThan(6_000 + 30_000);
}, 120_000);
