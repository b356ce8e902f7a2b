/**
 * The part of node-forge (which ships no types) that tls.ts uses to build X.509 certificates, typed
 * as node-forge 1.x documents it. Keys come from node:crypto, as PEM.
 */
declare module 'node-forge' {
  interface NameAttribute {
    name?: string;
    shortName?: string;
    value: string;
  }
  interface AltName {
    /** 2 dNSName, 7 iPAddress. */
    type: number;
    value?: string;
    ip?: string;
  }
  /** An extension by name, its fields as node-forge names them (basicConstraints: cA, pathLenConstraint; keyUsage: keyCertSign...). */
  interface Extension {
    name: string;
    critical?: boolean;
    altNames?: AltName[];
    [field: string]: unknown;
  }
  interface ByteBuffer {
    getBytes(): string;
  }
  interface PublicKey {
    readonly n: unknown;
  }
  interface PrivateKey {
    readonly d: unknown;
  }
  interface MessageDigest {
    readonly algorithm: string;
  }
  interface Certificate {
    publicKey: PublicKey;
    /** Hex, positive (first byte below 0x80). */
    serialNumber: string;
    validity: { notBefore: Date; notAfter: Date };
    readonly subject: { readonly attributes: NameAttribute[] };
    setSubject(attrs: NameAttribute[]): void;
    setIssuer(attrs: NameAttribute[]): void;
    setExtensions(exts: Extension[]): void;
    generateSubjectKeyIdentifier(): ByteBuffer;
    sign(key: PrivateKey, md: MessageDigest): void;
  }
  const forge: {
    pki: {
      createCertificate(): Certificate;
      publicKeyFromPem(pem: string): PublicKey;
      privateKeyFromPem(pem: string): PrivateKey;
      certificateToPem(cert: Certificate): string;
    };
    md: { sha256: { create(): MessageDigest } };
  };
  export default forge;
}
