import { describe, expect, it } from 'vitest';
import { findPairings } from './find-pairings.ts';
import { secretsOf } from './secrets-of.ts';
import { sampleEntry } from './testdata/sample-entry.ts';
import { vaultKey, type Vault, type VaultEntry } from './vault.ts';

const stored = (id: string, baseUrl?: string, integratorId?: string): VaultEntry => {
  const e = sampleEntry(id, baseUrl, integratorId);
  return { ...e, key: vaultKey(e.baseUrl, e.integratorId), pairedAt: '2024-01-01T00:00:00Z' };
};

describe('findPairings and secretsOf', () => {
  it("finds a target's pairings in saved order, ignoring trailing slashes of the base URL", () => {
    const vault: Vault = {
      version: 1,
      pairings: [stored('a'), stored('x', 'http://elsewhere'), stored('y', undefined, 'other'), stored('b', 'http://127.0.0.1:4010//')],
    };
    expect(findPairings(vault, 'http://127.0.0.1:4010/', 'integrator-1').map((e) => e.credentials.pay_connect_id)).toEqual(['a', 'b']);
    expect(findPairings(vault, 'http://127.0.0.1:4010', 'nobody')).toEqual([]);
  });

  it('lists the secrets to redact, leaving out a null or empty webhook key', () => {
    expect(secretsOf(stored('a'))).toEqual(['client-secret-a', 'whsec-a']);
    const noKey = stored('b');
    noKey.credentials.webhook_secret_key = null;
    expect(secretsOf(noKey)).toEqual(['client-secret-b']);
    noKey.credentials.client_secret = '';
    expect(secretsOf(noKey)).toEqual([]);
  });
});
