import { afterEach, describe, expect, it } from 'vitest';
import type { Finding } from '../core/index.ts';
import { DefectLedger } from './defects.ts';
import { type LedgerHub, linkLedger, startLedgerHub } from './shared-ledger.ts';

const finding = (over: Partial<Finding> = {}): Finding => ({
  check: 'webhook.delivered',
  severity: 'warning',
  clause: 'sandbox#webhooks',
  message: 'no valid webhook for transaction 6f0c2b1e-8d4e-4c43-9a55-0d9f1e2b3c4d',
  ...over,
});

/** Resolves once `cond` holds (the news crosses a real loopback connection). */
async function until(cond: () => boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('the news did not arrive');
    await new Promise((r) => setTimeout(r, 5));
  }
}

let hub: LedgerHub | undefined;
const links: Array<() => void> = [];
afterEach(async () => {
  for (const unlink of links.splice(0)) unlink();
  await hub?.close();
  hub = undefined;
});

async function workers(n: number): Promise<DefectLedger[]> {
  hub = await startLedgerHub();
  return Array.from({ length: n }, () => {
    const l = new DefectLedger();
    links.push(linkLedger(l, hub!.port));
    return l;
  });
}

describe('one ledger per run', () => {
  it('two misses in different workers end that kind of wait in every worker, naming the first', async () => {
    const [a, b, c] = await workers(3);
    a!.waited('webhook-valid', { ...finding(), test: 'payment > a' });
    // One miss anywhere is not systemic yet.
    await new Promise((r) => setTimeout(r, 50));
    expect(c!.blocker('webhook-valid')).toBeUndefined();
    b!.waited('webhook-valid', { ...finding(), test: 'cancel > b' });
    await until(() => c!.blocker('webhook-valid') !== undefined);
    expect(c!.blocker('webhook-valid')?.test).toBe('payment > a');
    expect(a!.blocker('webhook-valid')?.test).toBe('payment > a');
    expect(b!.blocker('webhook-valid')?.test).toBe('payment > a');
  });

  it('a success anywhere between two misses keeps the wait open, as in one worker', async () => {
    const [a, b] = await workers(2);
    // News from two connections reaches the hub in no fixed order: one at a time here.
    const pause = () => new Promise((r) => setTimeout(r, 50));
    a!.waited('transaction-final', { ...finding(), test: 'x' });
    await pause();
    b!.waited('transaction-final', undefined);
    await pause();
    a!.waited('transaction-final', { ...finding(), test: 'y' });
    await pause();
    expect(b!.blocker('transaction-final')).toBeUndefined();
  });

  it('a defect filed by one worker is a repeat in another, counted on the first test', async () => {
    const [a, b] = await workers(2);
    expect(a!.file(finding(), 'payment > a', true).kind).toBe('root');
    await until(() => b!.defects().length === 1);
    const seen = b!.file(finding({ message: 'no valid webhook for transaction 11111111-2222-4333-8444-555555555555' }), 'cancel > b', true);
    expect(seen.kind).toBe('repeat');
    expect(seen.root.test).toBe('payment > a');
    expect(b!.isReported(seen.root)).toBe(true);
  });

  it('a root only recorded in one worker is taken over when another worker reports it', async () => {
    const [a, b] = await workers(2);
    a!.file(finding(), 'stateful > recorded', false);
    await until(() => b!.defects().length === 1);
    expect(b!.file(finding(), 'payment > reported', true).kind).toBe('root');
    await until(() => a!.defects()[0]!.reported);
    expect(a!.defects()[0]!.root.test).toBe('payment > reported');
  });

  it('a worker whose hub is gone keeps its own ledger', async () => {
    const [a] = await workers(1);
    await hub!.close();
    hub = undefined;
    const root = { ...finding(), test: 'a' };
    a!.waited('webhook-valid', root);
    expect(a!.waited('webhook-valid', root)).toBe(true);
    expect(a!.blocker('webhook-valid')).toEqual(root);
  });
});
