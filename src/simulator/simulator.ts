/** Starting and stopping the embedded simulator. */
import type { AddressInfo } from 'node:net';
import { ToolkitError } from '../core/errors.ts';
import { operationRoutes } from './api-operations.ts';
import { pairingRoutes } from './api-pairing.ts';
import { transactionRoutes } from './api-transactions.ts';
import { controlRoutes, takeAction, terminalViews, type ActionResult, type TerminalAction } from './control.ts';
import { createContext } from './sim-state.ts';
import type { FaultId } from './faults.ts';
import { resolveSimulatorOptions, type SimulatorOptions, type TerminalMode, type TerminalView } from './options.ts';
import { Router } from './router.ts';
import { createSimServer } from './server.ts';
import { createSimTls, type SimTls, urlHost } from './tls.ts';
import type { ForgedOutcome } from './webhooks.ts';

/** The integrator id the simulator suggests; any non-empty id is accepted at pairing. */
export const SIM_INTEGRATOR_ID = 'sim-integrator';

/** A running simulator. */
export interface SimulatorHandle {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:41234`, or with TLS `https://localhost:41234`. */
  readonly url: string;
  /** With TLS: the CA certificate (ca.pem) a client must trust to reach `url`; else null. */
  readonly caFile: string | null;
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
  /** The probability an active fault switch acts at each decision (the `faultRate` option; 1: always). */
  readonly faultRate: number;
  /** How the virtual terminals decide transactions (the `terminal` option). */
  readonly terminalMode: TerminalMode;
  /** Every live terminal and what waits on it for an operator action: the data of `GET /_sim/terminals`. */
  terminals(): TerminalView[];
  /**
   * Manual mode: an operator action on a terminal, as `POST /_sim/terminals/{terminalId}/actions`.
   * `amount` is add-tip's tip (minor units 1..100000, default 100).
   * @returns the same object the endpoint answers: terminal_id, transaction_id, action, status
   * @throws ToolkitError PCC_SIMULATOR when the endpoint would refuse: its message starts with the
   *   HTTP status it would answer (404 not manual mode or unknown terminal, 400 bad action or
   *   amount, 409 nothing waits for an action)
   */
  act(terminalId: string, action: TerminalAction, amount?: number): ActionResult;
  /**
   * Sends one forged webhook delivery (the pairing's last event with a fresh event_id, signed with a
   * wrong key; never retried; recorded as forged) to the webhook_url of the pairing of `terminalId`,
   * or, without it, of the most recent pairing that has a webhook_url.
   * @returns what the receiver answered; null when no such pairing has had an event yet
   */
  forgeDelivery(terminalId?: string): Promise<ForgedOutcome | null>;
  /** Closes the server, keep-alive sockets, terminal timers and webhook deliveries. Idempotent. */
  close(): Promise<void>;
}

/** Starts a simulator; resolves once it listens. */
export async function startSimulator(options?: SimulatorOptions): Promise<SimulatorHandle> {
  const resolved = resolveSimulatorOptions(options);
  const ctx = createContext(resolved);
  const router = new Router([...pairingRoutes(ctx), ...transactionRoutes(ctx), ...operationRoutes(ctx), ...controlRoutes(ctx)]);
  let tls: SimTls | null = null;
  if (resolved.tls) {
    try {
      tls = await createSimTls(resolved.host, resolved.tls.dir);
    } catch (e) {
      await ctx.webhooks.close();
      const where = resolved.tls.dir ?? 'a temporary folder';
      throw new ToolkitError(
        'PCC_SIMULATOR',
        `the simulator could not write its CA certificate to ${where}: ${(e as Error).message}`,
        'give a folder for ca.pem (sim --tls-dir, or tls: { dir }) that can be made and written',
        { cause: e },
      );
    }
  }
  const sim = createSimServer(ctx, router, tls ?? undefined);

  try {
    await new Promise<void>((resolve, reject) => {
      sim.server.once('error', reject);
      sim.server.listen(resolved.port, resolved.host, () => {
        sim.server.off('error', reject);
        resolve();
      });
    });
  } catch (e) {
    await Promise.all([ctx.webhooks.close(), tls?.dispose()]);
    throw new ToolkitError(
      'PCC_SIMULATOR',
      `the simulator could not listen on ${resolved.host}:${resolved.port}: ${(e as Error).message}`,
      'choose another --port (0 picks a free one) or --host',
      { cause: e },
    );
  }

  const addr = sim.server.address() as AddressInfo;
  const host = addr.address === '0.0.0.0' ? '127.0.0.1' : addr.address === '::' ? '::1' : addr.address;
  // With TLS, a name the certificate covers (localhost for loopback), as a client would write it.
  const url = tls ? `https://${urlHost(resolved.host)}:${addr.port}` : `http://${host.includes(':') ? `[${host}]` : host}:${addr.port}`;
  ctx.recorder?.start({ url, seed: resolved.seed, tokenLifetimeSec: resolved.tokenLifetimeSec });

  let closing: Promise<void> | null = null;
  return {
    url,
    caFile: tls?.caFile ?? null,
    integratorId: SIM_INTEGRATOR_ID,
    seed: resolved.seed,
    mintOtp: () => ctx.otps.mint(),
    issuedSecrets: () => ctx.registry.issuedSecrets(),
    setFaults: (ids) => ctx.faults.set(ids),
    get faults() {
      return ctx.faults.list();
    },
    faultRate: resolved.faultRate,
    terminalMode: resolved.terminal,
    terminals: () => terminalViews(ctx),
    act: (terminalId, action, amount) => {
      const out = takeAction(ctx, terminalId, action, amount);
      if (out.ok) return out.result;
      throw new ToolkitError(
        'PCC_SIMULATOR',
        `${out.status}: ${out.detail} (terminal ${terminalId}, action ${String(action)})`,
        out.status === 409
          ? 'act when terminals() shows a transaction waiting on that terminal'
          : out.status === 404
            ? 'start the simulator with terminal: "manual" and use a terminal_id from terminals()'
            : 'use one of present-card, decline, fail, remove-card, timeout, add-tip (amount: add-tip only, 1..100000)',
      );
    },
    forgeDelivery: async (terminalId) => {
      const candidates = [...ctx.registry.all()].filter(
        (p) => p.webhookUrl !== null && (terminalId === undefined || p.terminal.id === terminalId),
      );
      const p = candidates.at(-1);
      return p ? ctx.webhooks.forge(p.id) : null;
    },
    close: () =>
      (closing ??= (async () => {
        ctx.registry.disposeAll();
        await Promise.all([sim.close(), ctx.webhooks.close()]);
        await tls?.dispose();
      })()),
  };
}
