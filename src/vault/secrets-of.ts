import type { VaultEntry } from './vault.ts';

/**
 * The secret values of a pairing (`client_secret`, `webhook_secret_key` when set), for the
 * redaction list of recorders and reports. Empty strings are left out: redacting '' would mangle
 * every string.
 */
export function secretsOf(entry: VaultEntry): string[] {
  const { client_secret, webhook_secret_key } = entry.credentials;
  return [client_secret, webhook_secret_key].filter((s): s is string => typeof s === 'string' && s.length > 0);
}
