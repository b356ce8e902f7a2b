/**
 * Unit tests of the operator's console over in-memory streams: keys in through a PassThrough (made to
 * look like a TTY where raw mode matters), lines out to a collecting Writable.
 */
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type OperatorAction, OperatorConsole, type StepInfo, type StepVerdict } from './operator-console.ts';
import { type PlanStep, planSession } from './session-plan.ts';

type FakeInput = PassThrough & { isTTY?: boolean; isRaw?: boolean; setRawMode?(on: boolean): unknown };

/** A console over fresh streams; `raw` records setRawMode calls when the input plays a TTY. */
function rig(
  o: { tty?: boolean; outTty?: boolean; act?: (a: OperatorAction) => Promise<string>; now?: () => number; heartbeatMs?: number } = {},
) {
  const input: FakeInput = new PassThrough();
  const raw: boolean[] = [];
  if (o.tty) {
    input.isTTY = true;
    input.isRaw = false;
    input.setRawMode = (on: boolean) => {
      raw.push(on);
      input.isRaw = on;
      return input;
    };
  }
  let text = '';
  const output = new Writable({
    write(chunk, _enc, cb) {
      text += String(chunk);
      cb();
    },
  }) as Writable & { isTTY?: boolean };
  if (o.outTty) output.isTTY = true;
  const { tty: _t, outTty: _o, ...opts } = o;
  const console = new OperatorConsole({ input, output }, opts);
  return { input, raw, console, out: () => text };
}

/** A watch the test finishes by hand; it records the status setter and the stop signal it was given. */
function manualWatch() {
  const w = {
    stop: undefined as AbortSignal | undefined,
    status: (_text: string) => {},
    calls: 0,
    resolve: (_r: { final?: string }) => {},
    reject: (_e: unknown) => {},
    fn: (status: (text: string) => void, stop: AbortSignal) => {
      w.calls++;
      w.status = status;
      w.stop = stop;
      return new Promise<{ final?: string }>((res, rej) => {
        w.resolve = res;
        w.reject = rej;
      });
    },
  };
  return w;
}

/** Lets stream events and promise callbacks run. */
async function flush(rounds = 3): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((r) => setImmediate(r));
}

/** A promise's value once settled, else 'pending'. */
function track<T>(p: Promise<T>): { value: () => T | 'pending' } {
  let value: T | 'pending' = 'pending';
  void p.then(
    (v) => (value = v),
    () => undefined,
  );
  return { value: () => value };
}

const info = (over: Partial<StepInfo> = {}): StepInfo => ({
  index: 3,
  total: 12,
  test: 'payment > generate and converge: decline',
  instruction: 'Present the decline test card.',
  ...over,
});

const CONTROL = /[\x00-\x09\x0b-\x1f\x7f]/;

