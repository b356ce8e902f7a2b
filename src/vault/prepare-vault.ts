/**
 * The vault as a command is about to use it, checked before any request: filled from
 * PAYCONNECT_VAULT_JSON when that is set, refused when group or others may read it, and, when the
 * command may pair, shown to take a file (credentials it could not save would be lost).
 */
import { assertVaultWritable } from './assert-vault-writable.ts';
import { type LoadedVault, loadPrivateVault } from './load-vault.ts';
import { seedVaultFromEnv } from './seed-vault-from-env.ts';

export async function prepareVault(file: string, env: NodeJS.ProcessEnv, opts: { mayPair: boolean }): Promise<LoadedVault> {
  await seedVaultFromEnv(file, env);
  const loaded = await loadPrivateVault(file);
  if (opts.mayPair) await assertVaultWritable(file);
  return loaded;
}
