/**
 * A company network in front of a service, made of the real parts (Debian's nginx, tinyproxy and
 * openssl; `.ci/run` installs them): TLS from a private CA with a 1 s keep-alive (closed unannounced),
 * an mTLS server block, a gateway that mounts the API under /paycon, and a forward proxy that alone
 * resolves the host name the certificate is issued for (it runs in a mount namespace of its own with
 * an /etc/hosts entry no other process sees). The certificate names localhost and that host, not
 * 127.0.0.1: an address it does not name.
 */
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The name only the proxy resolves. */
export const PROXY_ONLY_HOST = 'pay.staging.test';

export interface NetworkFront {
  /** https://localhost:PORT: TLS from the private CA, keep-alive closed after 1 s. */
  tlsUrl: string;
  /** https://localhost:PORT: the same, and a client certificate required. */
  mtlsUrl: string;
  /** https://localhost:PORT/paycon: the API under a path (the gateway strips it). */
  gatewayUrl: string;
  /** https://pay.staging.test:PORT: resolvable through the proxy only. */
  proxyOnlyUrl: string;
  /** http://127.0.0.1:PORT */
  proxyUrl: string;
  caFile: string;
  clientCert: string;
  clientKey: string;
  /** What the proxy logged (CONNECT lines). */
  proxyLog(): string;
  close(): Promise<void>;
}

/** A free loopback port (closed at once: nginx and tinyproxy take a port number, not a socket). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
      .listen(0, '127.0.0.1', () => {
        const { port } = s.address() as { port: number };
        s.close(() => resolve(port));
      })
      .on('error', reject);
  });
}

/** Whether the parts are installed (the test fails with this message when not). */
export function missingParts(): string[] {
  return ['nginx', 'tinyproxy', 'openssl', 'unshare'].filter((bin) => {
    try {
      execFileSync('sh', ['-c', `command -v ${bin} || test -x /usr/sbin/${bin}`], { stdio: 'ignore' });
      return false;
    } catch {
      return true;
    }
  });
}

/**
 * openssl, without holding this thread: the simulator behind the front usually runs in it, and a key
 * made synchronously on a loaded runner stalls its answers for seconds (a correct service late).
 */
const openssl = (dir: string, args: string[]) =>
  new Promise<void>((resolve, reject) => {
    execFile('openssl', args, { cwd: dir }, (err) => (err ? reject(err) : resolve()));
  });

/** Starts the front before `upstream` (an http://127.0.0.1:PORT service). */
export async function startNetworkFront(upstream: string): Promise<NetworkFront> {
  const dir = mkdtempSync(join(tmpdir(), 'pcc-front-'));
  await openssl(dir, [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=pcc test CA',
  ]);
  await openssl(dir, ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost']);
  writeFileSync(join(dir, 'san.ext'), `subjectAltName=DNS:localhost,DNS:${PROXY_ONLY_HOST}\n`);
  await openssl(dir, [
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.pem',
    '-days',
    '2',
    '-extfile',
    'san.ext',
  ]);
  await openssl(dir, [
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'client.key',
    '-out',
    'client.csr',
    '-subj',
    '/CN=pcc test client',
  ]);
  await openssl(dir, [
    'x509',
    '-req',
    '-in',
    'client.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'client.pem',
    '-days',
    '2',
  ]);
  const [tls, mtls, proxy] = [await freePort(), await freePort(), await freePort()];
  const up = new URL(upstream).host;
  // The upstream's keepalive_timeout: nginx keeps an idle connection to the service 60 s unless told,
  // the simulator closes one after 5 s, and a request sent on it as it closes gets a reset and the
  // client a 502 (the race every gateway in front of Node meets). As operators set it: nginx lets go first.
  const common = `ssl_certificate ${dir}/server.pem; ssl_certificate_key ${dir}/server.key; keepalive_timeout 1s;
    proxy_http_version 1.1; proxy_set_header Connection ""; proxy_set_header Host $host;`;
  writeFileSync(
    join(dir, 'nginx.conf'),
    `worker_processes 1; pid ${dir}/nginx.pid; error_log ${dir}/error.log; daemon off;
events { worker_connections 512; }
http { access_log ${dir}/access.log; client_body_temp_path ${dir}; proxy_temp_path ${dir}; fastcgi_temp_path ${dir}; uwsgi_temp_path ${dir}; scgi_temp_path ${dir};
  upstream app { server ${up}; keepalive 16; keepalive_timeout 2s; }
  server { listen 127.0.0.1:${tls} ssl; ${common}
    location /paycon/ { proxy_pass http://app/; }
    location / { proxy_pass http://app; } }
  server { listen 127.0.0.1:${mtls} ssl; ${common} ssl_client_certificate ${dir}/ca.pem; ssl_verify_client on;
    location / { proxy_pass http://app; } }
}
`,
  );
  const children: ChildProcess[] = [];
  children.push(spawn('nginx', ['-c', join(dir, 'nginx.conf'), '-p', dir], { stdio: 'ignore' }));
  writeFileSync(join(dir, 'hosts'), `127.0.0.1 localhost\n127.0.0.1 ${PROXY_ONLY_HOST}\n`);
  writeFileSync(
    join(dir, 'tinyproxy.conf'),
    `Port ${proxy}\nListen 127.0.0.1\nTimeout 60\nLogFile "${dir}/proxy.log"\nLogLevel Info\nMaxClients 100\nAllow 127.0.0.1\nConnectPort ${tls}\nConnectPort ${mtls}\n`,
  );
  writeFileSync(join(dir, 'proxy.log'), '');
  // tinyproxy alone sees the host name: its own mount namespace, its own /etc/hosts.
  children.push(
    spawn('unshare', ['-m', 'sh', '-c', `mount --bind ${dir}/hosts /etc/hosts && exec tinyproxy -d -c ${dir}/tinyproxy.conf`], {
      stdio: 'ignore',
    }),
  );
  await Promise.all([waitForPort(tls), waitForPort(mtls), waitForPort(proxy)]);
  return {
    tlsUrl: `https://localhost:${tls}`,
    mtlsUrl: `https://localhost:${mtls}`,
    gatewayUrl: `https://localhost:${tls}/paycon`,
    proxyOnlyUrl: `https://${PROXY_ONLY_HOST}:${tls}`,
    proxyUrl: `http://127.0.0.1:${proxy}`,
    caFile: join(dir, 'ca.pem'),
    clientCert: join(dir, 'client.pem'),
    clientKey: join(dir, 'client.key'),
    proxyLog: () => readFileSync(join(dir, 'proxy.log'), 'utf8'),
    close: async () => {
      await Promise.all(
        children.map(
          (c) =>
            new Promise<void>((resolve) => {
              if (c.exitCode !== null || c.signalCode !== null) return resolve();
              c.once('exit', () => resolve());
              c.kill('SIGTERM');
            }),
        ),
      );
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function waitForPort(port: number, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > until)
      throw new Error(`nothing listens on 127.0.0.1:${port} after ${timeoutMs} ms (nginx or tinyproxy did not start)`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
