/**
 * The terminal driver's part of a manual session: the plan's numbering of the steps the operator
 * sees (a test of several steps takes its places in turn, a redo starts it over), and the watch run
 * as it is outside manual mode.
 */
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { resolveProfile } from '../profile/index.ts';
import { createTerminalDriver, type DriverOptions } from './driver.ts';
import { OperatorConsole } from './operator-console.ts';

/** A driver whose console reads `keys` (one per step, given when the step starts) and records its output. */
function rig(mode: DriverOptions['mode'], steps: string[], keys: string[]) {
  const headers: string[] = [];
  const driver = createTerminalDriver({
    mode,
    profile: resolveProfile('sandbox'),
    maxAmount: 100,
    sandbox: true,
    interactive: true,
    steps,
    console: () => {
      const input = new PassThrough();
      const output = new Writable({
        write: (chunk, _e, cb) => {
          for (const line of String(chunk).split('\n')) if (line.startsWith('[step ')) headers.push(line.split('] ')[0]! + ']');
          cb();
        },
      });
      const c = new OperatorConsole({ input, output });
      const key = keys.shift();
      if (key !== undefined) setTimeout(() => input.write(key), 5);
      return { console: c, close: () => c.close() };
    },
  });
  return { driver, headers };
}

/** A watch that ends (final status) only when the operator's key stops it, or at once with `final`. */
const watch = (final?: string) => (_status: (t: string) => void, stop: AbortSignal) =>
  final !== undefined
    ? Promise.resolve({ final })
    : new Promise<{ final?: string }>((resolve) => stop.addEventListener('abort', () => resolve({ final: 'CANCELED' })));

describe('the manual driver', () => {
  it('numbers the steps by the plan: a two-step test takes both its places; an unplanned one comes after', async () => {
    const { driver, headers } = rig('manual', ['payment > a', 'refund > b', 'refund > b'], []);
    for (const test of ['payment > a', 'refund > b', 'refund > b', 'cancel > c']) {
      expect(await driver.attend({ test, instruction: 'Present the approve test card.' }, watch('SUCCESS'))).toEqual({
        kind: 'done',
        final: 'SUCCESS',
      });
    }
    expect(headers).toEqual(['[step 1/3]', '[step 2/3]', '[step 3/3]', '[step 4/4]']);
  });

  it('a redo starts the test over at its first place in the plan', async () => {
    const { driver, headers } = rig('manual', ['refund > b', 'refund > b'], ['r']);
    expect((await driver.attend({ test: 'refund > b', instruction: 'x' }, watch())).kind).toBe('redo');
    await driver.attend({ test: 'refund > b', instruction: 'x' }, watch('SUCCESS'));
    await driver.attend({ test: 'refund > b', instruction: 'x' }, watch('SUCCESS'));
    expect(headers).toEqual(['[step 1/2]', '[step 1/2]', '[step 2/2]']);
  });

  it('outside manual mode the watch runs without a console and its final status is reported', async () => {
    const { driver, headers } = rig('auto', [], []);
    expect(await driver.attend({ test: 't', instruction: 'x' }, watch('DECLINED'))).toEqual({ kind: 'done', final: 'DECLINED' });
    expect(headers).toEqual([]);
  });
});
