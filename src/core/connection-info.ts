/** How a run's connections to the service were made, as every report shows it (URL targets). */
export interface ConnectionInfo {
  /** The CAs trusted: `system`, plus NODE_EXTRA_CA_CERTS and --ca-file when given. */
  trust: string;
  /** `off` when NODE_TLS_REJECT_UNAUTHORIZED=0: any certificate was accepted, so nothing is certified. */
  verification: 'on' | 'off';
  /** The client certificate's file (mTLS), never its key. */
  clientCertificate?: string;
  /** The proxies in effect, without credentials. */
  proxy?: { http?: string; https?: string; noProxy?: string };
}
