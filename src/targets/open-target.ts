/**
 * Opening a target, for every command that talks to one (`run`, `verify-pacts`, `pair`, `unpair`):
 * the embedded simulator started on loopback with a throw-away vault, a URL checked for production
 * and reachability, or the Pact mock. One set of defaults: how long a wait may take and how often to
 * poll depend on the kind of target, not on the command.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DEFAULTS, simulatorSeedOf } from '../config/index.ts';
import { URL_SETTLE_SCALE } from '../convergence/index.ts';
import { ToolkitError, isToolkitError } from '../core/index.ts';
import type { Profile } from '../profile/index.ts';
import { type SimulatorHandle, startSimulator } from '../simulator/index.ts';
import type { Transport } from '../transport/index.ts';
import { assertReachable, assertTargetAllowed } from './safety.ts';

export type TargetKind = 'sim' | 'url' | 'pact';

/** What a command asks for. */
export interface TargetRequest {
  kind: TargetKind;
  /** The service's base URL (kind `url`). */
  baseUrl?: string;
  /** The integrator id; required for a URL, else the simulator's or the pact's example id. */
  integratorId?: string;
  /** Where pairings are kept for a URL target; with the simulator a named one is used, else a throw-away one. */
  vaultPath?: string;
  /** The profile whose production hosts are refused without `allowProduction`. */
  profile: Profile;
  allowProduction?: boolean;
  /** The simulator's settings (kind `sim`); `seed` is the run's, any 32-bit integer, signed or not. */
  sim?: {
    seed?: number;
    faults?: readonly string[];
    faultRate?: number;
    stepDelayMs?: number;
    deadlineMs?: number;
    terminal?: 'auto' | 'manual';
    liberal?: boolean;
  };
  /** Where the Pact mock writes its pact when it closes (kind `pact`). */
  pactDir?: string;
  /** Where the run's webhook receiver listens, and its public URL (kind `pact`: the pairing's webhook URL names it). */
  webhookListen?: { host: string; port: number };
  webhookPublicUrl?: string;
  /** CA, client certificate and proxy of the connections to a URL target. @default the environment's */
  transport?: Transport;
}

/**
 * How a run waits on a target: numbers of the target, set where it is opened, not of the command.
 * A webhook is posted as the status changes; a service whose first attempt was lost retries it after
 * 5 s (sandbox.md; the simulator shrinks that schedule): 6 s covers that retry and the way there.
 * Waiting to the deadline (minutes against a URL) would only slow a broken service's run.
 */
export interface TargetPace {
  /** How long a final status is watched for a change one terminal step after it (the ceiling when it scales). */
  settleMs: number;
  /** Present: the settle window scales to the service's pace (convergence/observe.ts settleScale), `settleMs` its ceiling. */
  settleScale?: { steps: number; minMs: number };
  /** How long a final status's webhook is waited for once the status is seen. */
  webhookGraceMs: number;
}

/**
 * A service's pace is its own: a final status is watched for two of its steps (convergence's
 * URL_SETTLE_SCALE: a change one step after it was final is still polled, and its webhook wakes a poll
 * at once), 200 ms to 1 s.
 */
const SERVICE_PACE: TargetPace = { settleMs: 1000, settleScale: { ...URL_SETTLE_SCALE }, webhookGraceMs: 6_000 };

/** An open target. */
export interface Target {
  kind: TargetKind;
  baseUrl: string;
  integratorId: string;
  vaultPath: string;
  /** A sandbox: amounts are not capped. */
  sandbox: boolean;
  /** OTPs may be minted as sandbox.md allows. */
  mintOtps: boolean;
  /**
   * OTPs the target hands the run, used after `--otp`'s: the Pact mock's example OTP, which its pairing
   * interactions answer (stateless, so it serves every pairing step that asks for one).
   */
  otps?: readonly string[];
  /** A fresh OTP, where the toolkit holds the terminal (the embedded simulator). */
  mintOtp?: () => string;
  /**
   * Where the run's webhook receiver must listen, when the target decided it: the Pact mock's pairing
   * has a webhook URL before the run starts.
   */
  webhookListen?: { host: string; port: number };
  /** How a run waits on it. */
  pace: TargetPace;
  /**
   * Whose the vault's pairings are: the service's (a URL: pairings kept between runs, CI credentials
   * from the environment), the run's own (the simulator's throw-away one), or none (the Pact mock).
   */
  vault: 'service' | 'private' | 'none';
  /**
   * Closes the target (stops the simulator, writes the pact, removes a throw-away vault). `discard`:
   * the run ended before its reports, so nothing is written (the pact).
   */
  close(opts?: { discard?: boolean }): Promise<void>;
}

