/**
 * How the toolkit's outgoing connections reach a service on a company network: a CA bundle of a
 * private CA, a client certificate (mTLS in front of a payment API), a forward proxy. One place
 * builds every undici dispatcher that leaves the process (the client, the preflight, check-receiver's
 * sender), so none of them can go direct while another goes through the proxy.
 *
 * - The CA file is added to Node's roots (and to NODE_EXTRA_CA_CERTS, which Node reads itself), not
 *   put in their place: a CA for the service must not break a proxy's public certificate.
 * - A client certificate is PEM (certificate and key files) or PKCS#12 (one .p12/.pfx file); the
 *   key's passphrase comes from an environment variable only, never a flag value (a flag shows in
 *   `ps` and in shell history).
 * - The proxy: `--proxy` for every URL, else HTTPS_PROXY / HTTP_PROXY; NO_PROXY names the hosts that
 *   go direct (curl's rules, as undici's EnvHttpProxyAgent implements them). A loopback target (the
 *   embedded simulator) is never proxied.
 *
 * Settings are file paths (serialisable, for the run's workers); {@link loadTransport} reads them.
 */
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createSecureContext, rootCertificates, type SecureContext, type SecureContextOptions } from 'node:tls';
import type { Agent as UndiciAgent, Dispatcher, EnvHttpProxyAgent as UndiciProxyAgent } from 'undici';
import { Agent, EnvHttpProxyAgent } from '../core/undici.ts';
import type { ConnectionInfo } from '../core/connection-info.ts';
import { ToolkitError } from '../core/errors.ts';

/** The environment variable that holds a client key's passphrase. */
export const CLIENT_KEY_PASSPHRASE_ENV = 'PAYCONNECT_CLIENT_KEY_PASSPHRASE';

/** What a command was told: absolute file paths and a proxy URL, all optional. */
export interface TransportSettings {
  /** A PEM bundle of CA certificates to trust besides the system's. */
  caFile?: string;
  /** A PEM client certificate (with clientKey), or a PKCS#12 file (.p12, .pfx) holding both. */
  clientCert?: string;
  /** The PEM private key of clientCert. */
  clientKey?: string;
  /** A forward proxy for every URL (overrides HTTPS_PROXY and HTTP_PROXY; NO_PROXY still applies). */
  proxy?: string;
}

/** Loaded settings: what every outgoing connection uses. */
export interface Transport {
  readonly settings: TransportSettings;
  /**
   * TLS options of a connection to the service: one secure context, built once. (Handing `ca` to
   * every connection instead makes Node parse the whole root store at each handshake, and a POST
   * opens a connection of its own: that tripled a run's CPU time.)
   */
  readonly tls: { secureContext?: SecureContext };
  /** The proxies, as undici's EnvHttpProxyAgent takes them; undefined: direct. */
  readonly proxy: { httpProxy?: string; httpsProxy?: string; noProxy?: string } | undefined;
  /** Off when NODE_TLS_REJECT_UNAUTHORIZED=0: nothing a run finds then can be certified. */
  readonly verification: 'on' | 'off';
  /** For summary.json and the certification (no key, no passphrase, no proxy credentials). */
  describe(): ConnectionInfo;
}

/** No CA, no certificate, no proxy from flags: the environment's proxies still apply. */
export function defaultTransport(env: NodeJS.ProcessEnv = process.env): Transport {
  return loadTransport({}, env);
}

/**
 * Reads the files of `settings` and the proxy variables of `env`.
 *
 * @throws ToolkitError PCC_CONFIG_INVALID naming the file that is missing, unreadable or not what it
 *   must be (a CA file with no certificate, a key without a certificate), or a proxy URL that is not one
 */
