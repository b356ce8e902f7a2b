/**
 * Simulator benchmark: transaction-status polling with 64 concurrent keep-alive connections against the
 * simulator and against a bare node:http server answering a fixed JSON body, measured in the same run;
 * then RSS over 100,000 transactions. Prints figures; the machine is shared, so nothing here is a test.
 *
 *   npx tsx bench/simulator.ts [--seconds 5] [--connections 64] [--transactions 100000]
 */
import { type ChildProcess, fork } from 'node:child_process';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '64' },
    transactions: { type: 'string', default: '100000' },
  },
});
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const CHILD = new URL('./simulator-child.ts', import.meta.url).pathname;

function child(...args: string[]): { proc: ChildProcess; first: Promise<Record<string, unknown>> } {
  const proc = fork(CHILD, args, { execArgv: ['--import', 'tsx', '--expose-gc'], stdio: 'inherit' });
  const first = new Promise<Record<string, unknown>>((resolve, reject) => {
    proc.once('message', (m) => resolve(m as Record<string, unknown>));
    proc.once('exit', (code) => reject(new Error(`bench child ${args[0]} exited ${code}`)));
  });
  return { proc, first };
}

async function load(url: string, path: string, headers: Record<string, string>) {
  const pool = new Pool(url, { connections: CONNECTIONS, pipelining: 1 });
  const latencies: number[] = [];
  let errors = 0;
  const end = Date.now() + SECONDS * 1000;
  const loop = async () => {
    while (Date.now() < end) {
      const t = process.hrtime.bigint();
      try {
        const res = await pool.request({ method: 'GET', path, headers });
        await res.body.dump();
        if (res.statusCode !== 200) errors++;
      } catch {
        errors++;
      }
      latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, loop));
  await pool.close();
  latencies.sort((a, b) => a - b);
  const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!;
  return { rps: latencies.length / SECONDS, p50: q(0.5), p99: q(0.99), errors };
}

const results: Record<string, Awaited<ReturnType<typeof load>>> = {};
let simBody = '{}';
let simHeaders: Record<string, string> = {};
for (const mode of ['sim', 'bare']) {
  const { proc, first } = child(mode, simBody);
  const info = (await first) as { url: string; path: string; headers: Record<string, string>; body?: string };
  if (mode === 'sim') {
    simBody = info.body ?? '{}';
    simHeaders = info.headers;
  }
  // The bare server gets the simulator's request headers too: same bytes both ways.
  info.headers = simHeaders;
  // Warm-up: JIT and connection set-up are not what we measure.
  await load(info.url, info.path, info.headers);
  results[mode] = await load(info.url, info.path, info.headers);
  proc.kill();
}
const fmt = (r: (typeof results)[string]) =>
  `${r.rps.toFixed(0).padStart(7)} req/s  p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms  errors ${r.errors}`;
console.log(
  `status polling, ${CONNECTIONS} keep-alive connections, ${SECONDS} s each; the bare server answers the simulator's ${Buffer.byteLength(simBody)}-byte status record`,
);
console.log(`  bare node:http  ${fmt(results.bare!)}`);
console.log(`  simulator       ${fmt(results.sim!)}`);
console.log(`  simulator / bare: ${((100 * results.sim!.rps) / results.bare!.rps).toFixed(0)}% (target: at least 60%)`);

const mem = child('memory', values.transactions!);
const m = (await mem.first) as {
  transactions: number;
  rssStart: number;
  rss: number[];
  heap: number[];
  seconds: number;
  gc: boolean;
  kept: number;
};
const mb = (n: number) => `${(n / 2 ** 20).toFixed(1)} MiB`;
console.log(
  `memory over ${m.transactions} transactions on 100 terminals (${m.seconds.toFixed(1)} s, gc ${m.gc ? 'forced' : 'not forced'}; at most ${m.kept} final transactions are kept, older ones evicted):`,
);
console.log(`  RSS before: ${mb(m.rssStart)}; after each quarter: ${m.rss.map(mb).join(', ')}`);
console.log(`  V8 heap used after each quarter: ${m.heap.map(mb).join(', ')}`);
console.log(`  growth from the first quarter to the end: RSS ${mb(m.rss.at(-1)! - m.rss[0]!)}, heap ${mb(m.heap.at(-1)! - m.heap[0]!)}`);
mem.proc.kill();
