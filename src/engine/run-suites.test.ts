/** The run's file order: the files that hold a worker longest start first, the rest in vitest's order. */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TestSpecification, Vitest } from 'vitest/node';
import { describe, expect, it } from 'vitest';
import { RUN_CONTEXT_KEY } from '../runtime/index.ts';
import { LongFirstSequencer, suiteFileCount } from './run-suites.ts';

const SUITES = fileURLToPath(new URL('../../suites/', import.meta.url));

/** The suite files as vitest would hand them over, with a file size each (vitest's order without a timing cache: larger first). */
function specs(): TestSpecification[] {
  const files = readdirSync(SUITES, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.suite.ts'));
  const project = { name: '', config: { sequence: { groupOrder: 0 }, isolate: false } };
  return files.map((f, i) => ({ moduleId: `${SUITES}${f}`, project, size: 1000 + i }) as unknown as TestSpecification);
}

function sequencer(targetKind?: string): LongFirstSequencer {
  const sizes = new Map(specs().map((s) => [s.moduleId, (s as unknown as { size: number }).size]));
  const ctx = {
    config: { root: '/' },
    getProvidedContext: () => (targetKind ? { [RUN_CONTEXT_KEY]: { targetKind } } : {}),
    cache: {
      getFileTestResults: () => undefined,
      getFileStats: (key: string) => ({ size: sizes.get(`/${key.slice(1)}`) ?? 0 }),
    },
  };
  return new LongFirstSequencer(ctx as unknown as Vitest);
}

describe('LongFirstSequencer', () => {
  it('on the embedded simulator, starts the token renewal, then the model-based parts and the request bodies', async () => {
    const order = (await sequencer('sim').sort(specs())).map((s) => s.moduleId.slice(SUITES.length));
    expect(order.slice(0, 4)).toEqual([
      'auth/token.suite.ts',
      'stateful/stateful.suite.ts',
      'properties/request-bodies.suite.ts',
      'stateful/stateful-parts-3-4.suite.ts',
    ]);
    expect(order.indexOf('auth/probes.suite.ts')).toBeGreaterThan(4);
  });

  it('against a service, then the token renewal and the payments (they wait), then the probes and the invalid bodies', async () => {
    const order = (await sequencer('url').sort(specs())).map((s) => s.moduleId.slice(SUITES.length));
    expect(order.slice(0, 7)).toEqual([
      'stateful/stateful.suite.ts',
      'properties/request-bodies.suite.ts',
      'stateful/stateful-parts-3-4.suite.ts',
      'auth/token.suite.ts',
      'payment/payment.suite.ts',
      'auth/probes.suite.ts',
      'properties/invalid-bodies.suite.ts',
    ]);
    // Every file still runs, once; the others keep vitest's order (here: larger first).
    expect([...order].sort()).toEqual(
      specs()
        .map((s) => s.moduleId.slice(SUITES.length))
        .sort(),
    );
    const rest = order.slice(7);
    const size = (f: string) => specs().find((s) => s.moduleId.endsWith(f)) as unknown as { size: number };
    expect(rest.map((f) => size(f).size)).toEqual(rest.map((f) => size(f).size).sort((a, b) => b - a));
  });
});

describe('suiteFileCount', () => {
  it("counts the selection's suite files, and the model-based parts' files that want a worker each", () => {
    expect(suiteFileCount(['stateful'], undefined)).toEqual({ files: 2, alone: 2 });
    expect(suiteFileCount(['stateful', 'payment'], undefined)).toEqual({ files: 3, alone: 2 });
    expect(suiteFileCount(['properties'], undefined)).toEqual({ files: 4, alone: 0 });
    expect(suiteFileCount([], undefined)).toEqual({ files: specs().length, alone: 2 });
    expect(suiteFileCount([], { count: 2 })).toEqual({ files: Math.ceil(specs().length / 2), alone: 1 });
  });
});
