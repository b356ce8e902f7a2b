/**
 * A session's end and the mock's record of what it answered. The Pact core's mock server records a
 * match after it has sent the answer (mock-record.ts); pact-js reads the record as soon as the session's
 * function returns. The mock below does what that core does, always 50 ms late, so that what the
 * loaded machine does now and then happens every time here.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from 'vitest';
import { httpInteractions } from './interactions.ts';
import type { MissingRequest } from './mock-record.ts';
import { exerciseRest } from './mock-target.ts';

/** A mock declaring `declared` that answers every request 200 and records it `lagMs` after the answer. */
async function lateRecordingMock(declared: readonly MissingRequest[], lagMs: number) {
  const recorded: MissingRequest[] = [];
  let answered = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.end('{}', () => {
        answered++;
        setTimeout(() => recorded.push({ method: req.method!, path: req.url! }), lagMs);
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** What pact-js would report "expected but not received" if it read now. */
    missing: () => declared.filter((d) => !recorded.some((r) => r.method === d.method && r.path === d.path)),
    answered: () => answered,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const all = httpInteractions();
const config = all.find((i) => i.operationId === 'getConfig')!;
const token = all.find((i) => i.operationId === 'getToken')!;
const asRequest = (i: typeof config): MissingRequest => ({ method: i.method, path: i.path as string });
const send = async (i: typeof config, baseUrl: string) => {
  const res = await fetch(`${baseUrl}${i.path as string}`, { method: i.method });
  await res.arrayBuffer();
};

test('a session ends only once the mock has recorded every request it answered, each sent once', async () => {
  const mock = await lateRecordingMock([asRequest(config), asRequest(token)], 50);
  try {
    await exerciseRest([config, token], mock, { drive: send });
    // What pact-js reads the moment the session's function returns: nothing may be missing.
    expect(mock.missing()).toEqual([]);
    expect(mock.answered()).toBe(2);
  } finally {
    await mock.close();
  }
});

test('a request the mock never records still fails the session, after a bounded wait', async () => {
  const mock = await lateRecordingMock([asRequest(config), asRequest(token)], 50);
  try {
    const started = Date.now();
    // The token request is never made (as if it had matched another interaction): it stays missing.
    await exerciseRest([config, token], mock, { drive: (i, url) => (i === token ? Promise.resolve() : send(i, url)), waitMs: 300 });
    expect(mock.missing()).toEqual([asRequest(token)]);
    expect(Date.now() - started).toBeLessThan(5_000);
  } finally {
    await mock.close();
  }
});