describe('OperatorConsole.step: the result', () => {
  it('prints the header, instruction and keys, runs watch, and ends ok when the result is the expected one', async () => {
    const r = rig();
    const w = manualWatch();
    const p = r.console.step(info({ expected: 'DECLINED' }), w.fn);
    expect(w.calls).toBe(1);
    w.resolve({ final: 'DECLINED' });
    expect(await p).toEqual({ kind: 'done', final: 'DECLINED' });
    const lines = r.out().split('\n');
    expect(lines).toContain('[step 3/12] payment > generate and converge: decline');
    expect(lines).toContain('  > Present the decline test card.');
    expect(lines).toContain('  keys: s skip, r redo, a abort');
    expect(lines).toContain('  ok: DECLINED');
    expect(r.out()).not.toContain('virtual terminal');
    expect(w.stop?.aborted).toBe(false);
  });

  it('says how it ended when nothing was expected', async () => {
    const r = rig();
    const w = manualWatch();
    const p = r.console.step(info(), w.fn);
    w.resolve({ final: 'EXPIRED' });
    expect(await p).toEqual({ kind: 'done', final: 'EXPIRED' });
    expect(r.out()).toContain('  ended EXPIRED\n');
    expect(r.out()).not.toContain('ok:');
  });

  it.each([
    ['r', { kind: 'redo' }, '  redo: this step runs again'],
    ['\n', { kind: 'done', final: 'DECLINED', kept: true }, '  kept this result'],
    ['s', { kind: 'skip' }, '  skipped by the operator'],
  ] as const)('a result other than expected asks the operator; %j answers', async (key, verdict, said) => {
    const r = rig();
    const w = manualWatch();
    const p = track(r.console.step(info({ expected: 'SUCCESS' }), w.fn));
    w.resolve({ final: 'DECLINED' });
    await flush();
    expect(r.out()).toContain('  ended DECLINED, expected SUCCESS\n  r redo, Enter keep this result, s skip, a abort\n');
    expect(p.value()).toBe('pending');
    r.input.write('z');
    await flush();
    expect(p.value()).toBe('pending');
    r.input.write(key);
    await flush();
    expect(p.value()).toEqual(verdict);
    expect(r.out().trimEnd().split('\n').at(-1)).toBe(said);
  });

  it('on a mismatch, a asks before aborting: n keeps the question open, a then y aborts', async () => {
    const r = rig();
    const w = manualWatch();
    const p = track(r.console.step(info({ expected: 'SUCCESS' }), w.fn));
    w.resolve({});
    await flush();
    expect(r.out()).toContain('  ended with no final status, expected SUCCESS\n');
    r.input.write('a');
    await flush();
    expect(r.out()).toContain('  abort the session? y/N\n');
    r.input.write('n');
    await flush();
    expect(p.value()).toBe('pending');
    r.input.write('a');
    await flush();
    r.input.write('y');
    await flush();
    expect(p.value()).toEqual({ kind: 'abort' });
  });
});

