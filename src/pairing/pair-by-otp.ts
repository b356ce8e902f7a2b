/**
 * Pairing by OTP, written once for every caller (the run's harness, the Pact provider states, the
 * `pair` command): the request, the credentials read from the answer, and their safe keeping. The
 * credentials go to the vault the moment the answer arrives, before the caller can do anything else
 * with them: they cannot be recovered. Their secrets are taught to the redactor at the same moment.
 */
import { type PayConnectClient, type PayConnectResponse, type Redactor, callOperation } from '../client/index.ts';
import { type PairingCredentials, saveVaultEntry } from '../vault/index.ts';

/** Where credentials are kept: the vault file, and the target they belong to. */
export interface VaultPlace {
  vaultPath: string;
  baseUrl: string;
  integratorId: string;
}

/** The credentials of a pairing answer, or undefined when it carries none (`name` fills a missing pay_connect_name). */
export function credentialsOf(body: unknown, name = ''): PairingCredentials | undefined {
  const b = body as Record<string, unknown> | undefined;
  if (!b || typeof b.client_id !== 'string' || typeof b.client_secret !== 'string') return undefined;
  const s = (k: string, d = '') => (typeof b[k] === 'string' ? (b[k] as string) : d);
  return {
    pay_connect_id: s('pay_connect_id'),
    pay_connect_name: s('pay_connect_name', name),
    terminal_id: s('terminal_id'),
    client_id: b.client_id,
    client_secret: b.client_secret,
    webhook_secret_key: typeof b.webhook_secret_key === 'string' ? b.webhook_secret_key : null,
  };
}

/**
 * Keeps the credentials of a pairing answer, if it carries any: saved to the vault (atomically,
 * mode 0600; a vault that cannot be written is a toolkit error) and registered with the redactor.
 */
export async function keepCredentials(
  place: VaultPlace,
  answer: { status: number; body: unknown },
  opts: { name?: string; webhookUrl: string | null; redactor?: Redactor; ephemeralRun?: string },
): Promise<PairingCredentials | undefined> {
  const credentials = answer.status === 200 ? credentialsOf(answer.body, opts.name) : undefined;
  if (!credentials) return undefined;
  await saveVaultEntry(place.vaultPath, {
    baseUrl: place.baseUrl,
    integratorId: place.integratorId,
    webhookUrl: opts.webhookUrl,
    credentials,
    ...(opts.ephemeralRun ? { ephemeralRun: opts.ephemeralRun } : {}),
  });
  opts.redactor?.register(credentials.client_secret, credentials.webhook_secret_key);
  return credentials;
}

/** The answer to a pairing request, and the credentials kept from it when it paired. */
export interface PairingAnswer {
  response: PayConnectResponse;
  credentials?: PairingCredentials;
}

/** `POST /v1/pay-connect/pair/` with `otp`, then {@link keepCredentials} before returning. */
export async function pairByOtp(
  client: PayConnectClient,
  place: VaultPlace,
  opts: { otp: string; name: string; webhookUrl: string | null; redactor?: Redactor; ephemeralRun?: string },
): Promise<PairingAnswer> {
  const response = await callOperation(client, 'pair', {
    auth: 'none',
    body: { name: opts.name, otp: opts.otp, ...(opts.webhookUrl ? { webhook_url: opts.webhookUrl } : {}) },
  });
  const credentials = await keepCredentials(place, response, opts);
  return credentials ? { response, credentials } : { response };
}
