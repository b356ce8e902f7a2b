/**
 * One defect ledger per run, not one per worker. Each worker keeps its DefectLedger (its API stays
 * synchronous: a scope asks it before every wait) and tells the run's hub, in the main process, what
 * it filed and how its waits ended (a wait that ended well only while the hub counts misses of its
 * kind, which it says); the hub keeps the run's count and tells every worker when a defect has its root
 * and when a kind of wait has become futile. So a systemic defect is filed once per run,
 * with the tests it touched as repeats, and two missed waits anywhere end that kind of wait everywhere,
 * instead of every worker learning each futile wait again.
 *
 * The link is newline-delimited JSON over one loopback TCP connection per worker: no secret travels on
 * it (root causes are redacted findings' check, clause and message). A worker that cannot reach the hub
 * keeps its own ledger, as before.
 */
import { type AddressInfo, type Server, type Socket, connect, createServer } from 'node:net';
import type { RootCause } from '../core/index.ts';
import { DefectLedger, type LedgerNews, type WaitKind } from './defects.ts';

/** The hub's end: where workers connect (`RunContext.ledger`). */
export interface LedgerHub {
  readonly port: number;
  close(): Promise<void>;
}

/** Reads newline-delimited JSON messages off `socket`. */
function onMessages(socket: Socket, handle: (m: LedgerNews) => void): void {
  let buffered = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      if (line === '') continue;
      let message: LedgerNews;
      try {
        message = JSON.parse(line) as LedgerNews;
      } catch {
        continue; // not from a worker of this run
      }
      handle(message);
    }
  });
}

/** Starts the run's hub on 127.0.0.1 (port 0): it keeps the run's count and passes the news on. */
export async function startLedgerHub(): Promise<LedgerHub> {
  const ledger = new DefectLedger();
  const peers = new Set<Socket>();
  const broadcast = (news: LedgerNews): void => {
    const line = `${JSON.stringify(news)}\n`;
    for (const peer of peers) if (!peer.destroyed) peer.write(line);
  };
  // The hub's ledger keeps the run's count; what changes it goes to every worker, the sender included.
  const server: Server = createServer((socket) => {
    peers.add(socket);
    socket.on('error', () => socket.destroy());
    socket.on('close', () => peers.delete(socket));
    onMessages(socket, (m) => {
      if (m.kind !== 'waited') {
        if (ledger.absorb(m)) broadcast(m);
        return;
      }
      const before = ledger.misses(m.wait);
      if (ledger.waited(m.wait, m.missed)) broadcast({ kind: 'systemic', key: m.wait, root: ledger.blocker(m.wait)! });
      // Workers tell the waits that end well only while the run counts misses of their kind.
      const after = ledger.misses(m.wait);
      if ((before === 0) !== (after === 0)) broadcast({ kind: 'misses', wait: m.wait, counted: after > 0 });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const peer of peers) peer.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * Links a worker's ledger to the run's hub: what it files and how its waits end go to the hub, and the
 * hub's news comes back into it. Returns the function that closes the link.
 */
export function linkLedger(ledger: DefectLedger, port: number): () => void {
  const socket = connect({ host: '127.0.0.1', port });
  // The link never keeps a worker alive, and a lost hub leaves the worker its own ledger.
  socket.unref();
  socket.setNoDelay(true);
  socket.on('error', () => ledger.connect(undefined));
  onMessages(socket, (m) => ledger.absorb(m));
  ledger.connect((news) => {
    if (!socket.destroyed) socket.write(`${JSON.stringify(news)}\n`);
  });
  return () => {
    ledger.connect(undefined);
    socket.destroy();
  };
}

export type { LedgerNews, RootCause, WaitKind };