describe('OperatorConsole.step: keys while watching', () => {
  it.each([
    ['s', { kind: 'skip' }, '  skipped by the operator'],
    ['r', { kind: 'redo' }, '  redo: this step runs again'],
    ['\x03', { kind: 'abort' }, '  aborted by the operator: the session stops here'],
  ] as const)('%j aborts stop, waits for watch to settle, then gives the verdict', async (key, verdict, said) => {
    const r = rig();
    const w = manualWatch();
    const p = track(r.console.step(info({ expected: 'DECLINED' }), w.fn));
    await flush();
    expect(w.stop?.aborted).toBe(false);
    r.input.write(key);
    await flush();
    expect(w.stop?.aborted).toBe(true);
    expect(p.value()).toBe('pending'); // watch has not settled yet
    expect(r.out()).not.toContain(said);
    w.resolve({ final: 'CANCELED' });
    await flush();
    expect(p.value()).toEqual(verdict);
    expect(r.out().trimEnd().split('\n').at(-1)).toBe(said);
    expect(r.out()).not.toContain('abort the session?');
  });

  it('a asks first: y aborts; n goes on watching', async () => {
    const r = rig();
    const w = manualWatch();
    const p = track(r.console.step(info(), w.fn));
    r.input.write('a');
    await flush();
    expect(r.out()).toContain('  abort the session? y/N\n');
    expect(w.stop?.aborted).toBe(false);
    r.input.write('n');
    await flush();
    expect(r.out()).toContain('  not aborted\n');
    expect(w.stop?.aborted).toBe(false);
    r.input.write('a');
    await flush();
    r.input.write('y');
    await flush();
    expect(w.stop?.aborted).toBe(true);
    expect(p.value()).toBe('pending');
    w.resolve({});
    await flush();
    expect(p.value()).toEqual({ kind: 'abort' });
  });

  it('a result that arrives while the question is open waits for the answer', async () => {
    const r = rig();
    const w = manualWatch();
    const p = track(r.console.step(info({ expected: 'SUCCESS' }), w.fn));
    r.input.write('a');
    await flush();
    w.resolve({ final: 'SUCCESS' });
    await flush();
    expect(p.value()).toBe('pending');
    r.input.write('\n');
    await flush();
    expect(p.value()).toEqual({ kind: 'done', final: 'SUCCESS' });
    expect(w.stop?.aborted).toBe(false);
  });

  it('reads a line-based (non-TTY) input by lines: "a\\n" asks, "y\\n" answers', async () => {
    const r = rig();
    const w = manualWatch();
    const p = track(r.console.step(info(), w.fn));
    r.input.write('a\n');
    await flush();
    expect(r.out()).toContain('abort the session? y/N');
    expect(r.out()).not.toContain('not aborted');
    r.input.write('Y\r\n');
    await flush();
    w.resolve({});
    await flush();
    expect(p.value()).toEqual({ kind: 'abort' });
  });

  it('keeps the operator verdict when watch rejects after stop; rejects with the error when nobody stopped it', async () => {
    const r = rig();
    const w = manualWatch();
    const p = track(r.console.step(info(), w.fn));
    r.input.write('s');
    await flush();
    w.reject(new Error('canceled'));
    await flush();
    expect(p.value()).toEqual({ kind: 'skip' });

    const w2 = manualWatch();
    const p2 = r.console.step(info(), w2.fn);
    w2.reject(new Error('poll broke'));
    await expect(p2).rejects.toThrow('poll broke');
    expect(r.out()).toContain('  the step stopped on an error: poll broke\n');
  });

  it('drops keys typed before the step started', async () => {
    const r = rig({ tty: true });
    r.input.write('s');
    r.input.write('\x03');
    const w = manualWatch();
    const p = track(r.console.step(info({ expected: 'DECLINED' }), w.fn));
    await flush();
    expect(w.stop?.aborted).toBe(false);
    w.resolve({ final: 'DECLINED' });
    await flush();
    expect(p.value()).toEqual({ kind: 'done', final: 'DECLINED' });
    // and keys typed between two steps do not reach the second one
    r.input.write('r');
    const w2 = manualWatch();
    const p2 = track(r.console.step(info(), w2.fn));
    await flush();
    expect(w2.stop?.aborted).toBe(false);
    w2.resolve({ final: 'SUCCESS' });
    await flush();
    expect(p2.value()).toEqual({ kind: 'done', final: 'SUCCESS' });
  });

  it('virtual terminal keys call act and print its line without ending the step', async () => {
    const acted: OperatorAction[] = [];
    const r = rig({ act: async (a) => (acted.push(a), `virtual terminal: ${a}, transaction IN_PROGRESS`) });
    const w = manualWatch();
    const p = track(r.console.step(info(), w.fn));
    expect(r.out()).toContain('  virtual terminal: p present card, d decline, f fail, x remove card, t timeout, i add tip\n');
    for (const k of ['p', 'd', 'f', 'x', 't', 'i']) r.input.write(k);
    await flush();
    expect(acted).toEqual(['present-card', 'decline', 'fail', 'remove-card', 'timeout', 'add-tip']);
    expect(r.out()).toContain('  virtual terminal: present-card, transaction IN_PROGRESS\n');
    expect(w.stop?.aborted).toBe(false);
    expect(p.value()).toBe('pending');
    w.resolve({ final: 'SUCCESS' });
    await flush();
    expect(p.value()).toEqual({ kind: 'done', final: 'SUCCESS' });
  });

  it('without act the virtual terminal keys do nothing', async () => {
    const r = rig();
    const w = manualWatch();
    const p = track(r.console.step(info(), w.fn));
    r.input.write('p');
    await flush();
    expect(r.out()).not.toContain('present');
    w.resolve({ final: 'SUCCESS' });
    await flush();
    expect(p.value()).toEqual({ kind: 'done', final: 'SUCCESS' });
  });

  it('the end of input aborts: during the wait, and at once when it ended before the step', async () => {
    const r = rig();
    const w = manualWatch();
    const p = track(r.console.step(info(), w.fn));
    r.input.end();
    await flush();
    expect(w.stop?.aborted).toBe(true);
    w.resolve({});
    await flush();
    expect(p.value()).toEqual({ kind: 'abort' });
    expect(r.out()).toContain('  no more input: the session stops here\n');
    const w2 = manualWatch();
    const p2 = r.console.step(info(), w2.fn);
    await flush();
    expect(w2.stop?.aborted).toBe(true);
    w2.resolve({});
    expect(await p2).toEqual({ kind: 'abort' });
  });
});