export function loadTransport(settings: TransportSettings, env: NodeJS.ProcessEnv = process.env): Transport {
  const tls: SecureContextOptions = {};
  if (settings.caFile) {
    const pem = readSetting(settings.caFile, '--ca-file');
    if (!pem.includes('-----BEGIN CERTIFICATE-----')) {
      throw new ToolkitError(
        'PCC_CONFIG_INVALID',
        `--ca-file ${settings.caFile} holds no PEM certificate`,
        'give the CA certificate (or a bundle of them) in PEM form: a text file with -----BEGIN CERTIFICATE----- blocks',
      );
    }
    if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(pem)) {
      throw new ToolkitError(
        'PCC_CONFIG_INVALID',
        `--ca-file ${settings.caFile} holds a private key`,
        'give only the CA certificate: the toolkit needs no key to trust a CA, and a key does not belong in a file passed around for trust',
      );
    }
    assertCertificates(pem, settings.caFile);
    tls.ca = [...rootCertificates, ...extraCaOf(env), pem];
  }
  const passphrase = env[CLIENT_KEY_PASSPHRASE_ENV] || undefined;
  if (settings.clientCert) {
    if (/\.(p12|pfx)$/i.test(settings.clientCert)) {
      if (settings.clientKey) {
        throw new ToolkitError(
          'PCC_CONFIG_INVALID',
          `--client-key was given with the PKCS#12 file ${settings.clientCert}, which holds the key itself`,
          'drop --client-key',
        );
      }
      tls.pfx = readBinary(settings.clientCert, '--client-cert');
    } else {
      if (!settings.clientKey) {
        throw new ToolkitError(
          'PCC_CONFIG_INVALID',
          `--client-cert ${settings.clientCert} has no --client-key`,
          'give the PEM private key with --client-key FILE, or a PKCS#12 file (.p12 or .pfx) that holds both',
        );
      }
      tls.cert = readSetting(settings.clientCert, '--client-cert');
      tls.key = readSetting(settings.clientKey, '--client-key');
    }
    if (passphrase) tls.passphrase = passphrase;
  } else if (settings.clientKey) {
    throw new ToolkitError(
      'PCC_CONFIG_INVALID',
      `--client-key was given without --client-cert`,
      'give the client certificate with --client-cert FILE',
    );
  }
  const verification = env.NODE_TLS_REJECT_UNAUTHORIZED === '0' ? 'off' : 'on';
  const proxy = proxyOf(settings, env);
  return {
    settings,
    tls: Object.keys(tls).length > 0 ? { secureContext: secureContextOf(tls, settings) } : {},
    proxy,
    verification,
    describe: () => ({
      trust: [
        'system',
        ...(env.NODE_EXTRA_CA_CERTS ? [`NODE_EXTRA_CA_CERTS (${env.NODE_EXTRA_CA_CERTS})`] : []),
        ...(settings.caFile ? [settings.caFile] : []),
      ].join(' + '),
      verification,
      ...(settings.clientCert ? { clientCertificate: settings.clientCert } : {}),
      ...(proxy
        ? {
            proxy: {
              ...(proxy.httpProxy ? { http: withoutCredentials(proxy.httpProxy) } : {}),
              ...(proxy.httpsProxy ? { https: withoutCredentials(proxy.httpsProxy) } : {}),
              ...(proxy.noProxy ? { noProxy: proxy.noProxy } : {}),
            },
          }
        : {}),
    }),
  };
}

/**
 * A dispatcher for `transport` with `options` (undici Agent options: connect timeout, pipelining):
 * an Agent, or, with a proxy, undici's EnvHttpProxyAgent (tunnels through the proxy with CONNECT,
 * for http and https alike; NO_PROXY hosts go direct). Loopback addresses always go direct.
 */
export function createDispatcher(transport: Transport, options: UndiciAgent.Options = {}): Dispatcher {
  const connect = { ...options.connect, ...transport.tls } as UndiciAgent.Options['connect'];
  if (!transport.proxy) return new Agent({ ...options, connect });
  const { timeout } = (options.connect ?? {}) as { timeout?: number };
  return new EnvHttpProxyAgent({
    ...options,
    ...transport.proxy,
    noProxy: [transport.proxy.noProxy, ...LOOPBACK_HOSTS].filter(Boolean).join(','),
    connect,
    // The tunnel's far end is the service: its TLS is the service's; the proxy's own TLS (an https
    // proxy) trusts the same CAs.
    requestTls: { ...transport.tls, ...(timeout ? { timeout } : {}) },
    proxyTls: transport.tls.secureContext ? { secureContext: transport.tls.secureContext } : {},
  } as UndiciProxyAgent.Options);
}

