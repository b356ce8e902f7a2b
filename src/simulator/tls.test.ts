/** The TLS sandbox: HTTPS with a throw-away CA, over real loopback connections. */
import { X509Certificate } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { connect, rootCertificates } from 'node:tls';
import { Agent, request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { CONTROL_PATH } from './control.ts';
import { resolveSimulatorOptions } from './options.ts';
import { startSimulator } from './simulator.ts';
import { pairClient, pay, sleep, startReceiver, startTestSim } from './testkit.ts';
import { certificateNames, TLS_VALID_DAYS, urlHost } from './tls.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function until(pred: () => boolean, timeoutMs = 2000): Promise<void> {
  for (let i = 0; i < timeoutMs / 10 && !pred(); i++) await sleep(10);
  if (!pred()) throw new Error('condition not reached');
}

/** A GET with undici and the given trust: the status, or the error's code. */
async function get(url: string, ca?: string | string[]): Promise<number | string> {
  const agent = new Agent(ca !== undefined ? { connect: { ca } } : {});
  try {
    const res = await request(url, { dispatcher: agent });
    await res.body.text();
    return res.statusCode;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code ?? String(e);
  } finally {
    await agent.close();
  }
}

/** The certificate the server presents, read over a connection that trusts `ca`. */
function peerCertificate(port: number, ca: string): Promise<X509Certificate> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, ca, servername: 'localhost' }, () => {
      const cert = socket.getPeerX509Certificate();
      socket.end();
      if (cert) resolve(cert);
      else reject(new Error('no peer certificate'));
    });
    socket.on('error', reject);
  });
}

