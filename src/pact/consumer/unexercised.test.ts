import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PactV4 } from '@pact-foundation/pact';
import { expect, test, vi } from 'vitest';
import { CONSUMER, PROVIDER } from '../names.ts';
import { driveInteraction } from './consumer.ts';
import { declareHttp } from './declare.ts';
import { httpInteractions } from './interactions.ts';
import { unexercised } from './mock-target.ts';

test('a real Pact mock names what is left to exercise: only interactions with a missing request\'s method and path', async () => {
  const all = httpInteractions();
  const config = all.find((i) => i.operationId === 'getConfig')!;
  const token = all.find((i) => i.operationId === 'getToken')!;
  const dir = mkdtempSync(join(tmpdir(), 'pcc-unexercised-'));
  try {
    const pact = new PactV4({ consumer: CONSUMER, provider: PROVIDER, dir, logLevel: 'error' });
    declareHttp(pact, config);
    await declareHttp(pact, token).executeTest(async (mock) => {
      const left = () => unexercised([config, token], mock.port).map((i) => i.operationId);
      expect(left()).toEqual(['getConfig', 'getToken']);
      // The mock may record a match after the client has its answer (seen on a loaded CI runner): wait for it.
      await driveInteraction(config, mock.url);
      await vi.waitFor(() => expect(left()).toEqual(['getToken']), { timeout: 5000 });
      await driveInteraction(token, mock.url);
      await vi.waitFor(() => expect(left()).toEqual([]), { timeout: 5000 });
    });
    // A port no mock listens on: the mock cannot say, so everything is exercised.
    expect(unexercised([config, token], 9)).toEqual([config, token]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