describe('OperatorConsole.step: the status line', () => {
  it('on a non-TTY prints a status line only when the text changes, and never a control character', async () => {
    const r = rig({ act: async () => 'virtual terminal: \x1b[31mred\x07' });
    const w = manualWatch();
    const p = r.console.step(info({ test: 'a\ttest\x1b[2J', expected: 'SUCCESS' }), w.fn);
    w.status('INITIATED');
    w.status('INITIATED');
    w.status('IN_PROGRESS');
    w.status('IN_PROGRESS');
    r.input.write('p');
    await flush();
    w.resolve({ final: 'SUCCESS' });
    await p;
    expect(
      r
        .out()
        .split('\n')
        .filter((l) => l.startsWith('  status: ')),
    ).toEqual(['  status: INITIATED', '  status: IN_PROGRESS']);
    expect(r.out()).toContain('red');
    expect(r.out()).not.toMatch(CONTROL);
    expect(
      r
        .out()
        .split('\n')
        .every((l) => l.length <= 100),
    ).toBe(true);
  });

  it('cuts long lines to 100 characters', async () => {
    const r = rig();
    const w = manualWatch();
    const p = r.console.step(info({ test: 'x'.repeat(300), instruction: 'y'.repeat(300) }), w.fn);
    w.status('z'.repeat(300));
    w.resolve({ final: 'SUCCESS' });
    await p;
    const lines = r.out().split('\n');
    expect(lines.some((l) => l.startsWith('[step 3/12] xxx') && l.endsWith('...') && l.length === 100)).toBe(true);
    expect(lines.every((l) => l.length <= 100)).toBe(true);
  });

  it('on a TTY redraws one line with the elapsed time, on every status and on the heartbeat, and stops after', async () => {
    let clock = 1_000;
    const r = rig({ outTty: true, now: () => clock, heartbeatMs: 5 });
    const w = manualWatch();
    const p = r.console.step(info(), w.fn);
    w.status('INITIATED');
    expect(r.out()).toContain('\r\x1b[2K  status: INITIATED (0 s)');
    clock = 4_500;
    await new Promise((res) => setTimeout(res, 40));
    expect(r.out()).toContain('\r\x1b[2K  status: INITIATED (3 s)');
    expect(r.out().split('(3 s)').length - 1).toBeGreaterThanOrEqual(2); // redrawn by the heartbeat alone
    w.status('IN_PROGRESS');
    expect(r.out()).toContain('\r\x1b[2K  status: IN_PROGRESS (3 s)');
    w.resolve({ final: 'SUCCESS' });
    await p;
    const after = r.out();
    expect(after.endsWith('  ended SUCCESS\n')).toBe(true);
    await new Promise((res) => setTimeout(res, 30));
    w.status('late');
    expect(r.out()).toBe(after);
  });

  it('on a TTY a line printed mid-wait clears the status line and draws it again below', async () => {
    const r = rig({ outTty: true, now: () => 0, heartbeatMs: 10_000 });
    const w = manualWatch();
    const p = r.console.step(info(), w.fn);
    w.status('IN_PROGRESS');
    r.input.write('a');
    await flush();
    expect(r.out()).toContain(
      '\r\x1b[2K  status: IN_PROGRESS (0 s)\r\x1b[2K  abort the session? y/N\n\r\x1b[2K  status: IN_PROGRESS (0 s)',
    );
    r.input.write('n');
    w.resolve({});
    await p;
  });
});

