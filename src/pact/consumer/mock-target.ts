/**
 * The pact target (`run --target pact`): the scenario suites run against a Pact mock server instead of
 * a live service, in "stub mode". The mock holds every HTTP interaction of the consumer catalogue; a
 * request that no interaction declares is answered 500 and fails the run. The mock is stateless, so
 * the catalogue keys its answers on the request (the amount's last two digits pick the outcome of
 * sandbox.md's table, each outcome has its own transaction id, each id its own status and slip) and
 * the run's pairing is the pact's provider state "a paired terminal", handed to the suites through a
 * throw-away vault holding the pact's fake example credentials. Status records are already final, so
 * a convergence ends at the first poll; amounts are not spread by seed (suites/_setup/steps: planFor,
 * baseAmount). A scenario that needs what a stateless mock cannot show (a sequence of states, timing,
 * races, retries, 409s) skips under `targetKind === 'pact'` saying why (`notUnderPact`).
 *
 * When the run ends, the consumer catalogue's own drives exercise every interaction once more (a
 * suite need not cover all of them: Pact refuses a pact with an interaction nobody exercised), the
 * webhook messages are handed to the toolkit's receiver, and the pact is written, normalised, to
 * `<reports>/pacts/`: byte for byte the pact the consumer suite commits to contracts/pacts/.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PactV4 } from '@pact-foundation/pact';
import { ToolkitError } from '../../core/index.ts';
import { saveVaultEntry } from '../../vault/index.ts';
import { consumeWebhookMessage, driveInteraction } from './consumer.ts';
import { type DeclaredHttp, declareHttp, declareMessage } from './declare.ts';
import { httpInteractions } from './interactions.ts';
import { webhookMessages } from './messages.ts';
import { CONSUMER, EXAMPLE, PACT_FILE_NAME, PROVIDER } from '../names.ts';
import { writeNormalizedPact } from '../pact-file.ts';

/**
 * The suites that run against the Pact mock, and why the others do not. A suite joins when every
 * request its scenarios make is an interaction of the catalogue and its checks hold on the examples;
 * its scenarios that need a service keeping state skip there with their reason.
 */
export const PACT_SUITES: Readonly<Record<string, string | true>> = {
  config: true,
  payment: true,
  pairing: true,
  auth: true,
  cancel: true,
  preauth: true,
  'print-slip': true,
  webhooks: 'judges the deliveries a service posts as its transactions change, which a mock server does not send; the message pact (verified as messages) holds one example per event, not the ids of the scenarios\' transactions',
  isolation: true,
  refund: true,
  properties: 'sends generated (and invalid) bodies that no interaction declares',
  stateful: 'drives a model of the terminal through sequences of states',
};

/**
 * The suites a pact run includes: the requested ones (all that can by default), each of which must be
 * able to. The catalogue stands for a sandbox driven by amount, so the terminal mode must be `auto`.
 */
export function pactSuites(requested: readonly string[], terminal = 'auto'): string[] {
  if (terminal !== 'auto') {
    throw new ToolkitError('PCC_USAGE', `the Pact mock stands for a sandbox driven by amount; --terminal ${terminal} does not apply`, 'drop --terminal (auto is the default) for --target pact');
  }
  if (requested.length === 0) return Object.keys(PACT_SUITES).filter((s) => PACT_SUITES[s] === true);
  for (const s of requested) {
    const why = PACT_SUITES[s];
    if (why !== true) {
      throw new ToolkitError('PCC_USAGE', `suite ${s} cannot run against the Pact mock: ${why ?? 'unknown suite'}`,
        `run it with --target sim or a URL; against the pact run ${Object.keys(PACT_SUITES).filter((k) => PACT_SUITES[k] === true).join(', ')}`);
    }
  }
  return [...requested];
}

/** Options of {@link openPactTarget}. */
export interface PactTargetOptions {
  /** The integrator id the suites send. @default the pact's example id */
  integratorId?: string;
  /** Where the pact is written when the run ends. */
  pactDir: string;
}

/** An open pact target, in the shape `run` expects of a target. */
export interface PactTarget {
  baseUrl: string;
  integratorId: string;
  vaultPath: string;
  sandbox: boolean;
  mintOtps: boolean;
  /**
   * The catalogue's example OTP, once for each pairing step of the pairing suite that runs here (pair
   * with a webhook URL, the name echoed): the mock answers it the same each time.
   */
  otps: readonly string[];
  /** The pact file written by {@link PactTarget.close}. */
  pactFile: string;
  /** Exercises what is left, checks the mock saw only declared requests, writes the pact. */
  close(): Promise<void>;
}

/** Starts the Pact mock with every HTTP interaction of the catalogue. */
export async function openPactTarget(options: PactTargetOptions): Promise<PactTarget> {
  const work = mkdtempSync(join(tmpdir(), 'pcc-pact-target-'));
  const pact = new PactV4({ consumer: CONSUMER, provider: PROVIDER, dir: work, logLevel: 'error' });
  const http = httpInteractions();
  let last: DeclaredHttp | undefined;
  for (const i of http) last = declareHttp(pact, i);

  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let ready!: (url: string) => void;
  const started = new Promise<string>((r) => (ready = r));
  const session = last!.executeTest(async (mock) => {
    ready(mock.url);
    await released;
    for (const i of http) await driveInteraction(i, mock.url);
  });
  session.catch(() => undefined);
  let baseUrl: string;
  try {
    baseUrl = await Promise.race([started, session.then(() => Promise.reject(new Error('the mock ended early')))]);
  } catch (e) {
    rmSync(work, { recursive: true, force: true });
    throw new ToolkitError('PCC_PACT', `the Pact mock server did not start: ${(e as Error).message}`, 'check that @pact-foundation/pact is installed with its native core', { cause: e });
  }

  const integratorId = options.integratorId ?? EXAMPLE.integratorId;
  const vaultPath = join(work, 'vault.json');
  // The provider state "a paired terminal", as a staging run gets it: a vault entry (the pact's fake credentials).
  await saveVaultEntry(vaultPath, {
    baseUrl, integratorId, webhookUrl: null,
    credentials: {
      pay_connect_id: 'pc_01HZX8', pay_connect_name: EXAMPLE.pairingName, terminal_id: 'T0001234',
      client_id: EXAMPLE.clientId, client_secret: EXAMPLE.clientSecret, webhook_secret_key: null,
    },
  });

  let closing: Promise<void> | undefined;
  return {
    baseUrl,
    integratorId,
    vaultPath,
    sandbox: true,
    mintOtps: false,
    otps: [EXAMPLE.otp, EXAMPLE.otp],
    pactFile: join(options.pactDir, PACT_FILE_NAME),
    close: () => (closing ??= (async () => {
      try {
        release();
        try {
          await session;
        } catch (e) {
          throw new ToolkitError('PCC_PACT', `the requests made against the Pact mock do not agree with the pact:\n${(e as Error).message.trim()}`,
            'every request of a suite run against the pact must be one of its interactions (src/pact/consumer/interactions.ts)', { cause: e });
        }
        for (const m of webhookMessages()) await declareMessage(pact, m).executeTest((message) => consumeWebhookMessage(m, message));
        writeNormalizedPact(work, options.pactDir);
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    })()),
  };
}
