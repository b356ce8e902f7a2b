/** Starting and stopping the embedded simulator. */
import type { AddressInfo } from 'node:net';
import { ToolkitError } from '../core/errors.ts';
import { operationRoutes } from './api-operations.ts';
import { pairingRoutes } from './api-pairing.ts';
import { transactionRoutes } from './api-transactions.ts';
import { createContext } from './sim-state.ts';
import type { FaultId } from './faults.ts';
import { resolveSimulatorOptions, type SimulatorOptions } from './options.ts';
import { Router } from './router.ts';
import { createSimServer } from './server.ts';

/** The integrator id the simulator suggests; any non-empty id is accepted at pairing. */
export const SIM_INTEGRATOR_ID = 'sim-integrator';

/** A running simulator. */
export interface SimulatorHandle {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  /** A suggested integrator id (`sim-integrator`). */
  readonly integratorId: string;
  /** The seed in use (the given one, or the random default). */
  readonly seed: number;
  /** A fresh, never-used valid six-digit OTP. */
  mintOtp(): string;
  /**
   * Test-only: the secrets this simulator has handed out (client secrets, webhook keys, access
   * tokens; the most recent 10,000), so a test can prove none of them leaked into logs or reports.
   */
  issuedSecrets(): readonly string[];
  /** Replaces the active fault switches (throws PCC_CONFIG_INVALID on an unknown id, changing nothing). */
  setFaults(ids: readonly FaultId[]): void;
  /** The active fault switches. */
  readonly faults: readonly FaultId[];
  /** Closes the server, keep-alive sockets, terminal timers and webhook deliveries. Idempotent. */
  close(): Promise<void>;
}

/** Starts a simulator; resolves once it listens. */
export async function startSimulator(options?: SimulatorOptions): Promise<SimulatorHandle> {
  const resolved = resolveSimulatorOptions(options);
  const ctx = createContext(resolved);
  const router = new Router([...pairingRoutes(ctx), ...transactionRoutes(ctx), ...operationRoutes(ctx)]);
  const sim = createSimServer(ctx, router);

  try {
    await new Promise<void>((resolve, reject) => {
      sim.server.once('error', reject);
      sim.server.listen(resolved.port, resolved.host, () => {
        sim.server.off('error', reject);
        resolve();
      });
    });
  } catch (e) {
    await ctx.webhooks.close();
    throw new ToolkitError('PCC_SIMULATOR', `the simulator could not listen on ${resolved.host}:${resolved.port}: ${(e as Error).message}`,
      'choose another --port (0 picks a free one) or --host', { cause: e });
  }

  const addr = sim.server.address() as AddressInfo;
  const host = addr.address === '0.0.0.0' ? '127.0.0.1' : addr.address === '::' ? '::1' : addr.address;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${addr.port}`;

  let closing: Promise<void> | null = null;
  return {
    url,
    integratorId: SIM_INTEGRATOR_ID,
    seed: resolved.seed,
    mintOtp: () => ctx.otps.mint(),
    issuedSecrets: () => ctx.registry.issuedSecrets(),
    setFaults: (ids) => ctx.faults.set(ids),
    get faults() {
      return ctx.faults.list();
    },
    close: () =>
      (closing ??= (async () => {
        ctx.registry.disposeAll();
        await Promise.all([sim.close(), ctx.webhooks.close()]);
      })()),
  };
}
