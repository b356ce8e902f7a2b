/**
 * The pact target (`run --target pact`): the scenario suites run against Pact mock servers instead of
 * a live service, in "stub mode". They hold every HTTP interaction of the consumer catalogue, a mock
 * server per operation (see startOperationMock); a request that no interaction declares is answered
 * 500 and fails the run. The mock is stateless, so the catalogue keys its answers on the request (the
 * amount's last two digits pick the outcome of sandbox.md's table, each outcome has its own
 * transaction id, each id its own status and slip) and the run's pairing is the pact's provider state
 * "a paired terminal", handed to the suites through a throw-away vault holding the pact's fake example
 * credentials. Status records are already final, so a convergence ends at the first poll; amounts are
 * not spread by seed (suites/_setup/steps: planFor, baseAmount). A scenario that needs what a
 * stateless mock cannot show (a sequence of states, timing, races, retries, 409s) is skipped under the
 * Pact mock, saying why (its scenario declares `needs: { stateful: true }`).
 *
 * The suites reach the mock through its front (mock-front.ts), which posts the message pact's webhooks
 * about each id the mock creates, signed with the pact's test key, to the pairing's webhook URL: a
 * slot of the run's receiver, which listens where the target says (`webhookListen`). So the webhook
 * checks judge the message pact's contents, and the webhooks suite runs here too.
 *
 * When the run ends, the consumer catalogue's own drives exercise the interactions the suites left
 * unexercised (a suite need not cover all of them: Pact refuses a pact with an interaction nobody
 * exercised; the mock says which it still misses; each session returns only once its mock has
 * recorded every request it answered, see mock-record.ts), the webhook messages are handed to the toolkit's
 * receiver, and the pact is written, normalised, to `<reports>/pacts/`: byte for byte the pact the
 * consumer suite commits to contracts/pacts/.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MatchersV3, PactV4 } from '@pact-foundation/pact';
import { ToolkitError } from '../../core/index.ts';
import { saveVaultEntry } from '../../vault/index.ts';
import { loopbackBase, slotUrl } from '../../webhooks/index.ts';
import { type MockFront, startMockFront } from './mock-front.ts';
import { type MissingReader, type MissingRequest, missingRequests, untilRecorded } from './mock-record.ts';
import { consumeWebhookMessage, driveInteraction } from './consumer.ts';
import { type DeclaredHttp, declareHttp, declareMessage } from './declare.ts';
import { type HttpInteraction, httpInteractions } from './interactions.ts';
import { webhookMessages } from './messages.ts';
import { CONSUMER, EXAMPLE, PACT_FILE_NAME, PROVIDER } from '../common/names.ts';
import { operations } from '../../generated/contract.ts';
import { writeNormalizedPact } from '../common/pact-file.ts';

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
  webhooks: true,
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
    throw new ToolkitError(
      'PCC_USAGE',
      `the Pact mock stands for a sandbox driven by amount; --terminal ${terminal} does not apply`,
      'drop --terminal (auto is the default) for --target pact',
    );
  }
  if (requested.length === 0) return Object.keys(PACT_SUITES).filter((s) => PACT_SUITES[s] === true);
  for (const s of requested) {
    const why = PACT_SUITES[s];
    if (why !== true) {
      throw new ToolkitError(
        'PCC_USAGE',
        `suite ${s} cannot run against the Pact mock: ${why ?? 'unknown suite'}`,
        `run it with --target sim or a URL; against the pact run ${Object.keys(PACT_SUITES)
          .filter((k) => PACT_SUITES[k] === true)
          .join(', ')}`,
      );
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
  /**
   * Where the run's webhook receiver listens (port 0: a free port is chosen here, since the pairing's
   * webhook URL must be known before the run starts) and the public URL it is reached at, if any.
   */
  webhookListen?: { host: string; port: number };
  webhookPublicUrl?: string;
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
  /** Where the run's webhook receiver must listen: the pairing's webhook URL names it. */
  webhookListen: { host: string; port: number };
  /**
   * Exercises what is left, checks the mock saw only declared requests, writes the pact; with
   * `discard` (the run stopped before its reports) it only stops the mock.
   */
  close(opts?: { discard?: boolean }): Promise<void>;
}

/**
 * The interactions the suites may have left unexercised: those with the method and path of a request
 * the mock still misses (a request of the run that matched none is the mock's own mismatch, and fails
 * the session). Each request costs the mock CPU (matching against every interaction it holds: some
 * 100 ms for the whole catalogue's 830 regular expressions), so exercising all 126 again took 16 s of
 * every pact run when one mock held them; a full run leaves few. Method and path only: an interaction
 * that shares them with a missing one is exercised again, which costs a request and changes nothing;
 * if the mock cannot say, every interaction is.
 */
