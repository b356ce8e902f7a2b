import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PactV4 } from '@pact-foundation/pact';
import { expect, test, vi } from 'vitest';
import { CONSUMER, PROVIDER } from '../common/names.ts';
import { driveInteraction } from './consumer.ts';
import { declareHttp } from './declare.ts';
import { httpInteractions } from './interactions.ts';
import { missingRequests } from './mock-record.ts';
import { exerciseRest, unexercised } from './mock-target.ts';

test("a real Pact mock names what is left to exercise: only interactions with a missing request's method and path", async () => {
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
      // The mock records a match after the client has its answer (mock-record.ts): wait for it.
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

test("sessions of a real Pact mock ended by exerciseRest pass pact-js's own check, the last request included", async () => {
  const all = httpInteractions();
  const some = ['getConfig', 'getToken', 'unpair'].map((op) => all.find((i) => i.operationId === op)!);
  const dir = mkdtempSync(join(tmpdir(), 'pcc-exercise-rest-'));
  try {
    // Each session ends straight after its last answer: pact-js reads the mock's record at once.
    for (let n = 0; n < 10; n++) {
      const pact = new PactV4({ consumer: CONSUMER, provider: PROVIDER, dir, logLevel: 'error' });
      for (const i of some.slice(0, -1)) declareHttp(pact, i);
      await declareHttp(pact, some.at(-1)!).executeTest((mock) =>
        exerciseRest(some, { url: mock.url, missing: () => missingRequests(mock.port) }),
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
