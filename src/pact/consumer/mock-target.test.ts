/**
 * The pact target's mocks, one per operation behind one front: a request reaches the mock of its
 * operation, and one that no interaction declares still fails the session when the target closes.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { EXAMPLE, PACT_FILE_NAME } from '../common/names.ts';
import { driveInteraction } from './consumer.ts';
import { httpInteractions } from './interactions.ts';
import { openPactTarget } from './mock-target.ts';

test('each operation is answered by its own interactions, and a request of none fails the session', async () => {
  const pactDir = mkdtempSync(join(tmpdir(), 'pcc-mock-target-'));
  const target = await openPactTarget({ pactDir, webhookListen: { host: '127.0.0.1', port: 0 } });
  let closed = false;
  try {
    // Interactions of four operations, through the front: each answered as declared (status and schema).
    const all = httpInteractions();
    const some = ['getConfig', 'getToken', 'generateTransaction', 'getTransactionStatus'].map((op) =>
      all.find((i) => i.operationId === op)!,
    );
    for (const i of some) await driveInteraction(i, target.baseUrl);
    // No operation has this path: the mock answers it as undeclared.
    const stray = await fetch(`${target.baseUrl}/v1/pay-connect/no-such-thing/`, {
      headers: { 'X-Pay-Connect-Integrator-Id': EXAMPLE.integratorId },
    });
    expect(stray.status).toBe(500);
    closed = true;
    await expect(target.close()).rejects.toMatchObject({
      code: 'PCC_PACT',
      message: expect.stringContaining('do not agree with the pact'),
    });
    expect(existsSync(join(pactDir, PACT_FILE_NAME))).toBe(false);
  } finally {
    if (!closed) await target.close({ discard: true });
    rmSync(pactDir, { recursive: true, force: true });
  }
}, 60_000);
