/**
 * A convergence whose settle window runs on behind the test (ConvergeOptions.background): it returns
 * at the first final status, yet a status that changes after it was final is still judged, before the
 * test's next request naming the transaction and before the test ends; a watch the test's end cut
 * short is "not checked", never passed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { sendJson, startTestServer, type TestServer } from '../client/test-server.ts';
import { Scope } from './scope.ts';
import { scopeHost, testPairing } from './testing.ts';

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (let close = open.pop(); close; close = open.pop()) await close();
});

/** A service whose transaction is SUCCESS, then FAILED after `flipAfterMs` (a final status that changes); it logs each request. */
async function service(flipAfterMs: number): Promise<TestServer & { log: { method: string; at: number }[] }> {
  const started = Date.now();
  const log: { method: string; at: number }[] = [];
  const server = await startTestServer((req, res) => {
    log.push({ method: req.method, at: Date.now() });
    if (req.method !== 'GET') return sendJson(res, { transaction_id: 'tx-1', status: 'CANCELED' });
    sendJson(res, {
      transaction_id: 'tx-1',
      status: Date.now() - started < flipAfterMs ? 'SUCCESS' : 'FAILED',
      amount: 100,
      tip_amount: 0,
      total_amount: 100,
      currency: 'EUR',
    });
  });
  open.push(() => server.close());
  return Object.assign(server, { log });
}

const host = (settleMs: number) => scopeHost({ deadlineMs: 5000, settleMs, timeoutMs: 2000 });

const pairing = (url: string) => testPairing(url, open);

describe('a convergence whose settle window runs behind the test', () => {
  it('returns at the first final status, and still judges a change after it once the test is settled', async () => {
    const server = await service(250);
    const scope = new Scope(host(800), 'payment > behind');
    const t0 = Date.now();
    const obs = await scope.converge(pairing(server.url), 'transaction', 'tx-1', { background: true });
    expect(Date.now() - t0).toBeLessThan(700); // not the 800 ms window
    expect(obs.finalByPoll).toBe('SUCCESS');
    expect(scope.findings).toEqual([]);
    await scope.settled();
    expect(scope.findings.map((f) => f.check)).toContain('transition.legal');
    expect(scope.notChecked.size).toBe(0);
  });

  it('is judged before a request that names the transaction is sent', async () => {
    const server = await service(250);
    const scope = new Scope(host(800), 'payment > behind, then cancel');
    const p = pairing(server.url);
    await scope.converge(p, 'transaction', 'tx-1', { background: true });
    await scope.call(p, 'cancelTransaction', { params: { transaction_id: 'tx-1' } });
    expect(scope.findings.map((f) => f.check)).toContain('transition.legal');
    const post = server.log.findIndex((r) => r.method !== 'GET');
    expect(post).toBe(server.log.length - 1); // every poll of the watch came before it
  });

  it('cut short by the end of the test is not checked, never passed', async () => {
    const server = await service(60_000);
    const scope = new Scope(host(400), 'payment > behind, cut short');
    await scope.converge(pairing(server.url), 'transaction', 'tx-1', { background: true });
    scope.close('the test ran out of time');
    await scope.settled();
    expect(scope.findings).toEqual([]);
    expect([...scope.notChecked].join('\n')).toMatch(/transaction tx-1: the watch after its final status was cut short/);
  });

  it('hands the whole watch to onSettled before a request naming the transaction goes, the record at its end', async () => {
    const server = await service(250);
    const scope = new Scope(host(800), 'payment > behind, judged by the caller');
    const p = pairing(server.url);
    const settled: (string | undefined)[] = [];
    const obs = await scope.converge(p, 'transaction', 'tx-1', {
      background: true,
      onSettled: (full) => settled.push(String(full.last?.status)),
    });
    expect(obs.last?.status).toBe('SUCCESS');
    expect(settled).toEqual([]);
    await scope.call(p, 'cancelTransaction', { params: { transaction_id: 'tx-1' } });
    expect(settled).toEqual(['FAILED']);
  });

  it('calls onSettled once before returning when the watch ended with nothing left behind', async () => {
    const server = await service(60_000);
    const scope = new Scope(host(0), 'payment > behind, nothing left');
    const settled: string[] = [];
    const obs = await scope.converge(pairing(server.url), 'transaction', 'tx-1', {
      background: true,
      onSettled: (full) => settled.push(String(full.last?.status)),
    });
    expect(settled).toEqual(['SUCCESS']);
    expect(obs.last?.status).toBe('SUCCESS');
    await scope.settled();
    expect(settled).toEqual(['SUCCESS']);
  });
});
