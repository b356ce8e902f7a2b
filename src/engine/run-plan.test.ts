/** The run's plan, a pure function: how many terminals a run uses (and why fewer than asked), on how many workers, how it waits on its target. */
import { describe, expect, it } from 'vitest';
import { resolveIn, useTempDirs } from '../config/testing.ts';
import { planRun, poolFor, terminalsFor, workersFor } from './run-plan.ts';

const { emptyDir } = useTempDirs();
const at = async (argv: string[]) => resolveIn(await emptyDir(), argv);
const minting = { mintOtps: true };
const notMinting = { mintOtps: false };
const url = ['--target', 'https://staging.example.com', '--integrator-id', 'i-1'];

describe('terminalsFor', () => {
  it('gives a sandbox that mints OTPs the terminals asked for', async () => {
    expect(terminalsFor(await at(['--terminals', '3']), minting, 0)).toEqual({ terminals: 3 });
    expect(terminalsFor(await at(['--terminals', '1']), minting, 0)).toEqual({ terminals: 1 });
  });

  it('keeps to one terminal for a person, the Pact mock and a fixed webhook port, and says why', async () => {
    expect(terminalsFor(await at(['--terminal', 'manual']), minting, 0)).toMatchObject({
      terminals: 1,
      reason: expect.stringContaining('person'),
    });
    expect(terminalsFor(await at(['--target', 'pact']), minting, 0)).toMatchObject({
      terminals: 1,
      reason: expect.stringContaining('Pact'),
    });
    expect(terminalsFor(await at(['--webhook-listen', '127.0.0.1:8099']), minting, 0)).toMatchObject({
      terminals: 1,
      reason: expect.stringContaining('8099'),
    });
  });

  it('against a service that does not mint OTPs: one terminal, or as many as it has pairings when asked', async () => {
    expect(terminalsFor(await at(url), notMinting, 5)).toMatchObject({ terminals: 1 });
    expect(terminalsFor(await at([...url, '--terminals', '3']), notMinting, 5)).toEqual({ terminals: 3 });
    expect(terminalsFor(await at([...url, '--terminals', '3', '--otp', '123456']), notMinting, 1)).toMatchObject({
      terminals: 2,
      reason: 'only 2 pairings (vault and --otp) for 3 terminals',
    });
  });
});

describe('workersFor', () => {
  it('drives the terminals on as many workers as the cores at most, one on one core, never more workers than terminals', () => {
    expect(workersFor(8, 16, 2)).toBe(2);
    expect(workersFor(8, 32, 4)).toBe(4);
    expect(workersFor(4, 16, 8)).toBe(4);
    expect(workersFor(1, 16, 4)).toBe(1);
    expect(workersFor(3, 16, 1)).toBe(1);
  });

  it('starts a worker per four suite files at most: a run of a few files is one worker with all the terminals', () => {
    expect(workersFor(8, 3, 2)).toBe(1);
    expect(workersFor(8, 4, 8)).toBe(1);
    expect(workersFor(8, 5, 8)).toBe(2);
    expect(workersFor(8, 0, 2)).toBe(1);
  });

  it('gives each long file of fewer tests than the lanes (the model-based parts) a worker of its own, within the caps', () => {
    // --suite stateful: two files of two parts; one worker would run them one after the other.
    expect(workersFor(8, 2, 2, 2)).toBe(2);
    expect(workersFor(8, 18, 2, 2)).toBe(2);
    expect(workersFor(8, 18, 4, 2)).toBe(4);
    expect(workersFor(1, 2, 2, 2)).toBe(1);
    expect(workersFor(8, 2, 1, 2)).toBe(1);
  });

  it('against a service, drives two terminals a worker, six workers at most (or the cores and one), a worker per four files', () => {
    expect(workersFor(8, 19, 2, 2, true)).toBe(4);
    expect(workersFor(7, 19, 2, 2, true)).toBe(4);
    expect(workersFor(12, 19, 2, 2, true)).toBe(5);
    expect(workersFor(32, 40, 2, 2, true)).toBe(6);
    expect(workersFor(32, 40, 16, 2, true)).toBe(10);
    expect(workersFor(32, 80, 16, 2, true)).toBe(16);
    // Four suites: one worker with every terminal; --suite stateful: a worker a file.
    expect(workersFor(8, 4, 2, 0, true)).toBe(1);
    expect(workersFor(8, 2, 2, 2, true)).toBe(2);
    expect(workersFor(2, 19, 2, 2, true)).toBe(1);
    expect(workersFor(1, 19, 2, 2, true)).toBe(1);
    expect(workersFor(8, 19, 1, 2, true)).toBe(1);
  });
});

