/**
 * Ed25519 key pairs made with openssl for a test file's signed runs, and `verify-certificate` of a
 * reports folder with one of their public keys.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { type CliResult, runCli, tempDir } from './run-cli.ts';

export interface SigningKeys {
  /** Makes the pair NAME.pem and NAME.pub; returns the private key's path (for --sign-key). */
  make(name: string): string;
  /** The private key's path of a pair made before. */
  pem(name: string): string;
  /** `verify-certificate DIR --public-key NAME.pub`. */
  verify(dir: string, name: string): Promise<CliResult>;
}

/** Key pairs in a temporary folder of the test file. */
export function signingKeys(): SigningKeys {
  const dir = tempDir('pcc-keys-');
  const pem = (name: string) => join(dir, `${name}.pem`);
  return {
    make(name) {
      execFileSync('openssl', ['genpkey', '-algorithm', 'ed25519', '-out', pem(name)]);
      execFileSync('openssl', ['pkey', '-in', pem(name), '-pubout', '-out', join(dir, `${name}.pub`)]);
      return pem(name);
    },
    pem,
    verify: (reports, name) => runCli(['verify-certificate', reports, '--public-key', join(dir, `${name}.pub`)]),
  };
}
