/**
 * Where a run's time went, read from its transcript (bench/conformance.ts prints it beside the wall
 * time). A run of W seconds on T terminals has W·T lane-seconds; they split into:
 * - outside the tests: the run's start (workers, pairing the terminals' first OTPs happens in tests)
 *   and its end (reports), times T;
 * - idle lanes: while the tests ran, lanes with no test on them (a worker runs one file at a time, and
 *   a file's last long test holds its worker's other lanes idle);
 * - inside the tests, by instants of each test (requests of one test that overlap count once):
 *   - requests: some request of the test in flight (answer times, connection set-up included);
 *   - terminal: waiting on a convergence before its final status (the floor: the terminal's steps);
 *   - past final: waiting on a convergence after its final status (settle window, webhook grace);
 *   - other waits: no request in flight and no recorded convergence (waits that are not recorded as
 *     convergences, e.g. the model-based parts' and the token renewal's, and the harness's own work).
 * Connection set-up is inside "requests": {@link estimateConnectMs} measures one against the target,
 * and bench/count-connections.cjs counts those the run opened.
 */
import { request as httpRequest, Agent } from 'node:http';

export interface Split {
  laneS: number;
  outsideS: number;
  idleS: number;
  requestsS: number;
  terminalS: number;
  pastFinalS: number;
  otherS: number;
  /** Requests of any method but GET and HEAD. */
  posts: number;
}

interface Interval {
  from: number;
  to: number;
}

interface TestRow {
  start: number;
  end: number;
  exchanges: Interval[];
  /** Convergences: [start, final reached, end]. */
  convergences: { from: number; final: number; to: number }[];
}

/** Σ of the lengths of the union of `xs` clipped to [lo, hi]. */
function covered(xs: Interval[], lo: number, hi: number): number {
  const clipped = xs
    .map((x) => ({ from: Math.max(lo, x.from), to: Math.min(hi, x.to) }))
    .filter((x) => x.to > x.from)
    .sort((a, b) => a.from - b.from);
  let total = 0;
  let end = -Infinity;
  for (const x of clipped) {
    if (x.to <= end) continue;
    total += x.to - Math.max(x.from, end);
    end = x.to;
  }
  return total;
}

/** The split of a run of `wallS` seconds on `terminals` lanes, from its transcript's lines. */
export function splitOf(lines: Iterable<string>, terminals: number, wallS: number): Split {
  const tests = new Map<string, TestRow>();
  const row = (name: string) => {
    let r = tests.get(name);
    if (!r) tests.set(name, (r = { start: NaN, end: NaN, exchanges: [], convergences: [] }));
    return r;
  };
  let posts = 0;
  for (const text of lines) {
    if (text === '') continue;
    const kind = /"kind":"(\w+)"/.exec(text)?.[1];
    if (kind !== 'test' && kind !== 'exchange' && kind !== 'convergence') continue;
    const o = JSON.parse(text) as {
      test: string;
      time: string;
      record?: { startedAt?: string; durationMs: number };
      exchange?: { startedAt: string; durationMs: number; request: { method: string } };
      observation?: {
        polled?: { status: string; atMs: number }[];
        webhooks?: { status: string; atMs: number }[];
        finalByPoll?: string | null;
        finalByWebhook?: string | null;
        elapsedMs: number;
      };
    };
    if (kind === 'test' && o.record?.startedAt) {
      const r = row(o.test);
      r.start = Date.parse(o.record.startedAt);
      r.end = r.start + o.record.durationMs;
    } else if (kind === 'exchange' && o.exchange) {
      const from = Date.parse(o.exchange.startedAt);
      row(o.test).exchanges.push({ from, to: from + o.exchange.durationMs });
      if (!['GET', 'HEAD'].includes(o.exchange.request.method)) posts++;
    } else if (kind === 'convergence' && o.observation) {
      const ob = o.observation;
      const to = Date.parse(o.time);
      const from = to - ob.elapsedMs;
      const finals = [ob.finalByPoll, ob.finalByWebhook].filter((s): s is string => typeof s === 'string');
      const at = [...(ob.polled ?? []), ...(ob.webhooks ?? [])].filter((x) => finals.includes(x.status)).map((x) => x.atMs);
      // A status seen before the wait began (a webhook that beat the answer that started it) is final at its start.
      const final = at.length > 0 ? Math.min(to, Math.max(from, from + Math.min(...at))) : to;
      row(o.test).convergences.push({ from, final, to });
    }
  }
  const ran = [...tests.values()].filter((r) => Number.isFinite(r.start));
  const first = Math.min(...ran.map((r) => r.start));
  const last = Math.max(...ran.map((r) => r.end));
  const spanS = ran.length > 0 ? (last - first) / 1000 : 0;
  let inTests = 0;
  let requests = 0;
  let terminal = 0;
  let pastFinal = 0;
  for (const r of ran) {
    inTests += r.end - r.start;
    const req = covered(r.exchanges, r.start, r.end);
    requests += req;
    // A convergence's waits are its instants with no request in flight (its polls are requests).
    for (const c of r.convergences) {
      terminal += c.final - c.from - covered(r.exchanges, c.from, c.final);
      pastFinal += c.to - c.final - covered(r.exchanges, c.final, c.to);
    }
  }
  const s = (ms: number) => ms / 1000;
  const laneS = wallS * terminals;
  return {
    laneS,
    outsideS: (wallS - spanS) * terminals,
    idleS: spanS * terminals - s(inTests),
    requestsS: s(requests),
    terminalS: s(terminal),
    pastFinalS: s(pastFinal),
    otherS: s(inTests - requests - terminal - pastFinal),
    posts,
  };
}

/** The split in words, per terminal (lane-seconds divided by the terminals). */
export function splitLine(x: Split, terminals: number): string {
  const p = (v: number) => `${(v / terminals).toFixed(1)} s`;
  return (
    `per terminal: requests ${p(x.requestsS)}, terminal steps ${p(x.terminalS)}, ` +
    `waits past the final status ${p(x.pastFinalS)}, other waits and harness ${p(x.otherS)}, idle lanes ${p(x.idleS)}, outside the tests ${p(x.outsideS)}`
  );
}

/**
 * What opening a connection costs against `url`, ms: the median of `n` GETs each on a connection of
 * its own minus the median of `n` on one kept-alive connection.
 */
export async function estimateConnectMs(url: string, n = 30): Promise<number> {
  const once = (agent: Agent | false) =>
    new Promise<number>((resolve, reject) => {
      const t = process.hrtime.bigint();
      const req = httpRequest(`${url}/v1/pay-connect/pair/`, { method: 'GET', agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(Number(process.hrtime.bigint() - t) / 1e6));
      });
      req.on('error', reject);
      req.end();
    });
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const fresh: number[] = [];
  const kept: number[] = [];
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    await once(agent);
    for (let i = 0; i < n; i++) {
      fresh.push(await once(false));
      kept.push(await once(agent));
    }
  } finally {
    agent.destroy();
  }
  return Math.max(0, median(fresh) - median(kept));
}