/** How long a wait for a status may take by default against a kind of target. */
export function defaultDeadlineMs(kind: TargetKind): number {
  return kind === 'sim' ? DEFAULTS.deadlineSimMs : DEFAULTS.deadlineMs;
}

/** How often to poll a status by default against a kind of target. */
export function defaultPollMs(kind: TargetKind): number {
  return kind === 'sim' ? 10 : 250;
}

/** Opens the target a command asks for; a usage error or an unreachable URL is a ToolkitError (exit 2). */
export async function openTarget(req: TargetRequest): Promise<Target> {
  if (req.kind === 'pact') {
    // Loaded only here: Pact's native core is heavy, and no other target needs it.
    const pact = await import('../pact/index.ts');
    const t = await pact.openPactTarget({
      integratorId: req.integratorId,
      pactDir: req.pactDir ?? join(tmpdir(), 'pcc-pacts'),
      ...(req.webhookListen ? { webhookListen: req.webhookListen } : {}),
      ...(req.webhookPublicUrl ? { webhookPublicUrl: req.webhookPublicUrl } : {}),
    });
    // The mock's records are final at once and never change; its webhooks are posted as it answers.
    return { kind: 'pact', ...t, pace: { settleMs: 200, webhookGraceMs: 1000 }, vault: 'none' };
  }
  if (req.kind === 'sim') return openSim(req);
  const baseUrl = (req.baseUrl ?? '').replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]/.test(baseUrl))
    throw new ToolkitError(
      'PCC_USAGE',
      `--target must be sim or the service's base URL (got ${req.baseUrl ?? 'nothing'})`,
      'pass --target https://your-sandbox.example',
    );
  if (!req.integratorId)
    throw new ToolkitError(
      'PCC_USAGE',
      'a URL target needs --integrator-id',
      'pass --integrator-id <id> (issued by the vendor), or set PAYCONNECT_INTEGRATOR_ID',
    );
  assertTargetAllowed(baseUrl, req.profile, req.allowProduction ?? false);
  await assertReachable(baseUrl, req.transport);
  const sandbox = req.profile.name === 'sandbox';
  return {
    kind: 'url',
    baseUrl,
    integratorId: req.integratorId,
    vaultPath: resolve(req.vaultPath ?? DEFAULTS.vault),
    sandbox,
    mintOtps: sandbox,
    pace: SERVICE_PACE,
    vault: 'service',
    close: async () => {},
  };
}

async function openSim(req: TargetRequest): Promise<Target> {
  const s = req.sim ?? {};
  const step = s.stepDelayMs ?? DEFAULTS.sim.stepDelayMs;
  let sim: SimulatorHandle;
  try {
    sim = await startSimulator({
      // The run's seed may be negative (--seed -5); the simulator takes its 32 bits, unsigned.
      host: '127.0.0.1',
      port: 0,
      seed: s.seed === undefined ? undefined : simulatorSeedOf(s.seed),
      faults: (s.faults ?? DEFAULTS.sim.faults) as never,
      faultRate: s.faultRate ?? DEFAULTS.sim.faultRate,
      stepDelayMs: step,
      deadlineMs: s.deadlineMs ?? DEFAULTS.sim.deadlineMs,
      // A manual virtual terminal waits for the operator's actions (keys or its control endpoint).
      terminal: s.terminal ?? 'auto',
      // The liberal sandbox (sim --liberal): every liberty the documents leave open.
      ...(s.liberal === true ? { liberal: true } : {}),
    });
  } catch (e) {
    if (isToolkitError(e)) throw e; // a setting it refused (an unknown fault) says what to fix
    throw new ToolkitError('PCC_SIMULATOR', `the embedded simulator did not start: ${(e as Error).message}`, 'check the --sim-* settings', {
      cause: e,
    });
  }
  // The simulator forgets everything when it stops, so its pairings go to a throw-away vault unless one is named.
  const dir = mkdtempSync(join(tmpdir(), 'pcc-sim-vault-'));
  return {
    kind: 'sim',
    baseUrl: sim.url,
    integratorId: req.integratorId ?? sim.integratorId,
    vaultPath: req.vaultPath ? resolve(req.vaultPath) : join(dir, 'vault.json'),
    sandbox: true,
    mintOtps: true,
    mintOtp: () => sim.mintOtp(),
    // Long enough to see a status that changes one terminal step after it was final, and a webhook
    // retried on the simulator's shrunk schedule. The liberal sandbox promises no pace of the
    // simulator's: the run waits as against a service (without scaling: it has no steps of its own to learn from).
    pace:
      s.liberal === true
        ? { settleMs: SERVICE_PACE.settleMs, webhookGraceMs: SERVICE_PACE.webhookGraceMs }
        : { settleMs: Math.max(80, step * 4), webhookGraceMs: Math.max(1000, step * 20) },
    vault: 'private',
    close: async () => {
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
