/**
 * Safety of a URL target: production needs an explicit opt-in, and the target must answer HTTP
 * before anything is sent that changes state.
 */
import { isIP } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { requestWith } from '../core/undici.ts';
import { networkCodeOf } from '../client/network-error.ts';
import { ToolkitError } from '../core/index.ts';
import type { Profile } from '../profile/index.ts';
import { createDispatcher, defaultTransport, environmentErrorOf, proxyFor, type Transport } from '../transport/index.ts';

/** Refuses the vendor's production hosts unless `allowProduction`. */
export function assertTargetAllowed(baseUrl: string, profile: Profile, allowProduction: boolean): void {
  const host = new URL(baseUrl).hostname.toLowerCase();
  if (!allowProduction && profile.productionHosts.some((h) => host === h || host.endsWith(`.${h}`))) {
    throw new ToolkitError(
      'PCC_TARGET_PRODUCTION',
      `${baseUrl} is the vendor's production service: a conformance run starts real transactions there`,
      'point --target at a sandbox or staging address, or pass --allow-production if you mean it',
    );
  }
}

/** The path the preflight asks, under the base URL's own path. */
const PREFLIGHT_PATH = '/v1/pay-connect/config/';

/**
 * Checks that the target answers HTTP at all (any status will do) and that what answers is not a
 * gateway's own error page. Everything that goes wrong here is the way to the service, not the
 * service: a usage or environment error (exit 2) naming the cause, never a finding.
 */
export async function assertReachable(baseUrl: string, transport: Transport = defaultTransport(), timeoutMs = 5000): Promise<void> {
  const url = `${baseUrl.replace(/\/+$/, '')}${PREFLIGHT_PATH}`;
  const dispatcher = createDispatcher(transport, { connect: { timeout: timeoutMs } });
  try {
    let answer: { status: number; type: string; text: string };
    try {
      const res = await requestWith(dispatcher, url, { method: 'GET', headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
      const type = String(res.headers['content-type'] ?? '');
      const text = /html/i.test(type) ? (await res.body.text()).slice(0, 20_000) : (await res.body.dump(), '');
      answer = { status: res.statusCode, type, text };
    } catch (e) {
      throw (
        environmentErrorOf(e, url, transport) ??
        (await plainToTlsPort(baseUrl, url, transport, e, timeoutMs)) ??
        unreachable(baseUrl, url, transport, e)
      );
    }
    const page = gatewayPageOf(answer);
    if (page) throw page.error(baseUrl);
  } finally {
    await dispatcher.close().catch(() => {});
  }
}

/**
 * http:// to a port that serves TLS: the server drops the plain request, which reads as "did not
 * answer". A TLS handshake on the same port (no certificate checked: it only asks whether TLS is
 * spoken there) tells the two apart. Not through a proxy, which would speak for the port.
 */
async function plainToTlsPort(
  baseUrl: string,
  url: string,
  transport: Transport,
  e: unknown,
  timeoutMs: number,
): Promise<ToolkitError | undefined> {
  const u = new URL(url);
  const code = networkCodeOf(e) ?? (e as Error).name;
  if (u.protocol !== 'http:' || proxyFor(transport, url) || !['UND_ERR_SOCKET', 'ECONNRESET', 'HPE_INVALID_CONSTANT'].includes(code))
    return undefined;
  const speaksTls = await new Promise<boolean>((resolve) => {
    const socket = tlsConnect({
      host: u.hostname.replace(/^\[|\]$/g, ''),
      port: Number(u.port || 80),
      rejectUnauthorized: false,
      ...(isIP(u.hostname) ? {} : { servername: u.hostname }),
    });
    const done = (yes: boolean) => {
      socket.destroy();
      resolve(yes);
    };
    socket.setTimeout(Math.min(timeoutMs, 2000), () => done(false));
    socket.once('secureConnect', () => done(true));
    socket.once('error', () => done(false));
  });
  return speaksTls
    ? new ToolkitError(
        'PCC_TARGET_TLS',
        `${baseUrl} did not answer plain HTTP (${code}), and its port speaks TLS`,
        "the port serves https: use https:// in --target (and --ca-file for a private CA, such as sim --tls's ca.pem)",
        { cause: e },
      )
    : undefined;
}

function unreachable(baseUrl: string, url: string, transport: Transport, e: unknown): ToolkitError {
  const code = networkCodeOf(e) ?? (e as Error).name;
  const dns = code === 'ENOTFOUND' || code === 'EAI_AGAIN';
  const fix =
    dns && !proxyFor(transport, url)
      ? "check the host name in --target; if it resolves only through your company's proxy, set HTTPS_PROXY (or pass --proxy http://proxy:port)"
      : 'check the --target address and that the service (or `payconnect-conformance sim`) is running';
  return new ToolkitError('PCC_TARGET_UNREACHABLE', `${baseUrl} did not answer (${code})`, fix, { cause: e });
}

/**
 * An HTML page where the API answers JSON: a gateway, load balancer or TLS front speaking for
 * itself (nginx's "400 No required SSL certificate was sent", "The plain HTTP request was sent to
 * HTTPS port", a 502 page, a login page). Its title says which.
 */
export function gatewayPageOf(answer: {
  status: number;
  type: string;
  text: string;
}): { title: string; error(baseUrl: string): ToolkitError } | undefined {
  if (!/text\/html|application\/xhtml/i.test(answer.type)) return undefined;
  const title =
    (/<title[^>]*>([^<]*)<\/title>/i.exec(answer.text)?.[1] ?? /<h1[^>]*>([^<]*)<\/h1>/i.exec(answer.text)?.[1] ?? '')
      .replace(/\s+/g, ' ')
      .trim() || '(no title)';
  const fix =
    /certificate/i.test(title) || /No required SSL certificate/i.test(answer.text)
      ? 'the front requires a client certificate: pass --client-cert cert.pem --client-key key.pem (or a .p12 with --client-cert)'
      : /plain HTTP request was sent to HTTPS port/i.test(answer.text)
        ? 'the port serves https: use https:// in --target'
        : 'check --target: the base URL must be where the API itself answers (with a gateway that mounts ' +
          'it under a path, include the path: https://gw.example/paycon)';
  return {
    title,
    error: (baseUrl) =>
      new ToolkitError(
        'PCC_TARGET_GATEWAY',
        `${baseUrl} answered GET ${PREFLIGHT_PATH} with ${answer.status} and an HTML page, "${title}": ` +
          `that is something in front of the service speaking, not Pay-Connect`,
        fix,
      ),
  };
}
