/** The virtual terminal in process: retention, volume, timers; plus the small building blocks. */
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.ts';
import { FaultSet } from './faults.ts';
import { isFinal, type Txn } from './model.ts';
import { resolveSimulatorOptions, SIMULATOR_DEFAULTS } from './options.ts';
import { OtpBook } from './otp.ts';
import { Rng } from './rng.ts';
import { startSimulator } from './simulator.ts';
import { makeMerchant } from './store.ts';
import { VirtualTerminal } from './virtual-terminal.ts';
import { P, pairClient, pay, startTestSim, waitOperation } from './testkit.ts';
import { sign } from './webhooks.ts';

function terminal(
  settings: { stepDelayMs: number; deadlineMs: number; maxFinalPerTerminal: number },
  onFinal: (t: Txn) => void = () => undefined,
) {
  const rng = new Rng(1);
  return new VirtualTerminal(
    {
      settings,
      faults: new FaultSet(),
      rng,
      now: Date.now,
      hooks: { onTransaction: (t) => isFinal(t.status) && onFinal(t), onOperation: () => undefined },
    },
    makeMerchant(rng),
  );
}

describe('retention', () => {
  it('keeps at most maxFinalPerTerminal final transactions and operations; older ids answer 404', async () => {
    const t = await startTestSim({ maxFinalPerTerminal: 3 });
    try {
      const c = await pairClient(t);
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await pay(c, 1000 + i)).transaction_id);
      expect((await c.get(P.status(ids[0] as string))).status).toBe(404);
      expect((await c.get(P.status(ids[1] as string))).status).toBe(404);
      for (const id of ids.slice(2)) expect((await c.get(P.status(id))).status).toBe(200);
      const pre = (await pay(c, 1000, P.preauth)).transaction_id;
      const ops: string[] = [];
      for (let i = 0; i < 4; i++) {
        const r = await c.post(P.increment(pre), { amount: 10 });
        ops.push(r.json.operation_id);
        await waitOperation(c, r.json.operation_id);
      }
      expect((await c.get(P.operation(ops[0] as string))).status).toBe(404);
      expect((await c.get(P.operation(ops[3] as string))).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('runs 100,000 transactions on 500 terminals with flat storage and no timer left', async () => {
    const settings = { stepDelayMs: 0, deadlineMs: 1000, maxFinalPerTerminal: 20 };
    const terminals: VirtualTerminal[] = [];
    let finals = 0;
    let round: (() => void) | null = null;
    const onFinal = () => {
      finals++;
      if (finals % terminals.length === 0) round?.();
    };
    for (let i = 0; i < 500; i++) terminals.push(terminal(settings, onFinal));
    const heapBefore = process.memoryUsage().heapUsed;
    for (let r = 0; r < 200; r++) {
      const done = new Promise<void>((resolve) => (round = resolve));
      for (const term of terminals) term.start('payment', 1000 + (r % 50), `r${r}`, null);
      await done;
    }
    expect(finals).toBe(100_000);
    for (const term of terminals) {
      expect(term.stats()).toEqual({ transactions: 20, operations: 0, pending: 0, timed: 0 });
    }
    // 10,000 retained records; a leak of all 100,000 would take far more than this.
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(150 * 1024 * 1024);
  }, 30_000);

  it('dispose() clears every timer, including waiting and flipping transactions', () => {
    const t = terminal({ stepDelayMs: 50, deadlineMs: 1000, maxFinalPerTerminal: 10 });
    t.start('payment', 1054, null, null);
    expect(t.stats().timed).toBe(1);
    t.dispose();
    expect(t.stats().timed).toBe(0);
  });
});

describe('startSimulator', () => {
  it('answers a base URL without trailing slash, and close() is idempotent and stops listening', async () => {
    const sim = await startSimulator({ seed: 3 });
    expect(sim.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sim.integratorId).toBe('sim-integrator');
    expect(sim.seed).toBe(3);
    await Promise.all([sim.close(), sim.close()]);
    await expect(fetch(`${sim.url}/v1/pay-connect/config/`)).rejects.toThrow();
  });

  it('refuses bad options with PCC_CONFIG_INVALID naming the option', async () => {
    for (const [o, name] of [
      [{ stepDelayMs: 2000 }, 'stepDelayMs'],
      [{ deadlineMs: 20_000 }, 'deadlineMs'],
      [{ stepDelayMs: 100, deadlineMs: 150 }, 'deadlineMs'],
      [{ webhookRetryScale: 0 }, 'webhookRetryScale'],
      [{ port: -1 }, 'port'],
      [{ maxFinalPerTerminal: 0 }, 'maxFinalPerTerminal'],
      [{ tokenLifetimeSec: 0 }, 'tokenLifetimeSec'],
    ] as const) {
      await expect(startSimulator(o)).rejects.toMatchObject({ code: 'PCC_CONFIG_INVALID', message: expect.stringContaining(name) });
    }
    await expect(startSimulator({ faults: ['nope' as 'slow'] })).rejects.toMatchObject({ code: 'PCC_CONFIG_INVALID' });
  });

  it('fills in the documented defaults', () => {
    const r = resolveSimulatorOptions();
    expect(r).toMatchObject({ ...SIMULATOR_DEFAULTS, faults: [] });
    expect(r.stepDelayMs).toBe(50);
    expect(r.deadlineMs).toBe(3000);
    expect(Number.isInteger(r.seed)).toBe(true);
  });
});

describe('building blocks', () => {
  it('Rng is reproducible from its seed and makes UUID-shaped ids', () => {
    const a = new Rng(42);
    const b = new Rng(42);
    const xs = Array.from({ length: 5 }, () => a.uuid());
    expect(Array.from({ length: 5 }, () => b.uuid())).toEqual(xs);
    expect(new Rng(43).uuid()).not.toBe(xs[0]);
    for (const x of xs) expect(x).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const many = new Set(Array.from({ length: 100_000 }, () => a.uuid()));
    expect(many.size).toBe(100_000);
  });

  it('OtpBook mints unused OTPs and accepts each valid one once', () => {
    const book = new OtpBook(new Rng(1));
    const minted = new Set(Array.from({ length: 1000 }, () => book.mint()));
    expect(minted.size).toBe(1000);
    const otp = [...minted][0] as string;
    expect(book.consume(otp)).toBeNull();
    expect(book.consume(otp)).toBe('consumed');
    expect(book.consume(otp, true)).toBeNull();
    expect(book.consume('000000')).toBe('never-valid');
    expect(book.consume('12a456')).toBe('malformed');
    expect(book.consume('999999')).toBeNull();
  });

  it('canonicalJson sorts keys at every level and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
  });

  it('sign is lowercase hex HMAC-SHA256', () => {
    expect(sign('key', 'The quick brown fox jumps over the lazy dog')).toBe(
      'f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8',
    );
  });
});
