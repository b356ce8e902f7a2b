/**
 * The TLS sandbox's certificates: at each start a throw-away CA (a few days valid) signs one server
 * certificate for localhost, 127.0.0.1, ::1 and the listen host. Only the CA certificate is written
 * (`ca.pem`, for the integrator's client to trust); the CA's key lives inside {@link createSimTls}
 * only: it signs the server certificate and is dropped, so trusting the CA trusts nothing else. The
 * server's key stays in memory, never written or logged.
 *
 * Keys come from node:crypto; node-forge builds the certificates (Node has no X.509 builder).
 */
import { generateKeyPair, randomBytes } from 'node:crypto';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { makeDirs } from '../core/index.ts';

/** How long the CA and the server certificate are valid, from an hour before the start (clock skew). */
export const TLS_VALID_DAYS = 3;

/** The name of the CA file in the TLS folder. */
export const CA_FILE_NAME = 'ca.pem';

/** A running simulator's TLS material. */
export interface SimTls {
  /** The server's private key (PEM), for node:https only. */
  readonly key: string;
  /** The server certificate (PEM), signed by the CA. */
  readonly cert: string;
  /** The CA certificate (PEM): what `caFile` holds. */
  readonly caPem: string;
  /** Absolute path of `ca.pem`. */
  readonly caFile: string;
  /** The server certificate's subject alternative names (DNS names and IP addresses). */
  readonly names: readonly string[];
  /** Removes the folder when it was a temporary one made here; a given folder is left as it is. */
  dispose(): Promise<void>;
}

const WILDCARD = new Set(['0.0.0.0', '::']);
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];

/**
 * The host of the TLS URL for a listen host: `localhost` for 127.0.0.1, localhost and the wildcards
 * (a name the certificate covers, as a client would use), else the listen host itself.
 */
export function urlHost(host: string): string {
  const h = host.toLowerCase();
  if (WILDCARD.has(h) || h === '127.0.0.1' || h === 'localhost') return 'localhost';
  return h.includes(':') ? `[${h}]` : h;
}

/** The names the server certificate covers for `host`: the loopback ones, and `host` when it is another name or address. */
export function certificateNames(host: string): string[] {
  const h = host.toLowerCase();
  return WILDCARD.has(h) || LOOPBACK_NAMES.includes(h) ? [...LOOPBACK_NAMES] : [...LOOPBACK_NAMES, h];
}

function rsaKeyPair(): Promise<{ publicKey: string; privateKey: string }> {
  return new Promise((ok, fail) => {
    generateKeyPair(
      'rsa',
      {
        modulusLength: 2048,
        publicKeyEncoding: { type: 'spki', format: 'pem' },
        privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      },
      (e, publicKey, privateKey) => (e ? fail(e) : ok({ publicKey, privateKey })),
    );
  });
}

/** A random positive serial number, 16 bytes in hex. */
function serial(): string {
  const b = randomBytes(16);
  b[0] = b[0]! & 0x7f || 0x01;
  return b.toString('hex');
}

/**
 * Makes the CA and the server certificate, and writes `ca.pem` into `dir` (made when missing) or,
 * without it, into a fresh temporary folder (mode 0700).
 * @throws the file system's error when the folder cannot be made or written
 */
export async function createSimTls(host: string, dir?: string): Promise<SimTls> {
  // Loaded here: a simulator without TLS (every run against the embedded one) does not pay for it.
  const [{ default: forge }, caKeys, serverKeys] = await Promise.all([import('node-forge'), rsaKeyPair(), rsaKeyPair()]);
  const notBefore = new Date(Date.now() - 3_600_000);
  const notAfter = new Date(Date.now() + TLS_VALID_DAYS * 86_400_000);
  const md = () => forge.md.sha256.create();

  const ca = forge.pki.createCertificate();
  ca.publicKey = forge.pki.publicKeyFromPem(caKeys.publicKey);
  ca.serialNumber = serial();
  ca.validity = { notBefore, notAfter };
  const caName = [
    { name: 'commonName', value: `Pay-Connect simulator throw-away CA ${ca.serialNumber.slice(0, 8)}` },
    { name: 'organizationName', value: 'payconnect-conformance (test only)' },
  ];
  ca.setSubject(caName);
  ca.setIssuer(caName);
  ca.setExtensions([
    { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  const caKey = forge.pki.privateKeyFromPem(caKeys.privateKey);
  ca.sign(caKey, md());

  const names = certificateNames(host);
  const server = forge.pki.createCertificate();
  server.publicKey = forge.pki.publicKeyFromPem(serverKeys.publicKey);
  server.serialNumber = serial();
  server.validity = { notBefore, notAfter };
  server.setSubject([{ name: 'commonName', value: names.length > LOOPBACK_NAMES.length ? names.at(-1)! : 'localhost' }]);
  server.setIssuer(ca.subject.attributes);
  server.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames: names.map((n) => (isIP(n) ? { type: 7, ip: n } : { type: 2, value: n })) },
    { name: 'subjectKeyIdentifier' },
    { name: 'authorityKeyIdentifier', keyIdentifier: ca.generateSubjectKeyIdentifier().getBytes() },
  ]);
  server.sign(caKey, md());

  const caPem = forge.pki.certificateToPem(ca);
  const temporary = dir === undefined;
  const folder = temporary ? await mkdtemp(join(tmpdir(), 'payconnect-sim-tls-')) : resolve(dir);
  try {
    if (!temporary) await makeDirs(folder);
    const caFile = join(folder, CA_FILE_NAME);
    // Written whole, then renamed: a client that reads it at its start never reads half a file.
    const part = `${caFile}.${process.pid}.${randomBytes(4).toString('hex')}.part`;
    await writeFile(part, caPem, { mode: 0o644 });
    await rename(part, caFile);
    return {
      key: serverKeys.privateKey,
      cert: forge.pki.certificateToPem(server),
      caPem,
      caFile,
      names,
      dispose: () => (temporary ? rm(folder, { recursive: true, force: true }) : Promise.resolve()),
    };
  } catch (e) {
    if (temporary) await rm(folder, { recursive: true, force: true });
    throw e;
  }
}
