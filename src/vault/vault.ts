/**
 * The vault's data: pairing credentials that the service returns once and can never return again,
 * so they are kept on disk (mode 0600) from the moment the pairing answer arrives.
 */

/** The file format version this toolkit reads and writes. */
export const VAULT_VERSION = 1;

/** The pairing answer's fields, as returned by `POST /v1/pay-connect/pair/`. */
export interface PairingCredentials {
  pay_connect_id: string;
  pay_connect_name: string;
  terminal_id: string;
  client_id: string;
  client_secret: string;
  /** Null when the pairing was made without a `webhook_url`. */
  webhook_secret_key: string | null;
}

/** One pairing. Several may share a key (some suites need two pairings of the same target). */
export interface VaultEntry {
  /** `<baseUrl without trailing slashes>|<integratorId>`, see {@link vaultKey}. */
  key: string;
  baseUrl: string;
  integratorId: string;
  /** The `webhook_url` given at pairing, or null. */
  webhookUrl: string | null;
  /** ISO 8601 time the pairing answer arrived. */
  pairedAt: string;
  credentials: PairingCredentials;
  /**
   * The run that made this pairing for itself, its webhook_url a receiver on a port chosen for that
   * run only: no later run can see its deliveries, so that run unpairs it at its end.
   */
  ephemeralRun?: string;
}

/** The whole vault file. */
export interface Vault {
  version: typeof VAULT_VERSION;
  pairings: VaultEntry[];
}

/** An entry as given to `saveVaultEntry`: the key is derived, `pairedAt` defaults to now. */
export interface NewVaultEntry {
  baseUrl: string;
  integratorId: string;
  webhookUrl: string | null;
  pairedAt?: string;
  credentials: PairingCredentials;
  /** See {@link VaultEntry.ephemeralRun}. */
  ephemeralRun?: string;
}

/** The key that groups the pairings of one target: trailing slashes of the base URL do not matter. */
export function vaultKey(baseUrl: string, integratorId: string): string {
  return `${baseUrl.replace(/\/+$/, '')}|${integratorId}`;
}

/** A vault with no pairings (what a missing file reads as). */
export function emptyVault(): Vault {
  return { version: VAULT_VERSION, pairings: [] };
}
