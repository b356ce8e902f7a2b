/** The simulator's settings table: one range for `sim`'s flag, `run`'s flag, the config schema and the simulator's API. */
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { SIM_COMMAND, simOptionsOf } from '../cli/commands/sim.ts';
import { parseCommandLine } from './command-line.ts';
import { resolveSimulatorOptions } from '../simulator/options.ts';
import { Rng } from '../simulator/rng.ts';
import { flagOf } from './flags.ts';
import { configJsonSchema } from './json-schema.ts';
import { resolveConfig } from './resolve.ts';
import { SIM_SETTINGS, simulatorSeedOf } from './sim-settings.ts';

const require = createRequire(import.meta.url);
const Ajv2020 = require('ajv/dist/2020').default as typeof import('ajv/dist/2020.js').default;
const validate = new Ajv2020({ allErrors: true, strict: true }).compile(configJsonSchema());

/** Whether `fn` runs without throwing (async or not). */
async function takes(fn: () => unknown): Promise<boolean> {
  try {
    await fn();
    return true;
  } catch {
    return false;
  }
}

describe('SIM_SETTINGS', () => {
  // Each case: the row, its top value and the next one, and room for it (a deadline takes more than two steps).
  it.each([
    [
      'stepDelayMs',
      1000,
      { sim: ['--deadline', '10s'], run: ['--sim-deadline', '10s'], api: { deadlineMs: 10_000 }, file: { deadline: 10_000 } },
    ],
    ['deadlineMs', 10_000, { sim: [], run: [], api: {}, file: {} }],
  ] as const)('%s: sim, run, the config schema and the simulator take its top value and refuse the next', async (name, top, room) => {
    const row = SIM_SETTINGS[name];
    const key = row.runKey.slice('sim.'.length);
    for (const [ms, ok] of [
      [top, true],
      [top + 1, false],
    ] as const) {
      const text = `${ms}ms`;
      const sim = () => simOptionsOf(parseCommandLine(SIM_COMMAND, [`--${row.simFlag}`, text, ...room.sim]).values);
      const run = () => resolveConfig({ argv: [`--${flagOf(row.runKey).name}`, text, ...room.run], env: {}, cwd: tmpdir() });
      const api = () => resolveSimulatorOptions({ [name]: ms, ...room.api });
      expect(
        [await takes(sim), await takes(run), await takes(api), validate({ sim: { [key]: ms, ...room.file } })],
        `${name} ${text}`,
      ).toEqual([ok, ok, ok, ok]);
    }
  });

  it('every setting run sets has its run flag, and every setting sim sets its sim flag', () => {
    const simFlags = SIM_COMMAND.sections.flatMap((s) => s.flags.map((f) => f.name as string));
    for (const [name, row] of Object.entries(SIM_SETTINGS)) {
      if ('runKey' in row) expect(flagOf(row.runKey), name).toBeDefined();
      if ('simFlag' in row) expect(simFlags, name).toContain(row.simFlag);
    }
  });

  it('simulatorSeedOf keeps every seed from 0 up and reads a negative run seed as the stream the simulator draws from it', () => {
    for (const seed of [0, 5, 2 ** 31, 2 ** 32 - 1]) expect(simulatorSeedOf(seed)).toBe(seed);
    expect(simulatorSeedOf(-5)).toBe(2 ** 32 - 5);
    const draws = (seed: number) =>
      Array.from(
        { length: 4 },
        (
          (rng) => () =>
            rng.u32()
        )(new Rng(seed)),
      );
    expect(draws(simulatorSeedOf(-5))).toEqual(draws(-5));
    expect(draws(simulatorSeedOf(-5))).not.toEqual(draws(-6 >>> 0));
  });
});
