/** Unit test: a pairing forgotten hands what the worker recorded so far to its transcript file. */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../config/testing.ts';
import { Harness } from './harness.ts';
import type { Pairing } from './pairing.ts';
import type { RunContext } from './run-context.ts';

const { emptyDir } = useTempDirs();

describe('Harness.forget', () => {
  it("writes the worker's recorded events to its transcript file, redacted, before the test ends", async () => {
    const dir = await emptyDir();
    const ctx = {
      targetKind: 'url',
      baseUrl: 'http://127.0.0.1:9',
      integratorId: 'i',
      profile: 'sandbox',
      strict: false,
      otps: [],
      mintOtps: false,
      webhookListen: { host: '127.0.0.1', port: 0 },
      vaultPath: join(dir, 'vault.json'),
      transcriptDir: dir,
    } as unknown as RunContext;
    const h = new Harness(ctx);
    try {
      h.redactor.register('s3cr3t-value');
      h.transcript!.add({
        kind: 'exchange',
        test: 'stateful > part',
        scope: 1,
        exchange: {
          seq: 1,
          request: { method: 'GET', url: 'u', path: '/p', headers: { authorization: 'Bearer s3cr3t-value' } },
          startedAt: '2026-01-01T00:00:00.000Z',
          durationMs: 1,
        },
      });
      let closed = false;
      const pairing = { credentials: { client_id: 'c-1' }, close: async () => void (closed = true) } as unknown as Pairing;
      await h.forget(pairing);
      expect(closed).toBe(true);
      const files = readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
      expect(files).toHaveLength(1);
      const text = readFileSync(join(dir, files[0]!), 'utf8');
      expect(text).toContain('"test":"stateful > part"');
      expect(text).not.toContain('s3cr3t-value');
    } finally {
      await h.close();
    }
  });
});