describe('OperatorConsole: plan, start, notes, clean-up', () => {
  const steps: PlanStep[] = [
    ...Array.from({ length: 10 }, (_, i) => ({
      test: `payment > generate and converge: approve ${i}`,
      file: 'a',
      outcome: 'approve' as const,
    })),
    { test: 'payment > generate and converge: decline', file: 'b', outcome: 'decline' },
    { test: 'payment > expires', file: 'c', outcome: 'expire' },
  ];

  it('shows the plan: length, card changes, carried tests, every step with its card, the cards to have ready', () => {
    const r = rig();
    const plan = planSession(steps, { expireMs: 60_000 });
    r.console.showPlan(plan, 5);
    const lines = r.out().split('\n');
    expect(lines[0]).toBe('Manual session: 12 steps at the terminal, about 7 min (1 card change).');
    expect(lines[1]).toBe('Already passed and not repeated: 5 tests.');
    expect(lines[2]).toBe('  1. approve card   payment > generate and converge: approve 0');
    expect(lines[12]).toBe(' 11. decline card   payment > generate and converge: decline');
    expect(lines[13]).toBe(' 12. no card        payment > expires');
    expect(lines[14]).toBe('Have ready: the approve test card, the decline test card.');
    const again = rig();
    again.console.showPlan(plan);
    expect(again.out()).not.toContain('Already passed');
  });

  it.each([
    ['\n', true],
    ['\r', true],
    ['a', false],
    ['\x03', false],
    ['a\n', false],
  ] as const)('confirmStart answers %j with %s (other keys are ignored)', async (key, answer) => {
    const r = rig({ tty: true });
    const p = track(r.console.confirmStart());
    expect(r.out()).toBe('Press Enter to start, a to abort.\n');
    r.input.write('q');
    await flush();
    expect(p.value()).toBe('pending');
    r.input.write(key);
    await flush();
    expect(p.value()).toBe(answer);
    expect(r.raw).toEqual([true, false]);
  });

  it('confirmStart is false at the end of input', async () => {
    const r = rig();
    const p = r.console.confirmStart();
    r.input.end();
    expect(await p).toBe(false);
  });

  it('note prints one plain line', () => {
    const r = rig();
    r.console.note('resume with --resume\x1b[0m');
    expect(r.out()).toBe('resume with --resume [0m\n');
  });

  it('leaves no listener behind over 20 steps, whatever ends them', async () => {
    const r = rig({ tty: true });
    const events = ['data', 'end', 'close', 'error', 'readable'] as const;
    const before = events.map((e) => r.input.listenerCount(e));
    const verdicts: StepVerdict[] = [];
    for (let i = 0; i < 20; i++) {
      const w = manualWatch();
      const p = r.console.step(info({ index: i + 1, total: 20, expected: 'SUCCESS' }), w.fn);
      expect(r.input.listenerCount('data')).toBe(before[0]! + 1);
      if (i % 4 === 0) w.resolve({ final: 'SUCCESS' });
      else if (i % 4 === 1) {
        r.input.write('s');
        await flush();
        w.resolve({});
      } else if (i % 4 === 2) {
        w.resolve({ final: 'FAILED' });
        await flush();
        r.input.write('\r');
      } else {
        r.input.write('a');
        await flush();
        r.input.write('n');
        await flush();
        w.resolve({ final: 'SUCCESS' });
      }
      verdicts.push(await p);
    }
    expect(verdicts.map((v) => v.kind)).toEqual(Array.from({ length: 20 }, (_, i) => (i % 4 === 1 ? 'skip' : 'done')));
    expect(events.map((e) => r.input.listenerCount(e))).toEqual(before);
    expect(r.raw.at(-1)).toBe(false);
  });

  it('uses raw mode only while waiting for keys, and close restores it (idempotent) and ends a waiting step', async () => {
    const r = rig({ tty: true });
    const w = manualWatch();
    const p = track(r.console.step(info(), w.fn));
    expect(r.raw).toEqual([true]);
    expect(r.input.isRaw).toBe(true);
    r.console.close();
    expect(r.raw).toEqual([true, false]);
    expect(r.input.isRaw).toBe(false);
    expect(r.input.listenerCount('data')).toBe(0);
    r.console.close();
    expect(r.raw).toEqual([true, false]);
    await flush();
    expect(w.stop?.aborted).toBe(true);
    expect(p.value()).toBe('pending');
    w.resolve({});
    await flush();
    expect(p.value()).toEqual({ kind: 'abort' });
    expect(r.raw).toEqual([true, false]);
  });

  it('leaves a TTY that was already raw in raw mode', async () => {
    const r = rig({ tty: true });
    r.input.isRaw = true;
    const p = r.console.confirmStart();
    r.input.write('\r');
    expect(await p).toBe(true);
    expect(r.raw).toEqual([]);
  });
});
