import type { NewVaultEntry } from '../vault.ts';

/** A pairing with recognisable fake secrets, for tests. */
export function sampleEntry(id: string, baseUrl = 'http://127.0.0.1:4010', integratorId = 'integrator-1'): NewVaultEntry {
  return {
    baseUrl,
    integratorId,
    webhookUrl: 'http://127.0.0.1:5555/webhook',
    credentials: {
      pay_connect_id: id,
      pay_connect_name: `terminal ${id}`,
      terminal_id: `T-${id}`,
      client_id: `client-${id}`,
      client_secret: `client-secret-${id}`,
      webhook_secret_key: `whsec-${id}`,
    },
  };
}
