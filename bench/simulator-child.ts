/**
 * A server process for bench/simulator.ts: `bare` answers a fixed JSON body with node:http;
 * `sim` starts the simulator, pairs, makes one transaction and reports how to poll its status;
 * `memory` drives 100,000 transactions through the simulator and reports RSS before and after.
 */
import { createServer } from 'node:http';
import { request } from 'undici';
import { startSimulator } from '../src/simulator/index.ts';

const send = (m: unknown) => process.send!(m);
const mode = process.argv[2];

async function api(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await request(base + path, {
    method: method as 'GET',
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.statusCode, body: (await res.body.json()) as Record<string, unknown> };
}

async function pairing(sim: Awaited<ReturnType<typeof startSimulator>>) {
  const integrator = { 'x-pay-connect-integrator-id': sim.integratorId };
  const pair = await api(sim.url, 'POST', '/v1/pay-connect/pair/', { name: 'bench', otp: sim.mintOtp() }, integrator);
  const tok = await api(sim.url, 'POST', '/v1/auth/token/', {
    grant_type: 'client_credentials',
    client_id: pair.body.client_id,
    client_secret: pair.body.client_secret,
  });
  return { ...integrator, authorization: `Bearer ${String(tok.body.access_token)}` };
}

async function untilFinal(base: string, id: string, headers: Record<string, string>) {
  for (;;) {
    const s = await api(base, 'GET', `/v1/pay-connect/transactions/${id}/status/`, undefined, headers);
    if (!['INITIATED', 'IN_PROGRESS'].includes(String(s.body.status))) return;
    await new Promise((r) => setTimeout(r, 1));
  }
}

if (mode === 'bare') {
  // The same bytes the simulator answers (passed by the parent), so the comparison measures the
  // simulator's own work, not the size of the answer.
  const body = process.argv[3] ?? '{}';
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
    res.end(body);
  });
  server.listen(0, '127.0.0.1', () =>
    send({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, path: '/', headers: {} }),
  );
} else if (mode === 'sim') {
  const sim = await startSimulator({ stepDelayMs: 1, deadlineMs: 1000 });
  const headers = await pairing(sim);
  const gen = await api(sim.url, 'POST', '/v1/pay-connect/transactions/generate/', { amount: 1000 }, headers);
  const id = String(gen.body.transaction_id);
  await untilFinal(sim.url, id, headers);
  const record = await request(`${sim.url}/v1/pay-connect/transactions/${id}/status/`, { headers });
  send({ url: sim.url, path: `/v1/pay-connect/transactions/${id}/status/`, headers, body: await record.body.text() });
} else if (mode === 'memory') {
  const total = Number(process.argv[3] ?? 100_000);
  const terminals = 100;
  const sim = await startSimulator({ stepDelayMs: 0, deadlineMs: 1000, maxFinalPerTerminal: 200 });
  const pairings = await Promise.all(Array.from({ length: terminals }, () => pairing(sim)));
  const gc = (globalThis as { gc?: () => void }).gc;
  let done = 0;
  const rss: number[] = [];
  const heap: number[] = [];
  const worker = async (headers: Record<string, string>) => {
    while (done < total) {
      // The number is taken when the transaction starts: workers share the counter across awaits.
      const n = ++done;
      const gen = await api(sim.url, 'POST', '/v1/pay-connect/transactions/generate/', { amount: 1000 + (n % 100) }, headers);
      if (gen.status === 200) await untilFinal(sim.url, String(gen.body.transaction_id), headers);
      if (n % Math.floor(total / 4) === 0) {
        gc?.();
        rss.push(process.memoryUsage().rss);
        heap.push(process.memoryUsage().heapUsed);
      }
    }
  };
  gc?.();
  const rssStart = process.memoryUsage().rss;
  const t0 = Date.now();
  await Promise.all(pairings.map(worker));
  gc?.();
  send({ transactions: done, rssStart, rss, heap, seconds: (Date.now() - t0) / 1000, gc: Boolean(gc), kept: 100 * 200 });
  await sim.close();
}
