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
  sim?: { seed?: number; faults?: readonly string[]; faultRate?: number; stepDelayMs?: number; deadlineMs?: number; terminal?: 'auto' | 'manual'; liberal?: boolean };
  /** Where the Pact mock writes its pact when it closes (kind `pact`). */
  pactDir?: string;
  /** Where the run's webhook receiver listens, and its public URL (kind `pact`: the pairing's webhook URL names it). */
  webhookListen?: { host: string; port: number };
  webhookPublicUrl?: string;
  /** CA, client certificate and proxy of the connections to a URL target. @default the environment's */
  transport?: Transport;
}

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
      integratorId: req.integratorId, pactDir: req.pactDir ?? join(tmpdir(), 'pcc-pacts'),
      ...(req.webhookListen ? { webhookListen: req.webhookListen } : {}), ...(req.webhookPublicUrl ? { webhookPublicUrl: req.webhookPublicUrl } : {}),
    });
    return { kind: 'pact', ...t };
  }
  if (req.kind === 'sim') return openSim(req);
  const baseUrl = (req.baseUrl ?? '').replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]/.test(baseUrl)) throw new ToolkitError('PCC_USAGE', `--target must be sim or the service's base URL (got ${req.baseUrl ?? 'nothing'})`, 'pass --target https://your-sandbox.example');
  if (!req.integratorId) throw new ToolkitError('PCC_USAGE', 'a URL target needs --integrator-id', 'pass --integrator-id <id> (issued by the vendor), or set PAYCONNECT_INTEGRATOR_ID');
  assertTargetAllowed(baseUrl, req.profile, req.allowProduction ?? false);
  await assertReachable(baseUrl, req.transport);
  const sandbox = req.profile.name === 'sandbox';
  return { kind: 'url', baseUrl, integratorId: req.integratorId, vaultPath: resolve(req.vaultPath ?? DEFAULTS.vault), sandbox, mintOtps: sandbox, close: async () => {} };
}

async function openSim(req: TargetRequest): Promise<Target> {
  const s = req.sim ?? {};
  let sim: SimulatorHandle;
  try {
    sim = await startSimulator({
      // The run's seed may be negative (--seed -5); the simulator takes its 32 bits, unsigned.
      host: '127.0.0.1', port: 0, seed: s.seed === undefined ? undefined : simulatorSeedOf(s.seed), faults: (s.faults ?? DEFAULTS.sim.faults) as never, faultRate: s.faultRate ?? DEFAULTS.sim.faultRate,
      stepDelayMs: s.stepDelayMs ?? DEFAULTS.sim.stepDelayMs, deadlineMs: s.deadlineMs ?? DEFAULTS.sim.deadlineMs,
      // A manual virtual terminal waits for the operator's actions (keys or its control endpoint).
      terminal: s.terminal ?? 'auto',
      // The liberal sandbox (sim --liberal): every liberty the documents leave open.
      ...(s.liberal === true ? { liberal: true } : {}),
    });
  } catch (e) {
    if (isToolkitError(e)) throw e; // a setting it refused (an unknown fault) says what to fix
    throw new ToolkitError('PCC_SIMULATOR', `the embedded simulator did not start: ${(e as Error).message}`, 'check the --sim-* settings', { cause: e });
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
    close: async () => {
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