/** Never proxied (NO_PROXY entries as undici matches them: `[::1]` in brackets). */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

function proxyOf(settings: TransportSettings, env: NodeJS.ProcessEnv): Transport['proxy'] {
  // curl takes `proxy.corp:3128` for http://proxy.corp:3128; so do we.
  const schemed = (v: string | undefined) => (v === undefined || v.includes('://') ? v : `http://${v}`);
  const pick = (...names: string[]) =>
    names
      .map((n) => env[n])
      .find((v) => v !== undefined && v.trim() !== '')
      ?.trim();
  const explicit = settings.proxy;
  const httpProxy = explicit ?? schemed(pick('http_proxy', 'HTTP_PROXY'));
  const httpsProxy = explicit ?? schemed(pick('https_proxy', 'HTTPS_PROXY'));
  const noProxy = pick('no_proxy', 'NO_PROXY');
  for (const [name, value] of [
    ['the proxy', httpProxy],
    ['the proxy', httpsProxy],
  ] as const) {
    if (value !== undefined && !/^(https?|socks5?):\/\/[^/]/i.test(value)) {
      throw new ToolkitError(
        'PCC_CONFIG_INVALID',
        `${name} ${JSON.stringify(withoutCredentials(value))} (from ${explicit ? '--proxy' : 'HTTP_PROXY/HTTPS_PROXY'}) is not a proxy URL`,
        'give it as http://host:port (or https:// or socks5://)',
      );
    }
  }
  if (!httpProxy && !httpsProxy) return undefined;
  return { ...(httpProxy ? { httpProxy } : {}), ...(httpsProxy ? { httpsProxy } : {}), ...(noProxy ? { noProxy } : {}) };
}

/** `url` with any user:password removed. */
export function withoutCredentials(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.href.replace(/\/$/, '');
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//');
  }
}

function secureContextOf(options: SecureContextOptions, settings: TransportSettings): SecureContext {
  try {
    return createSecureContext(options);
  } catch (e) {
    const message = (e as Error).message;
    const what = settings.clientCert
      ? `the client certificate ${settings.clientCert}${settings.clientKey ? ` and key ${settings.clientKey}` : ''}`
      : `--ca-file ${settings.caFile}`;
    const fix = /bad decrypt|passphrase|mac verify/i.test(message)
      ? `set the key's passphrase in ${CLIENT_KEY_PASSPHRASE_ENV} (it is never taken from a flag)`
      : /key values mismatch/i.test(message)
        ? 'give the key that belongs to the certificate'
        : 'check that the files are PEM (or PKCS#12 for a .p12/.pfx) and belong together';
    throw new ToolkitError('PCC_CONFIG_INVALID', `${what} cannot be used: ${message}`, fix, { cause: e });
  }
}

/** Each PEM block of `pem` parses as an X.509 certificate (Node would drop a bad one silently). */
function assertCertificates(pem: string, path: string): void {
  for (const block of pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? []) {
    try {
      new X509Certificate(block);
    } catch (e) {
      throw new ToolkitError(
        'PCC_CONFIG_INVALID',
        `--ca-file ${path} cannot be used: a certificate in it does not parse (${(e as Error).message})`,
        'give the CA certificate in PEM form, as issued (openssl x509 -in FILE -noout -text shows whether it reads)',
        { cause: e },
      );
    }
  }
}

function extraCaOf(env: NodeJS.ProcessEnv): string[] {
  // Node reads NODE_EXTRA_CA_CERTS into its default store, but an explicit `ca` replaces that store:
  // keep the extra ones alongside the file given.
  const file = env.NODE_EXTRA_CA_CERTS;
  if (!file) return [];
  try {
    return [readFileSync(file, 'utf8')];
  } catch {
    return []; // Node has already warned about it at start-up
  }
}

function readSetting(path: string, flag: string): string {
  return readBinary(path, flag).toString('utf8');
}

function readBinary(path: string, flag: string): Buffer {
  try {
    return readFileSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new ToolkitError(
      'PCC_CONFIG_INVALID',
      `${flag} ${path} cannot be read (${code === 'ENOENT' ? 'no such file' : (code ?? (e as Error).message)})`,
      `check the path given to ${flag}`,
      { cause: e },
    );
  }
}
