import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterEach, describe, expect, test } from 'vitest';
import { isToolkitError } from '../core/errors.ts';
import { environmentErrorOf, proxyFor } from './environment-errors.ts';
import { createDispatcher, loadTransport, withoutCredentials } from './transport.ts';

const dir = mkdtempSync(join(tmpdir(), 'pcc-transport-'));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const CERT = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

function errorOf(fn: () => unknown): { code: string; message: string; hint?: string } {
  try {
    fn();
  } catch (e) {
    if (isToolkitError(e)) return { code: e.code, message: e.message, ...(e.hint ? { hint: e.hint } : {}) };
    throw e;
  }
  throw new Error('no error');
}

describe('loadTransport: one clear message per bad setting, naming the file', () => {
  test('a missing CA file', () => {
    expect(errorOf(() => loadTransport({ caFile: join(dir, 'nope.pem') }, {}))).toMatchObject({
      code: 'PCC_CONFIG_INVALID',
      message: expect.stringMatching(/--ca-file .*nope\.pem cannot be read \(no such file\)/),
    });
  });
  test('a CA file with no certificate, or with a private key in it', () => {
    expect(errorOf(() => loadTransport({ caFile: file('empty.pem', 'hello') }, {})).message).toMatch(/holds no PEM certificate/);
    expect(
      errorOf(() => loadTransport({ caFile: file('keyed.pem', `${CERT}-----BEGIN PRIVATE KEY-----\nx\n-----END PRIVATE KEY-----\n`) }, {}))
        .message,
    ).toMatch(/holds a private key/);
  });
  test('a certificate that is not one is refused when read, not at the first handshake', () => {
    expect(errorOf(() => loadTransport({ caFile: file('bad.pem', CERT) }, {}))).toMatchObject({
      code: 'PCC_CONFIG_INVALID',
      message: expect.stringMatching(/--ca-file .*bad\.pem cannot be used/),
    });
  });
  test('a key without a certificate, a PEM certificate without a key, a key beside a PKCS#12 file', () => {
    expect(errorOf(() => loadTransport({ clientKey: file('k.pem', 'x') }, {})).message).toMatch(
      /--client-key was given without --client-cert/,
    );
    expect(errorOf(() => loadTransport({ clientCert: file('c.pem', CERT) }, {})).message).toMatch(/has no --client-key/);
    expect(errorOf(() => loadTransport({ clientCert: file('c.p12', 'x'), clientKey: file('k2.pem', 'x') }, {})).message).toMatch(
      /PKCS#12 .* holds the key itself/,
    );
  });
  test("no settings: nothing to build, the environment's proxies taken", () => {
    const t = loadTransport({}, { HTTPS_PROXY: 'http://user:secret@proxy.corp:3128', NO_PROXY: '.internal' });
    expect(t.tls).toEqual({});
    expect(t.proxy).toEqual({ httpsProxy: 'http://user:secret@proxy.corp:3128', noProxy: '.internal' });
    expect(t.describe()).toEqual({ trust: 'system', verification: 'on', proxy: { https: 'http://proxy.corp:3128', noProxy: '.internal' } });
  });
  test('--proxy wins over the environment, for http and https alike', () => {
    expect(loadTransport({ proxy: 'http://p:1' }, { HTTPS_PROXY: 'http://other:2', http_proxy: 'http://other:3' }).proxy).toEqual({
      httpProxy: 'http://p:1',
      httpsProxy: 'http://p:1',
    });
  });
  test('a proxy variable without a scheme is http, as curl takes it; one with another scheme is named (its password not shown)', () => {
    expect(loadTransport({}, { HTTPS_PROXY: 'proxy.corp:3128' }).proxy).toEqual({ httpsProxy: 'http://proxy.corp:3128' });
    const e = errorOf(() => loadTransport({}, { HTTPS_PROXY: 'ftp://user:pw@proxy' }));
    expect(e.code).toBe('PCC_CONFIG_INVALID');
    expect(e.message).toMatch(/HTTP_PROXY\/HTTPS_PROXY/);
  });
  test('NODE_TLS_REJECT_UNAUTHORIZED=0 is verification off', () => {
    expect(loadTransport({}, { NODE_TLS_REJECT_UNAUTHORIZED: '0' }).verification).toBe('off');
    expect(loadTransport({}, {}).verification).toBe('on');
  });
  test('withoutCredentials', () => {
    expect(withoutCredentials('http://u:p@h:1')).toBe('http://h:1');
    expect(withoutCredentials('not a url //u:p@h')).toBe('not a url //h');
  });
});

describe('proxyFor: NO_PROXY as curl reads it, loopback always direct', () => {
  const t = loadTransport(
    {},
    { HTTPS_PROXY: 'http://proxy:3128', HTTP_PROXY: 'http://proxy:8080', NO_PROXY: 'internal.example, .corp,direct.example:8443' },
  );
  test.each([
    ['https://pay.example.com', 'http://proxy:3128'],
    ['http://pay.example.com', 'http://proxy:8080'],
    ['https://internal.example', undefined],
    ['https://a.b.corp', undefined],
    ['https://direct.example:8443', undefined],
    ['https://direct.example', 'http://proxy:3128'],
    ['http://127.0.0.1:4010', undefined],
    ['http://localhost:4010', undefined],
  ])('%s -> %s', (url, proxy) => expect(proxyFor(t, url)).toBe(proxy));
});

