/**
 * The signing key (`--sign-key FILE`, or PAYCONNECT_SIGNING_KEY_FILE: an Ed25519 private key in PEM,
 * its passphrase from PAYCONNECT_SIGNING_KEY_PASSPHRASE only) and the public key that verifies. A key
 * that cannot be read is a usage error naming the file; the key's bytes never leave this module.
 */
import { type KeyObject, createPrivateKey, createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ToolkitError } from '../core/index.ts';
import { keyIdOf } from './dsse.ts';

/** The environment variable of the signing key's passphrase. */
export const SIGNING_PASSPHRASE_ENV = 'PAYCONNECT_SIGNING_KEY_PASSPHRASE';

function readKeyFile(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new ToolkitError(
      'PCC_CONFIG_INVALID',
      `${what} ${file} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
      'check the path and its permissions',
      { cause: e },
    );
  }
}

/** The signing key and its id. */
export function loadSigningKey(file: string, env: NodeJS.ProcessEnv): { privateKey: KeyObject; keyid: string } {
  const pem = readKeyFile(file, 'signing key');
  const passphrase = env[SIGNING_PASSPHRASE_ENV];
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey({ key: pem, format: 'pem', ...(passphrase ? { passphrase } : {}) });
  } catch (e) {
    const encrypted = /ENCRYPTED/.test(pem);
    throw new ToolkitError(
      'PCC_CONFIG_INVALID',
      `signing key ${file} is not a readable private key${encrypted ? ' (it is encrypted: the passphrase is missing or wrong)' : ''}`,
      encrypted
        ? `set ${SIGNING_PASSPHRASE_ENV} to its passphrase`
        : 'give an Ed25519 private key in PEM, e.g. made with: openssl genpkey -algorithm ed25519 -out signing.pem',
      { cause: e },
    );
  }
  if (privateKey.asymmetricKeyType !== 'ed25519') {
    throw new ToolkitError(
      'PCC_CONFIG_INVALID',
      `signing key ${file} is a ${privateKey.asymmetricKeyType ?? 'non-asymmetric'} key, not Ed25519`,
      'make one with: openssl genpkey -algorithm ed25519 -out signing.pem',
    );
  }
  return { privateKey, keyid: keyIdOf(privateKey) };
}

/** The public key that verifies (PEM: a public key, or a certificate's). */
export function loadPublicKey(file: string): KeyObject {
  const pem = readKeyFile(file, 'public key');
  let key: KeyObject;
  try {
    key = createPublicKey(pem);
  } catch (e) {
    throw new ToolkitError(
      'PCC_USAGE',
      `public key ${file} is not a PEM public key`,
      'give the public half of the signing key, e.g. openssl pkey -in signing.pem -pubout -out signing.pub',
      { cause: e },
    );
  }
  if (key.asymmetricKeyType !== 'ed25519')
    throw new ToolkitError(
      'PCC_USAGE',
      `public key ${file} is ${key.asymmetricKeyType}, not Ed25519`,
      'give the public half of the Ed25519 signing key',
    );
  return key;
}
