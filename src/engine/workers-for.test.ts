/** Unit tests of how many terminals (workers) a run uses, and why fewer than asked. */
import { describe, expect, it } from 'vitest';
import { resolveIn, useTempDirs } from '../config/testing.ts';
import { workersFor } from './run-conformance.ts';

const { emptyDir } = useTempDirs();
const at = async (argv: string[]) => resolveIn(await emptyDir(), argv);
const minting = { mintOtps: true };
const notMinting = { mintOtps: false };
const url = ['--target', 'https://staging.example.com', '--integrator-id', 'i-1'];

describe('workersFor', () => {
  it('gives a sandbox that mints OTPs the terminals asked for', async () => {
    expect(workersFor(await at(['--terminals', '3']), minting, 0)).toEqual({ workers: 3 });
    expect(workersFor(await at(['--terminals', '1']), minting, 0)).toEqual({ workers: 1 });
  });

  it('keeps to one terminal for a person, the Pact mock and a fixed webhook port, and says why', async () => {
    expect(workersFor(await at(['--terminal', 'manual']), minting, 0)).toMatchObject({ workers: 1, reason: expect.stringContaining('person') });
    expect(workersFor(await at(['--target', 'pact']), minting, 0)).toMatchObject({ workers: 1, reason: expect.stringContaining('Pact') });
    expect(workersFor(await at(['--webhook-listen', '127.0.0.1:8099']), minting, 0)).toMatchObject({ workers: 1, reason: expect.stringContaining('8099') });
  });

  it('against a service that does not mint OTPs: one terminal, or as many as it has pairings when asked', async () => {
    expect(workersFor(await at(url), notMinting, 5)).toMatchObject({ workers: 1 });
    expect(workersFor(await at([...url, '--terminals', '3']), notMinting, 5)).toEqual({ workers: 3 });
    expect(workersFor(await at([...url, '--terminals', '3', '--otp', '123456']), notMinting, 1)).toMatchObject({ workers: 2, reason: 'only 2 pairings (vault and --otp) for 3 terminals' });
  });
});