export function unexercised(http: readonly HttpInteraction[], port: number): HttpInteraction[] {
  return withMissing(http, missingRequests(port));
}

/** The interactions with the method and path of a `missing` request; all of them when the mock cannot say. */
function withMissing(http: readonly HttpInteraction[], missing: readonly MissingRequest[] | undefined): HttpInteraction[] {
  if (missing === undefined) return [...http];
  return http.filter((i) => {
    const path = typeof i.path === 'string' ? i.path : MatchersV3.reify<string>(i.path);
    return missing.some((m) => m.method === i.method && m.path === path);
  });
}

/** A Pact mock server as a session's end sees it: where it answers, and what it still misses. */
export interface SessionMock {
  url: string;
  missing: MissingReader;
}

/**
 * A session's last step: exercises the interactions of `http` the mock still misses ({@link
 * unexercised}), and, when a request is still missing after that (its method and path named no
 * interaction, or the mock cannot say), every other one, as before. It returns only once the mock has
 * recorded every request it answered, or `waitMs` after the last one (mock-record.ts): pact-js judges
 * the session on that record the moment this returns, and the Pact core records a match after its answer.
 */
export async function exerciseRest(
  http: readonly HttpInteraction[],
  mock: SessionMock,
  opts: { drive?: (i: HttpInteraction, baseUrl: string) => Promise<void>; waitMs?: number } = {},
): Promise<void> {
  const drive = opts.drive ?? driveInteraction;
  const driven = new Set<HttpInteraction>();
  for (const i of withMissing(http, mock.missing())) {
    driven.add(i);
    await drive(i, mock.url);
  }
  if (((await untilRecorded(mock.missing, opts.waitMs)) ?? http).length > 0) {
    for (const i of http) if (!driven.has(i)) await drive(i, mock.url);
    await untilRecorded(mock.missing, opts.waitMs);
  }
}

/** One operation's interactions on a Pact mock server of their own, its session held open until released. */
interface OperationMock {
  operationId: string;
  pact: PactV4;
  http: HttpInteraction[];
  url: Promise<string>;
  /** Ends when the session does: the mock's mismatches fail it, and it writes its part of the pact. */
  session: Promise<void>;
  release(): void;
}

/**
 * A mock server per operation: the Pact mock matches each request against every interaction it holds
 * (some 100 ms a request for the whole catalogue's 126, of CPU in its own threads: 20 CPU-s of a 30 s
 * pact run), and a request can only match the interactions of its own method and path, so holding
 * each operation's apart changes no answer and matches against a few. `discarded()` tells a session
 * released without exercising (the run stopped before its reports).
 */
function startOperationMock(operationId: string, http: HttpInteraction[], dir: string, discarded: () => boolean): OperationMock {
  const pact = new PactV4({ consumer: CONSUMER, provider: PROVIDER, dir, logLevel: 'error' });
  let last: DeclaredHttp | undefined;
  for (const i of http) last = declareHttp(pact, i);
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let ready!: (url: string) => void;
  const started = new Promise<string>((r) => (ready = r));
  const session = last!.executeTest(async (mock) => {
    ready(mock.url);
    await released;
    if (discarded()) return;
    await exerciseRest(http, { url: mock.url, missing: () => missingRequests(mock.port) });
  });
  session.catch(() => undefined);
  const url = Promise.race([started, session.then(() => Promise.reject(new Error(`the mock of ${operationId} ended early`)))]);
  url.catch(() => undefined);
  return { operationId, pact, http, url, session, release };
}

/**
 * Which operation's mock a request goes to: the operation of its method and path. A request of no
 * operation the catalogue holds goes to the first mock, which answers it as undeclared (500) and
 * fails its session, as the one mock of the whole catalogue did.
 */
function routeByOperation(mocks: readonly OperationMock[], urls: readonly string[]): (method: string, path: string) => string {
  const byOperation = new Map(mocks.map((m, i) => [m.operationId, urls[i]!]));
  const routes = operations
    .filter((op) => byOperation.has(op.operationId))
    .map((op) => ({ method: op.method, pattern: new RegExp(op.pattern), url: byOperation.get(op.operationId)! }));
  return (method, path) => routes.find((r) => r.method === method && r.pattern.test(path))?.url ?? urls[0]!;
}

/**
 * Ends the mock's sessions one at a time (each merges its part into the one pact file of the folder),
 * then declares the webhook messages and writes the pact; a request no interaction allows fails it.
 */
