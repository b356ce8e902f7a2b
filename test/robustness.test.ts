/**
 * Verdicts that hold against a broken service. `sim` runs as a process of its own with
 * `--step-delay 100 --deadline 2500` and is used as a URL target, once correct and once per class of
 * untidy defect: each broken run ends with exit 1, the expected root finding first, no toolkit error
 * (`PCC_`), and within twice the wall time of the clean run of the same settings (1.5x holds for
 * whole runs two at a time on a quiet machine: bench, not here, where other test files share it), plus
 * the waits the defect itself imposes whatever the clean run's time (two missed deadlines, two missed
 * webhook graces: after those such waits are futile run-wide). Every run uses
 * the default settings otherwise, so the default terminal count: the workers share one defect
 * ledger, so a systemic defect costs its futile waits once per run, not once per worker. Runs go two
 * at a time, the clean one first, so each is timed under the same load as the clean one.
 *
 * Every run is `--strict`, so that the classes whose root is a profile rule (webhooks, operation
 * records) fail the run as a CI gate that asks for the sandbox's rules would; the clean run shows the
 * settings raise no false alarm. The clean run goes alongside the first broken ones, so that its time
 * is taken under the same load as theirs.
 */
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, test } from 'vitest';
import { type CliResult, runCli, tempDir } from './support/run-cli.ts';
import { type SimProcess, startSimProcess } from './support/sim-process.ts';

const SIM = ['--step-delay', '100', '--deadline', '2500'];
const SUITES = ['pairing', 'payment', 'cancel', 'webhooks'].flatMap((s) => ['--suite', s]);

interface Timed {
  r: CliResult;
  ms: number;
}

