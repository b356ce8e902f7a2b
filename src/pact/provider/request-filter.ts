/**
 * The verifier's request filter: the pact holds only fake credentials, so every request the verifier
 * replays gets the real ones of the state's pairing here, on its way to the provider: the bearer
 * token, the integrator id, and (on the token request) the client credentials. A pairing answer that
 * passes through is saved to the vault before the verifier sees it (its credentials cannot be
 * recovered), and its secrets are learned by the redactor.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PAIR_PATH, type Redactor, TOKEN_PATH, matchesPath } from '../../client/index.ts';
import { operations, startsTransaction } from '../../generated/contract.ts';
import { keepCredentials } from '../../pairing/index.ts';
import { PROBE } from '../common/names.ts';
import type { ProviderDriver } from './provider-states.ts';

/** The slice of an express request the filter uses. */
export interface FilterRequest extends IncomingMessage {
  path: string;
  body?: unknown;
}

/** An express middleware. */
export type RequestFilter = (req: FilterRequest, res: ServerResponse, next: (err?: unknown) => void) => void;

const INTEGRATOR = 'x-pay-connect-integrator-id';

/** The operations that start a transaction (their 200 answer names it). */
const STARTS = operations.filter((o) => startsTransaction(o.operationId));

/** The filter for a verification run driven by `driver`. */
export function requestFilter(driver: ProviderDriver, redactor: Redactor, onError: (e: unknown) => void): RequestFilter {
  return (req, res, next) => {
    // The verifier's own calls (state setup, message requests) are not provider requests.
    if (req.path.startsWith('/_pactSetup') || req.path.startsWith('/_messages')) return next();
    void (async () => {
      const p = driver.current ?? (await driver.primary());
      // The auth probes' headers keep their point: another integrator id stays another one, an invalid token stays invalid.
      const integrator = req.headers[INTEGRATOR];
      if (integrator !== undefined)
        req.headers[INTEGRATOR] =
          `${driver.o.integratorId}${String(integrator).endsWith(PROBE.otherIntegratorSuffix) ? PROBE.otherIntegratorSuffix : ''}`;
      if (req.headers.authorization !== undefined && !req.headers.authorization.startsWith(`Bearer ${PROBE.invalidTokenPrefix}`)) {
        const token = await p.tokens.get();
        redactor.register(token);
        req.headers.authorization = `Bearer ${token}`;
      }
      if (
        req.method === 'POST' &&
        matchesPath(req.path, [TOKEN_PATH]) &&
        req.body &&
        typeof req.body === 'object' &&
        !Buffer.isBuffer(req.body)
      ) {
        const sent = req.body as Record<string, unknown>;
        const wrong =
          typeof sent.client_secret === 'string' && sent.client_secret.endsWith(PROBE.wrongSecretSuffix) ? PROBE.wrongSecretSuffix : '';
        const body = { ...sent, client_id: p.credentials.client_id, client_secret: `${p.credentials.client_secret}${wrong}` };
        req.body = body;
        req.headers['content-length'] = String(Buffer.byteLength(JSON.stringify(body)));
      }
      if (req.method === 'POST' && matchesPath(req.path, [PAIR_PATH])) {
        const url = (req.body as { webhook_url?: unknown } | undefined)?.webhook_url;
        holdAnswer(res, (status, body) => keepPairing(driver, redactor, status, body, typeof url === 'string' ? url : null).catch(onError));
      } else if (req.method === 'POST' && STARTS.some((op) => new RegExp(op.pattern.replace(/^\^/, '')).test(req.path))) {
        holdAnswer(res, async (status, body) => {
          const id = (body as { transaction_id?: unknown } | undefined)?.transaction_id;
          if (status === 200 && typeof id === 'string') driver.adopt(id);
        });
      }
    })().then(
      () => next(),
      (e) => {
        onError(e);
        next(e);
      },
    );
  };
}

/** Saves a pairing answer's credentials to the vault (they cannot be recovered) and learns its secrets. */
async function keepPairing(
  driver: ProviderDriver,
  redactor: Redactor,
  status: number,
  body: unknown,
  webhookUrl: string | null,
): Promise<void> {
  await keepCredentials(driver.o, { status, body }, { name: 'pact-verifier', webhookUrl, redactor });
}

/** Holds a provider answer back from the verifier until `seen` has looked at it. */
function holdAnswer(res: ServerResponse, seen: (status: number, body: unknown) => Promise<unknown>): void {
  const chunks: Buffer[] = [];
  const write = res.write.bind(res);
  const end = res.end.bind(res);
  res.write = ((chunk: unknown) => {
    if (chunk !== undefined && chunk !== null) chunks.push(Buffer.from(chunk as Buffer));
    return true;
  }) as typeof res.write;
  res.end = ((chunk?: unknown) => {
    if (chunk !== undefined && chunk !== null && typeof chunk !== 'function') chunks.push(Buffer.from(chunk as Buffer));
    const raw = Buffer.concat(chunks);
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      body = undefined;
    }
    void seen(res.statusCode, body)
      .catch(() => undefined)
      .finally(() => {
        if (raw.length > 0) write(raw);
        end();
      });
    return res;
  }) as typeof res.end;
}
