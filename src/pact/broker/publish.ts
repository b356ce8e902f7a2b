/**
 * Publishing pacts to a Pact Broker through its HTTP API:
 * `PUT /pacticipants/{consumer}/branches/{branch}/versions/{version}` (with a branch), then
 * `PUT /pacts/provider/{provider}/consumer/{consumer}/version/{version}` with the pact as the body.
 * Authentication is a bearer token (`PACT_BROKER_TOKEN`) or basic auth (`PACT_BROKER_USERNAME` and
 * `PACT_BROKER_PASSWORD`); neither ever appears in an error or a log line.
 */
import { readFileSync } from 'node:fs';
import { request } from 'undici';
import { Redactor } from '../../client/index.ts';
import { ToolkitError } from '../../core/index.ts';
import { checkPactAgainstContract } from '../check/contract-check.ts';
import { PROVIDER } from '../common/names.ts';
import type { PactFile } from '../common/pact-file.ts';

/** How to authenticate to the broker. */
export type BrokerAuth = { token: string } | { username: string; password: string };

/** Options of {@link publishPacts}. */
export interface PublishOptions {
  /** The broker's base URL (no credentials in it). */
  brokerUrl: string;
  /** The consumer version the pacts belong to (a git sha, a build number). */
  consumerVersion: string;
  /** The consumer's branch. @default none */
  branch?: string;
  pactFiles: string[];
  /** @default none (a broker without authentication) */
  auth?: BrokerAuth;
  /** Request timeout. @default 30_000 */
  timeoutMs?: number;
}

/** One published pact. */
export interface Published {
  file: string;
  consumer: string;
  provider: string;
  /** The pact's URL on the broker. */
  url: string;
  status: number;
}

/** The broker credentials of the environment, if any. */
export function brokerAuthFromEnv(env: NodeJS.ProcessEnv): BrokerAuth | undefined {
  if (env.PACT_BROKER_TOKEN) return { token: env.PACT_BROKER_TOKEN };
  if (env.PACT_BROKER_USERNAME && env.PACT_BROKER_PASSWORD)
    return { username: env.PACT_BROKER_USERNAME, password: env.PACT_BROKER_PASSWORD };
  return undefined;
}

function authorization(auth: BrokerAuth | undefined): Record<string, string> {
  if (!auth) return {};
  if ('token' in auth) return { authorization: `Bearer ${auth.token}` };
  return { authorization: `Basic ${Buffer.from(`${auth.username}:${auth.password}`, 'utf8').toString('base64')}` };
}

const seg = (s: string) => encodeURIComponent(s);

/** Publishes each pact file; throws PCC_PACT on the first refusal. */
export async function publishPacts(o: PublishOptions): Promise<Published[]> {
  let base: URL;
  try {
    base = new URL(o.brokerUrl);
  } catch {
    throw new ToolkitError(
      'PCC_USAGE',
      `--broker-url is not a URL: ${o.brokerUrl}`,
      'pass the broker base URL, e.g. https://broker.example',
    );
  }
  if (base.username || base.password) {
    throw new ToolkitError(
      'PCC_USAGE',
      '--broker-url carries credentials',
      'put them in PACT_BROKER_TOKEN, or PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD',
    );
  }
  if (!/^https?:$/.test(base.protocol)) throw new ToolkitError('PCC_USAGE', `--broker-url must be http(s): ${o.brokerUrl}`);
  if (!o.consumerVersion)
    throw new ToolkitError('PCC_USAGE', '--consumer-version is required', 'pass the consumer version, e.g. the git commit');
  const root = base.href.replace(/\/+$/, '');
  const redactor = new Redactor(
    o.auth
      ? 'token' in o.auth
        ? [o.auth.token]
        : [o.auth.password, Buffer.from(`${o.auth.username}:${o.auth.password}`).toString('base64')]
      : [],
  );
  const headers = { 'content-type': 'application/json', accept: 'application/hal+json, application/json', ...authorization(o.auth) };

  const put = async (url: string, body: string): Promise<number> => {
    let res;
    try {
      res = await request(url, { method: 'PUT', headers, body, headersTimeout: o.timeoutMs ?? 30_000, bodyTimeout: o.timeoutMs ?? 30_000 });
    } catch (e) {
      throw new ToolkitError(
        'PCC_PACT',
        `the broker could not be reached at ${url}: ${redactor.redactText((e as Error).message)}`,
        'check --broker-url',
        { cause: e },
      );
    }
    const text = await res.body.text();
    if (res.statusCode < 200 || res.statusCode > 299) {
      const hint =
        res.statusCode === 401 || res.statusCode === 403
          ? 'check PACT_BROKER_TOKEN (or PACT_BROKER_USERNAME / PACT_BROKER_PASSWORD)'
          : undefined;
      throw new ToolkitError(
        'PCC_PACT',
        `the broker answered ${res.statusCode} to PUT ${url}: ${redactor.redactText(text).slice(0, 300)}`,
        hint,
      );
    }
    return res.statusCode;
  };

  const out: Published[] = [];
  for (const file of o.pactFiles) {
    const text = readFileSync(file, 'utf8');
    let pact: PactFile;
    try {
      pact = JSON.parse(text) as PactFile;
    } catch (e) {
      throw new ToolkitError('PCC_PACT', `${file} is not JSON`, 'publish the pact files the consumer suite writes', { cause: e });
    }
    const consumer = pact.consumer?.name;
    const provider = pact.provider?.name;
    if (!consumer || !provider) throw new ToolkitError('PCC_PACT', `${file} names no consumer or provider`);
    // A pact that contradicts the contract is not published (the broker would let it through).
    const problems = provider === PROVIDER ? checkPactAgainstContract(pact) : [];
    if (problems.length > 0)
      throw new ToolkitError(
        'PCC_PACT',
        `${file} disagrees with the contract: ${problems
          .slice(0, 3)
          .map((p) => `${p.interaction}: ${p.message}`)
          .join('; ')}`,
        'fix the consumer suite, then publish',
      );
    if (o.branch) await put(`${root}/pacticipants/${seg(consumer)}/branches/${seg(o.branch)}/versions/${seg(o.consumerVersion)}`, '{}');
    const url = `${root}/pacts/provider/${seg(provider)}/consumer/${seg(consumer)}/version/${seg(o.consumerVersion)}`;
    const status = await put(url, text);
    out.push({ file, consumer, provider, url, status });
  }
  return out;
}