async function writePact(
  mocks: readonly OperationMock[],
  messages: ReturnType<typeof webhookMessages>,
  work: string,
  pactDir: string,
): Promise<void> {
  const refused: string[] = [];
  for (const m of mocks) {
    m.release();
    try {
      await m.session;
    } catch (e) {
      refused.push((e as Error).message.trim());
    }
  }
  if (refused.length > 0) {
    throw new ToolkitError(
      'PCC_PACT',
      `the requests made against the Pact mock do not agree with the pact:\n${refused.join('\n')}`,
      'every request of a suite run against the pact must be one of its interactions (src/pact/consumer/interactions.ts)',
    );
  }
  for (const m of messages) await declareMessage(mocks[0]!.pact, m).executeTest((message) => consumeWebhookMessage(m, message));
  writeNormalizedPact(work, pactDir);
}

/** Starts the Pact mock with every HTTP interaction of the catalogue: a mock server per operation. */
export async function openPactTarget(options: PactTargetOptions): Promise<PactTarget> {
  const work = mkdtempSync(join(tmpdir(), 'pcc-pact-target-'));
  const byOperation = new Map<string, HttpInteraction[]>();
  for (const i of httpInteractions()) byOperation.set(i.operationId, [...(byOperation.get(i.operationId) ?? []), i]);
  // A run stopped before its reports writes no pact: nothing is exercised to write one.
  let discarded = false;
  const mocks = [...byOperation].map(([operationId, http]) => startOperationMock(operationId, http, work, () => discarded));
  const stopAll = async () => {
    discarded = true;
    for (const m of mocks) m.release();
    await Promise.allSettled(mocks.map((m) => m.session));
  };
  let urls: string[];
  try {
    urls = await Promise.all(mocks.map((m) => m.url));
  } catch (e) {
    await stopAll();
    rmSync(work, { recursive: true, force: true });
    throw new ToolkitError(
      'PCC_PACT',
      `the Pact mock server did not start: ${(e as Error).message}`,
      'check that @pact-foundation/pact is installed with its native core',
      { cause: e },
    );
  }

  // The provider state "a paired terminal whose webhooks reach the toolkit": the pairing's webhook URL
  // is a slot of the run's receiver, which must therefore listen where this URL says.
  const host = options.webhookListen?.host ?? '127.0.0.1';
  const slot = 'pact';
  const messages = webhookMessages();
  let listen: { host: string; port: number };
  let front: MockFront;
  try {
    listen = { host, port: options.webhookListen?.port || (await freePort(host)) };
    front = await startMockFront({
      mockFor: routeByOperation(mocks, urls),
      messages,
      webhookUrl: slotUrl(loopbackBase(listen.host, listen.port), slot),
      webhookKey: EXAMPLE.webhookKey,
    });
  } catch (e) {
    await stopAll();
    rmSync(work, { recursive: true, force: true });
    throw new ToolkitError(
      'PCC_PACT',
      `the front of the Pact mock did not start: ${(e as Error).message}`,
      'check that this machine can listen on loopback',
      { cause: e },
    );
  }
  const webhookUrl = slotUrl(options.webhookPublicUrl ?? loopbackBase(listen.host, listen.port), slot);
  const baseUrl = front.url;

  const integratorId = options.integratorId ?? EXAMPLE.integratorId;
  const vaultPath = join(work, 'vault.json');
  // The pairing, as a staging run gets it: a vault entry (the pact's fake credentials and test key).
  await saveVaultEntry(vaultPath, {
    baseUrl,
    integratorId,
    webhookUrl,
    credentials: {
      pay_connect_id: 'pc_01HZX8',
      pay_connect_name: EXAMPLE.pairingName,
      terminal_id: 'T0001234',
      client_id: EXAMPLE.clientId,
      client_secret: EXAMPLE.clientSecret,
      webhook_secret_key: EXAMPLE.webhookKey,
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
    webhookListen: listen,
    close: (opts) =>
      (closing ??= (async () => {
        try {
          await front.close();
          if (opts?.discard) await stopAll();
          else await writePact(mocks, messages, work, options.pactDir);
        } finally {
          rmSync(work, { recursive: true, force: true });
        }
      })()),
  };
}

/**
 * A port free on `host` now: the run's receiver binds it moments later. Another listener could take
 * it in between, a small chance; the receiver then says it cannot listen (PCC_WEBHOOK_LISTEN) and
 * `--webhook-listen <host:port>` names one.
 */
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, host, () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}
