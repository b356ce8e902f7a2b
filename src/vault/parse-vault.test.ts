import { describe, expect, it } from 'vitest';
import { isToolkitError } from '../core/errors.ts';
import { parseVault } from './parse-vault.ts';
import { vaultKey } from './vault.ts';

const entry = () => ({
  key: vaultKey('http://x/', 'i'),
  baseUrl: 'http://x/',
  integratorId: 'i',
  webhookUrl: null,
  pairedAt: '2024-01-01T00:00:00Z',
  credentials: {
    pay_connect_id: 'p',
    pay_connect_name: 'n',
    terminal_id: 't',
    client_id: 'c',
    client_secret: 'SECRET-VALUE',
    webhook_secret_key: null,
  },
});

function errorOf(value: unknown): string {
  try {
    parseVault(typeof value === 'string' ? value : JSON.stringify(value), '/vaults/v.json');
  } catch (error) {
    expect(isToolkitError(error) && error.code).toBe('PCC_VAULT_INVALID');
    expect((error as { hint?: string }).hint).toMatch(/never overwrites or repairs/);
    return (error as Error).message;
  }
  throw new Error('parseVault accepted it');
}

describe('parseVault', () => {
  it('accepts a valid vault and keeps unknown fields', () => {
    const vault = parseVault(JSON.stringify({ version: 1, pairings: [{ ...entry(), note: 'kept' }], extra: 1 }), 'f');
    expect(vault.pairings[0]).toMatchObject({ note: 'kept', key: 'http://x|i' });
    expect((vault as unknown as { extra: number }).extra).toBe(1);
  });

  it('names the file and the wrong field, without echoing values', () => {
    expect(errorOf('{"version": 1, "pairings": [')).toMatch(/^vault file \/vaults\/v\.json: is not valid JSON/);
    expect(errorOf('')).toMatch(/is not valid JSON/);
    // The parser's own message quotes the text; a vault's text holds secrets.
    const secret = errorOf('{"version": 1, "pairings": [{"client_secret": "cs-top-secret-value" oops}]}');
    expect(secret).toMatch(/is not valid JSON \(at character \d+\)$/);
    expect(secret).not.toContain('cs-top-secret');
    expect(errorOf([])).toMatch(/must be a JSON object, found an array/);
    expect(errorOf({ version: 2, pairings: [] })).toMatch(/version must be 1, found 2/);
    expect(errorOf({ pairings: [] })).toMatch(/version must be 1, found nothing/);
    expect(errorOf({ version: 1 })).toMatch(/pairings must be an array, found nothing/);
    expect(errorOf({ version: 1, pairings: [entry(), 'x'] })).toMatch(/pairings\[1\] must be an object, found string/);
    const noSecret = entry() as Record<string, unknown>;
    (noSecret['credentials'] as Record<string, unknown>)['client_secret'] = 42;
    expect(errorOf({ version: 1, pairings: [noSecret] })).toMatch(
      /pairings\[0\]\.credentials\.client_secret must be a string, found number/,
    );
    expect(errorOf({ version: 1, pairings: [{ ...entry(), webhookUrl: 3 }] })).toMatch(/webhookUrl must be a string or null/);
    expect(errorOf({ version: 1, pairings: [{ ...entry(), pairedAt: 'yesterday' }] })).toMatch(/pairedAt is not an ISO 8601 time/);
    expect(errorOf({ version: 1, pairings: [{ ...entry(), key: 'other|i' }] })).toMatch(
      /key is "other\|i" but baseUrl\|integratorId gives "http:\/\/x\|i"/,
    );
    const { credentials: _c, ...noCredentials } = entry();
    expect(errorOf({ version: 1, pairings: [noCredentials] })).toMatch(/pairings\[0\]\.credentials must be an object, found nothing/);
    const bad = entry();
    bad.credentials.client_id = 5 as unknown as string;
    expect(errorOf({ version: 1, pairings: [bad] })).not.toContain('SECRET-VALUE');
  });
});