/** Two runs at a time: each waits for a slot, so every run is timed under the same load. */
let running = 0;
const waiting: (() => void)[] = [];
async function inSlot<T>(fn: () => Promise<T>): Promise<T> {
  if (running >= 2) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await fn();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/** `run` against a separately started sim with `faults`; `during` may act on the sim while the run goes. */
function urlRun(faults: string[], during?: (sim: SimProcess) => Promise<void>): Promise<Timed> {
  return inSlot(() => timedRun(faults, during));
}

async function timedRun(faults: string[], during?: (sim: SimProcess) => Promise<void>): Promise<Timed> {
  const sim = await startSimProcess([...SIM, ...faults.flatMap((f) => ['--fault', f])]);
  try {
    const started = Date.now();
    const run = runCli(
      [
        'run',
        '--target',
        sim.url,
        '--integrator-id',
        sim.integratorId,
        '--profile',
        'sandbox',
        '--strict',
        '--vault',
        join(tempDir(), 'vault.json'),
        '--no-html',
        '--deadline',
        '4s',
        ...SUITES,
      ],
      { timeoutMs: 170_000 },
    );
    if (during) await during(sim);
    const r = await run;
    return { r, ms: Date.now() - started };
  } finally {
    await sim.stop();
  }
}

function brief(r: CliResult): string {
  return `exit ${r.code}\n${r.stdout
    .split('\n')
    .filter((l) => /^(FAIL|WARN|ERROR|PASS|INCOMPLETE)/.test(l))
    .join('\n')}\n${r.stderr}`;
}

let cleanRun: Promise<Timed>;
beforeAll(() => {
  cleanRun = urlRun([]);
  cleanRun.catch(() => undefined);
});

test('the clean run passes with zero findings and its webhook scenarios ran', async () => {
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
/**
 * What a service that never posts a valid webhook costs whatever the clean run's time: a final status's
 * webhook is waited for its grace (6 s against a URL: a refused delivery is retried after 5 s), twice,
 * before such waits are futile.
 */
const WEBHOOK_MISSES = 2 * 6000;

const CLASSES: { name: string; faults: string[]; root: string; during?: (sim: SimProcess) => Promise<void>; inherentMs?: number }[] = [
  // Nothing can tell a transaction that never ends from a slow one before its deadline (4 s): the run
  // waits two of them before such waits are futile, whatever the clean run's time.
  {
    name: 'transactions never reach a final status',
    faults: ['transaction.never-converges'],
    root: 'convergence.deadline',
    inherentMs: 2 * 4000,
  },
  // An operation whose status is none of the enum's is never seen final: its one convergence waits out
  // the deadline (4 s), whatever the clean run's time.
  { name: 'an operation status outside the enum', faults: ['operation.status-outside-enum'], root: 'response.enum', inherentMs: 4000 },
  // No delivery the pairing's key verifies, in any of three ways: the service sends no webhook (spec#events).
  {
    name: 'webhooks signed over other bytes than those sent',
    faults: ['webhook.signed-other-bytes'],
    root: 'webhook.service-sends',
    inherentMs: WEBHOOK_MISSES,
  },
  {
    name: 'webhooks signed with another key',
    faults: ['webhook.bad-signature'],
    root: 'webhook.service-sends',
    inherentMs: WEBHOOK_MISSES,
  },
  { name: 'webhooks without a signature', faults: ['webhook.unsigned'], root: 'webhook.service-sends', inherentMs: WEBHOOK_MISSES },
  { name: 'no webhook is ever sent', faults: ['webhook.none'], root: 'webhook.service-sends', inherentMs: WEBHOOK_MISSES },
  { name: 'token_type is not Bearer', faults: ['token.type-lowercase'], root: 'response.enum' },
  { name: 'no webhook_secret_key although a webhook_url was sent', faults: ['pair.missing-webhook-key'], root: 'response.schema' },
  { name: 'a consumed OTP pairs again', faults: ['pair.otp-reuse'], root: 'pairing.otp-one-time' },
  { name: 'the token endpoint refuses the credentials it issued', faults: ['token.refused'], root: 'auth.token-obtained' },
  {
    name: 'the service dies mid-run',
    faults: [],
    root: 'request.answered',
    // Once the run has paired (the sim shows a terminal: the run is past its preflight, however slow
    // the machine), and a moment to start paying; the rest of it talks to a dead address. A fixed delay
    // killed it before the preflight on a loaded runner, which is exit 2, not this case.
    during: async (sim) => {
      const until = Date.now() + 60_000;
      while (Date.now() < until) {
        const view = await fetch(`${sim.url}/_sim/terminals`)
          .then((r) => r.json() as Promise<{ terminals: unknown[] }>)
          .catch(() => undefined);
        if ((view?.terminals.length ?? 0) > 0) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      await new Promise((r) => setTimeout(r, 1_000));
      await sim.kill();
    },
  },
];

describe.concurrent('a broken service: exit 1, the root finding first, no toolkit error, at most 2x the clean time', () => {
  for (const c of CLASSES) {
    test(
      c.name,
      async () => {
        const [{ r, ms }, clean] = await Promise.all([urlRun(c.faults, c.during), cleanRun]);
        const s = r.summary;
        expect(s, brief(r)).toBeDefined();
        expect(r.code, brief(r)).toBe(1);
        expect(`${r.stdout}\n${r.stderr}`, brief(r)).not.toMatch(/PCC_/);
        expect(s!.findings[0]?.check, brief(r)).toBe(c.root);
        // 1.5x is the figure for whole runs two at a time (bench: 0.70-1.27x). Here the other test
        // files share the machine, so the clean run, taken first, met another load than later runs.
        expect(ms, `${c.name}: ${ms} ms against ${clean.ms} ms clean`).toBeLessThanOrEqual(2 * clean.ms + (c.inherentMs ?? 0));
      },
      480_000,
    ); // queued behind up to five rounds of two runs: the budget covers the wait for a slot
  }
});

test('a run past --max-duration stops, lists the tests not finished as "run budget exceeded", and is not certified, without failing', async () => {
  const started = Date.now();
  // A slow virtual terminal makes the whole run far longer than the budget (a clean run fits 8 s now).
  const r = await runCli(['run', '--no-html', '--max-duration', '6s', '--sim-step-delay', '150ms']);
  const ms = Date.now() - started;
  // Running out of time is not checked, never a finding (exit 1 is for the service's defects), and no
  // pass either: exit 2, so a deploy gate does not go green on tests that never ran.
  expect(r.code, brief(r)).toBe(2);
  expect(r.summary?.verdict).toBe('pass');
  expect(r.summary?.findings).toEqual([]);
  expect(r.stdout).toMatch(/^certification: NOT CERTIFIED .*run budget exceeded/m);
  expect(r.summary?.incomplete?.reason).toBe('run budget exceeded');
  expect(r.summary!.incomplete!.tests.length).toBeGreaterThan(0);
  expect(r.stdout).toMatch(/^INCOMPLETE run budget exceeded: \d+ tests? not finished/m);
  expect(`${r.stdout}\n${r.stderr}`).not.toMatch(/PCC_/);
  // The budget, plus starting up and writing the reports: nothing waits on past it.
  expect(ms).toBeLessThan(6_000 + 30_000);
}, 120_000);