describe('TLS sandbox', () => {
  it('serves https://localhost:PORT to a client that trusts ca.pem: a payment, its webhooks out, the /_sim routes', async () => {
    const lines: string[] = [];
    const t = await startTestSim({ tls: true, onTlsError: (l) => void lines.push(l) });
    const receiver = await startReceiver();
    try {
      expect(t.sim.url).toMatch(/^https:\/\/localhost:\d+$/);
      expect(t.sim.caFile).toMatch(/ca\.pem$/);
      const client = await pairClient(t, { webhookUrl: receiver.url });
      expect((await pay(client, 1000)).status).toBe('SUCCESS');
      await receiver.waitFor((d) => d.some((x) => x.json.data?.status === 'SUCCESS'));
      expect((await t.http.call('GET', CONTROL_PATH)).status).toBe(200);
      // The default roots plus the CA, as a client that honours PAYCONNECT_CA_FILE does.
      expect(await get(`${t.sim.url}/v1/pay-connect/config/`, [...rootCertificates, readFileSync(t.sim.caFile!, 'utf8')])).toBeTypeOf(
        'number',
      );
      expect(lines).toEqual([]);
    } finally {
      await receiver.close();
      await t.close();
    }
  });

  it('refuses a client that does not trust the CA (UNABLE_TO_VERIFY_LEAF_SIGNATURE), logs why, and keeps serving', async () => {
    const lines: string[] = [];
    const sim = await startSimulator({ tls: true, onTlsError: (l) => void lines.push(l) });
    try {
      const url = `${sim.url}/v1/pay-connect/config/`;
      expect(await get(url)).toBe('UNABLE_TO_VERIFY_LEAF_SIGNATURE');
      await until(() => lines.length > 0);
      expect(lines[0]).toMatch(new RegExp(`^TLS: .*certificate.*: it must trust ${sim.caFile!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
      expect(await get(url, readFileSync(sim.caFile!, 'utf8'))).toBeTypeOf('number');
    } finally {
      await sim.close();
    }
  });

  it('says so when plain HTTP comes to the HTTPS port', async () => {
    const lines: string[] = [];
    const sim = await startSimulator({ tls: true, onTlsError: (l) => void lines.push(l) });
    try {
      expect(typeof (await get(`${sim.url.replace('https:', 'http:')}/v1/pay-connect/config/`))).toBe('string');
      await until(() => lines.length > 0);
      expect(lines).toEqual(['TLS: a plain HTTP request came to the HTTPS port: the client must use https://']);
    } finally {
      await sim.close();
    }
  });

  it('ca.pem holds the CA certificate only, in a fresh 0700 folder removed at close; the server certificate covers localhost, 127.0.0.1 and ::1', async () => {
    const sim = await startSimulator({ tls: true });
    const folder = dirname(sim.caFile!);
    try {
      expect(readdirSync(folder)).toEqual(['ca.pem']);
      expect(statSync(folder).mode & 0o777).toBe(0o700);
      const pem = readFileSync(sim.caFile!, 'utf8');
      expect(pem).not.toMatch(/PRIVATE KEY/);
      expect(pem.match(/-----BEGIN [A-Z ]+-----/g)).toEqual(['-----BEGIN CERTIFICATE-----']);
      const ca = new X509Certificate(pem);
      expect(ca.ca).toBe(true);
      const days = (Date.parse(ca.validTo) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(TLS_VALID_DAYS - 0.1);
      expect(days).toBeLessThanOrEqual(TLS_VALID_DAYS);

      const cert = await peerCertificate(Number(new URL(sim.url).port), pem);
      expect(cert.ca).toBe(false);
      expect(cert.checkIssued(ca)).toBe(true);
      expect(cert.verify(ca.publicKey)).toBe(true);
      expect(cert.subjectAltName?.split(', ')).toEqual(['DNS:localhost', 'IP Address:127.0.0.1', 'IP Address:0:0:0:0:0:0:0:1']);
      expect(cert.checkHost('localhost')).toBe('localhost');
      expect(cert.checkIP('127.0.0.1')).toBe('127.0.0.1');
      // The address works as well as the name.
      expect(await get(`https://127.0.0.1:${new URL(sim.url).port}/v1/pay-connect/config/`, pem)).toBeTypeOf('number');
    } finally {
      await sim.close();
    }
    expect(existsSync(folder)).toBe(false);
  });

  it('with a folder of its own: ca.pem there (the folder made when missing), kept after close, a new CA at each start', async () => {
    const base = mkdtempSync(join(tmpdir(), 'pcc-tls-'));
    dirs.push(base);
    const dir = join(base, 'a', 'b');
    const first = await startSimulator({ tls: { dir } });
    const firstPem = readFileSync(join(dir, 'ca.pem'), 'utf8');
    expect(first.caFile).toBe(join(dir, 'ca.pem'));
    await first.close();
    expect(readdirSync(dir)).toEqual(['ca.pem']);
    const second = await startSimulator({ tls: { dir } });
    try {
      const secondPem = readFileSync(join(dir, 'ca.pem'), 'utf8');
      expect(secondPem).not.toBe(firstPem);
      expect(await get(`${second.url}/v1/pay-connect/config/`, firstPem)).toBe('UNABLE_TO_VERIFY_LEAF_SIGNATURE');
      expect(await get(`${second.url}/v1/pay-connect/config/`, secondPem)).toBeTypeOf('number');
    } finally {
      await second.close();
    }
  });

  it('covers another listen name or address too, and serves it under that name', () => {
    expect(certificateNames('127.0.0.1')).toEqual(['localhost', '127.0.0.1', '::1']);
    expect(certificateNames('0.0.0.0')).toEqual(['localhost', '127.0.0.1', '::1']);
    expect(certificateNames('10.1.2.3')).toEqual(['localhost', '127.0.0.1', '::1', '10.1.2.3']);
    expect(certificateNames('Till.Example')).toEqual(['localhost', '127.0.0.1', '::1', 'till.example']);
    expect(['127.0.0.1', 'localhost', '0.0.0.0', '::'].map(urlHost)).toEqual(['localhost', 'localhost', 'localhost', 'localhost']);
    expect(['::1', '10.1.2.3', 'till.example'].map(urlHost)).toEqual(['[::1]', '10.1.2.3', 'till.example']);
  });

  it('refuses a tls option that is not true, false or { dir }', () => {
    expect(resolveSimulatorOptions({ tls: false }).tls).toBeNull();
    expect(resolveSimulatorOptions({ tls: true }).tls).toEqual({ dir: undefined });
    expect(() => resolveSimulatorOptions({ tls: { dir: ' ' } })).toThrow(/simulator option tls/);
    expect(() => resolveSimulatorOptions({ tls: 'yes' as unknown as boolean })).toThrow(/simulator option tls/);
  });
});