describe('environmentErrorOf: the way to the service, told apart from the service', () => {
  const direct = loadTransport({}, {});
  const proxied = loadTransport({ proxy: 'http://proxy.corp:3128' }, {});
  const err = (code: string, message = 'x', wrap = true) => {
    const inner = Object.assign(new Error(message), { code });
    return wrap ? Object.assign(new Error('fetch failed'), { cause: inner }) : inner;
  };
  test('an untrusted certificate names --ca-file', () => {
    const e = environmentErrorOf(err('UNABLE_TO_VERIFY_LEAF_SIGNATURE'), 'https://s.example/v1/', direct)!;
    expect(e.code).toBe('PCC_TARGET_TLS');
    expect(e.hint).toMatch(/--ca-file/);
  });
  test('a host the certificate does not name, an expired one', () => {
    expect(environmentErrorOf(err('ERR_TLS_CERT_ALTNAME_INVALID'), 'https://s.example', direct)!.message).toMatch(
      /does not name that host/,
    );
    expect(environmentErrorOf(err('CERT_HAS_EXPIRED'), 'https://s.example', direct)!.message).toMatch(/not valid now/);
  });
  test('https to a plain-http port', () => {
    expect(environmentErrorOf(err('ERR_SSL_WRONG_VERSION_NUMBER', 'wrong version number'), 'https://s.example', direct)!.hint).toMatch(
      /use http:\/\//,
    );
  });
  test('a handshake refused for want of a client certificate', () => {
    expect(
      environmentErrorOf(err('ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED', 'alert certificate required'), 'https://s.example', direct)!.hint,
    ).toMatch(/--client-cert/);
  });
  test('the proxy refusing the tunnel (407, 403, 502) or not there', () => {
    const tunnel = (status: number) =>
      environmentErrorOf(
        Object.assign(new Error(`Proxy response (${status}) !== 200 when HTTP Tunneling`), { code: 'UND_ERR_ABORTED' }),
        'https://s.example',
        proxied,
      )!;
    expect(tunnel(407)).toMatchObject({
      code: 'PCC_PROXY',
      message: expect.stringMatching(/http:\/\/proxy\.corp:3128 asks for proxy authentication/),
    });
    expect(tunnel(403).message).toMatch(/refused to connect to it \(403/);
    expect(tunnel(502).message).toMatch(/could not reach it \(502/);
    expect(environmentErrorOf(err('ECONNREFUSED'), 'https://s.example', proxied)).toMatchObject({
      code: 'PCC_PROXY',
      message: expect.stringMatching(/could not be reached \(ECONNREFUSED\)/),
    });
  });
  test('a refused connection without a proxy, or a reset through one, is not an environment error here', () => {
    expect(environmentErrorOf(err('ECONNREFUSED'), 'https://s.example', direct)).toBeUndefined();
    expect(environmentErrorOf(err('ECONNRESET'), 'https://s.example', proxied)).toBeUndefined();
  });
});

describe('createDispatcher with a proxy: a real CONNECT proxy on loopback', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
  });
  const listen = (s: Server) =>
    new Promise<number>((resolve) => {
      servers.push(s);
      s.listen(0, '127.0.0.1', () => resolve((s.address() as AddressInfo).port));
    });

  test('a named host goes through the proxy (which alone resolves it); loopback goes direct', async () => {
    const service = await listen(createHttpServer((req, res) => res.end(`service saw ${req.url}`)));
    const tunnels: string[] = [];
    const proxy = createHttpServer();
    proxy.on('connect', (req, client) => {
      tunnels.push(req.url!);
      const [host] = req.url!.split(':');
      if (host !== 'pay.staging.test') return client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
      const upstream = connect(service, '127.0.0.1', () => {
        client.write('HTTP/1.1 200 Connection established\r\n\r\n');
        upstream.pipe(client).pipe(upstream);
      });
    });
    const proxyPort = await listen(proxy);
    const dispatcher = createDispatcher(loadTransport({ proxy: `http://127.0.0.1:${proxyPort}` }, {}));
    try {
      const viaProxy = await request(`http://pay.staging.test:${service}/v1/x/`, { dispatcher });
      expect(await viaProxy.body.text()).toBe('service saw /v1/x/');
      const direct = await request(`http://127.0.0.1:${service}/direct/`, { dispatcher });
      expect(await direct.body.text()).toBe('service saw /direct/');
      expect(tunnels).toEqual([`pay.staging.test:${service}`]);
      const refused = await request(`http://elsewhere.test:${service}/`, { dispatcher }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(
        environmentErrorOf(refused, `http://elsewhere.test:${service}/`, loadTransport({ proxy: `http://127.0.0.1:${proxyPort}` }, {}))
          ?.message,
      ).toMatch(/could not reach it \(502/);
    } finally {
      await dispatcher.close();
    }
  });
});
