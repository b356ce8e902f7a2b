/**
 * DSSE envelopes (https://github.com/secure-systems-lab/dsse): the payload signed over its
 * pre-authentication encoding (sigstore's implementation), with an Ed25519 key (node:crypto).
 */
import { type KeyObject, createPublicKey, sign, verify } from 'node:crypto';
import { createRequire } from 'node:module';
import { sha256 } from './statement.ts';

/**
 * sigstore's DSSE helpers, loaded when a report is first signed or verified: every run loads this
 * module, few sign (a CommonJS package, so it loads synchronously, as the callers are).
 */
let sigstore: typeof import('@sigstore/core') | undefined;
const dsse = () => (sigstore ??= createRequire(import.meta.url)('@sigstore/core') as typeof import('@sigstore/core')).dsse;

export interface Envelope {
  payloadType: string;
  /** Base64. */
  payload: string;
  signatures: { keyid: string; sig: string }[];
}

/** The key id: the SHA-256 (hex) of the public key's SubjectPublicKeyInfo (DER). */
export function keyIdOf(key: KeyObject): string {
  const pub = key.type === 'private' ? createPublicKey(key) : key;
  return sha256(pub.export({ type: 'spki', format: 'der' }));
}

/** An envelope of `payload` signed with `privateKey` (Ed25519). */
export function signEnvelope(payloadType: string, payload: Buffer, privateKey: KeyObject): Envelope {
  const sig = sign(null, dsse().preAuthEncoding(payloadType, payload), privateKey);
  return { payloadType, payload: payload.toString('base64'), signatures: [{ keyid: keyIdOf(privateKey), sig: sig.toString('base64') }] };
}

/** Whether one of the envelope's signatures verifies with `publicKey`. */
export function verifyEnvelope(envelope: Envelope, publicKey: KeyObject): boolean {
  const pae = dsse().preAuthEncoding(envelope.payloadType, Buffer.from(envelope.payload, 'base64'));
  return envelope.signatures.some((s) => {
    try {
      return verify(null, pae, publicKey, Buffer.from(s.sig, 'base64'));
    } catch {
      return false;
    }
  });
}
