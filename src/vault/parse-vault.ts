import { ToolkitError } from '../core/errors.ts';
import { VAULT_VERSION, vaultKey, type Vault } from './vault.ts';

/** The hint of every PCC_VAULT_INVALID: the toolkit never repairs a vault, since nothing could restore it. */
export const VAULT_INVALID_HINT =
  'repair the file by hand, or move it away to start a new vault (keep a copy: pairing credentials ' +
  'cannot be recovered, and the toolkit never overwrites or repairs a malformed vault)';

/**
 * Checks that `text` is a vault file of the expected shape and returns it. Unknown extra fields are
 * kept (the objects are returned as parsed), so a save does not drop them.
 *
 * @throws ToolkitError PCC_VAULT_INVALID naming the file and the first field that is wrong
 */
export function parseVault(text: string, file: string): Vault {
  const fail = (what: string): never => {
    throw new ToolkitError('PCC_VAULT_INVALID', `vault file ${file}: ${what}`, VAULT_INVALID_HINT);
  };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    // Only where: the parser's message quotes the text around the error, and the text holds secrets.
    const at = /position (\d+)/.exec((error as Error).message)?.[1];
    return fail(`is not valid JSON${at === undefined ? '' : ` (at character ${at})`}`);
  }
  if (!isObject(data)) return fail(`must be a JSON object, found ${kind(data)}`);
  if (data['version'] !== VAULT_VERSION) {
    return fail(`version must be ${VAULT_VERSION}, found ${JSON.stringify(data['version']) ?? 'nothing'}`);
  }
  const pairings = data['pairings'];
  if (!Array.isArray(pairings)) return fail(`pairings must be an array, found ${kind(pairings)}`);
  pairings.forEach((entry: unknown, i) => {
    const at = `pairings[${i}]`;
    if (!isObject(entry)) return fail(`${at} must be an object, found ${kind(entry)}`);
    for (const field of ['key', 'baseUrl', 'integratorId', 'pairedAt']) expectString(entry, field, at, fail);
    expectString(entry, 'webhookUrl', at, fail, true);
    if (Number.isNaN(Date.parse(entry['pairedAt'] as string))) return fail(`${at}.pairedAt is not an ISO 8601 time`);
    const expectedKey = vaultKey(entry['baseUrl'] as string, entry['integratorId'] as string);
    if (entry['key'] !== expectedKey) {
      return fail(`${at}.key is ${JSON.stringify(entry['key'])} but baseUrl|integratorId gives ${JSON.stringify(expectedKey)}`);
    }
    const credentials = entry['credentials'];
    if (!isObject(credentials)) return fail(`${at}.credentials must be an object, found ${kind(credentials)}`);
    for (const field of ['pay_connect_id', 'pay_connect_name', 'terminal_id', 'client_id', 'client_secret']) {
      expectString(credentials, field, `${at}.credentials`, fail);
    }
    expectString(credentials, 'webhook_secret_key', `${at}.credentials`, fail, true);
  });
  return data as unknown as Vault;
}

function expectString(obj: Record<string, unknown>, field: string, at: string, fail: (what: string) => never, nullable = false): void {
  const value = obj[field];
  if (typeof value === 'string' || (nullable && value === null)) return;
  fail(`${at}.${field} must be a string${nullable ? ' or null' : ''}, found ${kind(value)}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function kind(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : typeof value;
}