describe('poolFor', () => {
  it("runs one worker as a thread, a manual session's too, and several as processes", () => {
    expect(poolFor(1)).toBe('threads');
    expect(poolFor(2)).toBe('forks');
    expect(poolFor(4)).toBe('forks');
  });
});

describe('planRun', () => {
  const servicePace = { settleMs: 1000, settleScale: { steps: 2, minMs: 200 }, webhookGraceMs: 6000 };
  const service = { kind: 'url' as const, mintOtps: true, pace: servicePace };
  const sim = { kind: 'sim' as const, mintOtps: true, pace: { settleMs: 80, webhookGraceMs: 1000 } };

  it('waits on the target at its own pace, and --settle replaces the settle window and its scaling, never the webhook grace', async () => {
    expect(planRun(await at([]), sim, 0, 16, 2).pace).toEqual(sim.pace);
    expect(planRun(await at(url), service, 0, 16, 2).pace).toEqual(servicePace);
    expect(planRun(await at([...url, '--settle', '300ms']), service, 0, 16, 2).pace).toEqual({ settleMs: 300, webhookGraceMs: 6000 });
  });

  it("spreads the terminals over the workers as lanes, and gives a manual session's tests half an hour each", async () => {
    const plan = planRun(await at(['--terminals', '5']), sim, 0, 16, 2);
    expect(plan).toMatchObject({ terminals: 5, workers: 2, lanes: 3, pool: 'forks' });
    expect(plan.perTestMs).toBeGreaterThanOrEqual(60_000);
    expect(planRun(await at(['--terminal', 'manual']), sim, 0, 16, 2)).toMatchObject({
      terminals: 1,
      workers: 1,
      pool: 'threads',
      perTestMs: 30 * 60_000,
    });
  });

  it('plans a worker per two terminals against a URL, and by the files and the cores against the simulator', async () => {
    expect(planRun(await at([...url, '--terminals', '8']), service, 0, 19, 2, 2)).toMatchObject({
      terminals: 8,
      workers: 4,
      lanes: 2,
      pool: 'forks',
    });
    // The default against a URL: 16 terminals, on a worker per four files (five for 19) of four lanes.
    expect(planRun(await at(url), service, 0, 19, 2, 2)).toMatchObject({ terminals: 16, workers: 5, lanes: 4, pool: 'forks' });
    expect(planRun(await at([]), sim, 0, 19, 2, 2)).toMatchObject({ terminals: 8, workers: 2, lanes: 4, pool: 'forks' });
  });

  it("makes the pairings the run's own only where pairing again is free and the receiver is the run's alone", async () => {
    expect(planRun(await at(url), service, 0, 16, 2).ephemeralPairings).toBe(true);
    expect(planRun(await at(url), { ...service, mintOtps: false }, 0, 16, 2).ephemeralPairings).toBe(false);
    expect(planRun(await at([...url, '--webhook-listen', '127.0.0.1:8099']), service, 0, 16, 2).ephemeralPairings).toBe(false);
    expect(planRun(await at([]), sim, 0, 16, 2).ephemeralPairings).toBe(false);
  });
});
