/**
 * The consumer suite: for every interaction of the pact, the toolkit's own client (and, for webhook
 * messages, its webhook receiver) runs against the Pact mock. When every interaction passed, the pact
 * is written, normalised, to contracts/pacts/ and checked against the OpenAPI contract.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PactV4 } from '@pact-foundation/pact';
import { afterAll, describe, expect, test } from 'vitest';
import { operations, webhooks } from '../../src/generated/contract.ts';
import {
  CONSUMER,
  DEFAULT_PACT_DIR,
  PROVIDER,
  checkPactAgainstContract,
  consumeWebhookMessage,
  declareHttp,
  declareMessage,
  driveInteraction,
  httpInteractions,
  mockRecorded,
  readPact,
  webhookMessages,
  writeNormalizedPact,
} from '../../src/pact/index.ts';

const workDir = mkdtempSync(join(tmpdir(), 'pcc-consumer-pact-'));
const pact = new PactV4({ consumer: CONSUMER, provider: PROVIDER, dir: workDir, logLevel: 'error' });
const http = httpInteractions();
const messages = webhookMessages();
let passed = 0;

afterAll(() => rmSync(workDir, { recursive: true, force: true }));

// Each session waits for its mock to record the request it answered before it returns: the Pact
// core records a match after its answer, and pact-js judges the session at once (mock-record.ts).
describe('consumer pact: HTTP interactions', () => {
  for (const i of http) {
    test(i.description, async () => {
      await declareHttp(pact, i).executeTest(async (mock) => {
        await driveInteraction(i, mock.url);
        await mockRecorded(mock.port);
      });
      passed++;
    });
  }
});

describe('consumer pact: webhook messages', () => {
  for (const m of messages) {
    test(m.description, async () => {
      await declareMessage(pact, m).executeTest((message) => consumeWebhookMessage(m, message));
      passed++;
    });
  }
});

describe('the pact file', () => {
  test('covers every operation and every webhook kind, and is written to contracts/pacts', () => {
    expect(passed, 'every interaction passed').toBe(http.length + messages.length);
    expect(new Set(http.map((i) => i.operationId))).toEqual(new Set(operations.map((o) => o.operationId)));
    expect(new Set(messages.map((m) => `${m.kind}Event`))).toEqual(new Set(webhooks.map((w) => w.name)));
    const file = writeNormalizedPact(workDir, DEFAULT_PACT_DIR);
    const written = readPact(file);
    expect(written.interactions).toHaveLength(http.length + messages.length);
  });

  test('every interaction validates against the OpenAPI contract (bi-directional check)', () => {
    const problems = checkPactAgainstContract(readPact(join(DEFAULT_PACT_DIR, `${CONSUMER}-${PROVIDER}.json`)));
    expect(problems).toEqual([]);
  });
});
