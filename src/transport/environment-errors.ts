/**
 * Failures of the path to the service, not of the service: a certificate the toolkit does not trust,
 * a hostname the certificate does not name, a TLS handshake that never became HTTP, a proxy that
 * refused or could not tunnel. Each becomes a usage error (exit 2) naming the cause and the fix,
 * never a finding filed against the service.
 */
import { ToolkitError } from '../core/errors.ts';
import { LOOPBACK_HOSTS, withoutCredentials, type Transport } from './transport.ts';

/** Certificate and handshake errors of Node's TLS (openssl's names, and Node's ERR_TLS_ and ERR_SSL_). */
const CERTIFICATE = /^(UNABLE_TO_|SELF_SIGNED_|DEPTH_ZERO_SELF_SIGNED|CERT_|ERR_TLS_CERT_|HOSTNAME_MISMATCH|INVALID_CA|UNABLE_TO_VERIFY)/;
const HANDSHAKE = /^(ERR_SSL_|ERR_TLS_|EPROTO$|UND_ERR_PRX_TLS$)/;
/** Errors of opening a connection: through a proxy, the connection opened is the proxy's. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/** The errno, openssl or undici code of `err` or of its causes, and the innermost message. */
function codeAndMessageOf(err: unknown): { code?: string; message: string } {
  let code: string | undefined;
  let message = err instanceof Error ? err.message : String(err);
  for (let e: unknown = err, depth = 0; e && depth < 5; depth++) {
    const c = (e as { code?: unknown }).code;
    // The deepest code is the most specific (undici wraps openssl's).
    if (typeof c === 'string') code = c;
    if (e instanceof Error && e.message) message = e.message;
    e = (e as { cause?: unknown }).cause;
  }
  return code ? { code, message } : { message };
}

/** The proxy `url` goes through under `transport`, or undefined when it goes direct. */
export function proxyFor(transport: Transport, url: string): string | undefined {
  if (!transport.proxy) return undefined;
  const u = new URL(url);
  const host = u.hostname.toLowerCase();
  // The same hosts createDispatcher sends direct, so the cause named is the way really taken.
  if (LOOPBACK_HOSTS.includes(host)) return undefined;
  const port = Number(u.port) || (u.protocol === 'https:' ? 443 : 80);
  for (const raw of (transport.proxy.noProxy ?? '').split(/[,\s]+/).filter(Boolean)) {
    if (raw === '*') return undefined;
    const m = /^(.+):(\d+)$/.exec(raw);
    const entry = (m ? m[1]! : raw).replace(/^\*?\./, '').toLowerCase();
    if (m && Number(m[2]) !== port) continue;
    if (host === entry || host.endsWith(`.${entry}`)) return undefined;
  }
  return u.protocol === 'https:' ? transport.proxy.httpsProxy : transport.proxy.httpProxy;
}

/**
 * `err`, met while connecting to `url`, as the environment error it is (PCC_TARGET_TLS or
 * PCC_PROXY), or undefined when it is none of those (the caller decides what else it is).
 */
export function environmentErrorOf(err: unknown, url: string, transport: Transport): ToolkitError | undefined {
  const { code, message } = codeAndMessageOf(err);
  const origin = new URL(url).origin;
  const proxy = proxyFor(transport, url);
  const proxyShown = proxy ? withoutCredentials(proxy) : undefined;
  const tunnel = /Proxy response \((\d+)\)/.exec(message);
  if (proxyShown && tunnel) {
    const status = Number(tunnel[1]);
    const why =
      status === 407
        ? 'asks for proxy authentication (407)'
        : status === 403
          ? "refused to connect to it (403: the proxy's rules forbid this host or port)"
          : status === 502 || status === 503 || status === 504
            ? `could not reach it (${status}: the proxy could not resolve or connect to the host)`
            : `refused to tunnel to it (${status})`;
    const fix =
      status === 407
        ? "put the proxy's credentials in its URL (http://user:password@proxy:port) in --proxy or HTTPS_PROXY"
        : 'check the host and port of --target, and that the proxy allows CONNECT to them; or add the host to NO_PROXY if it must be reached directly';
    return new ToolkitError('PCC_PROXY', `the proxy ${proxyShown} ${why} for ${origin}`, fix, { cause: err });
  }
  if (code && CERTIFICATE.test(code)) {
    const what = /ALTNAME|HOSTNAME/.test(code)
      ? `the certificate of ${origin} does not name that host (${code})`
      : /EXPIRED|NOT_YET_VALID/.test(code)
        ? `the certificate of ${origin} is not valid now (${code})`
        : `the certificate of ${origin} is not signed by a CA the toolkit trusts (${code})`;
    const fix = /ALTNAME|HOSTNAME/.test(code)
      ? 'use the host name the certificate was issued for in --target (not an IP address or an alias it does not list)'
      : /EXPIRED|NOT_YET_VALID/.test(code)
        ? "renew the service's certificate, or check this machine's clock"
        : 'pass the CA that issued it with --ca-file ca.pem (or PAYCONNECT_CA_FILE, or NODE_EXTRA_CA_CERTS=ca.pem)';
    return new ToolkitError('PCC_TARGET_TLS', what, fix, { cause: err });
  }
  if (code && HANDSHAKE.test(code)) {
    const plainToTls = /WRONG_VERSION_NUMBER|PACKET_LENGTH_TOO_LONG|HTTP_REQUEST/i.test(`${code} ${message}`);
    if (plainToTls) {
      return new ToolkitError(
        'PCC_TARGET_TLS',
        `${origin} does not speak TLS on that port (${code})`,
        'the port serves plain HTTP: use http:// in --target, or the port that serves https',
        { cause: err },
      );
    }
    const certRequired = /CERTIFICATE_REQUIRED|HANDSHAKE_FAILURE|BAD_CERTIFICATE|UNKNOWN_CA/i.test(`${code} ${message}`);
    return new ToolkitError(
      'PCC_TARGET_TLS',
      `the TLS handshake with ${origin} failed (${code}: ${message})`,
      certRequired
        ? 'the service may require a client certificate: pass --client-cert and --client-key (or a .p12 ' +
            'with --client-cert), or check that it trusts the one given'
        : 'check the TLS settings of --target (https:// for a TLS port), --ca-file, and --client-cert',
      { cause: err },
    );
  }
  if (proxyShown && code && UNREACHABLE.has(code)) {
    return new ToolkitError(
      'PCC_PROXY',
      `the proxy ${proxyShown} could not be reached (${code}) on the way to ${origin}`,
      `check the proxy address in ${transport.settings.proxy ? '--proxy' : 'HTTPS_PROXY/HTTP_PROXY'}, ` +
        `or add the host to NO_PROXY if it must be reached directly`,
      { cause: err },
    );
  }
  return undefined;
}
