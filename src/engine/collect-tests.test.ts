import { describe, expect, it } from 'vitest';
import { collectTests, skippedByNeeds } from './collect-tests.ts';

describe('collectTests', () => {
  it('lists the declared tests with their needs, so what a run skips is known before it starts', async () => {
    const tests = await collectTests(['cancel', 'print-slip', 'isolation', 'stateful']);
    const byName = new Map(tests.map((t) => [t.name, t]));
    expect(byName.get('cancel > cancel of an unknown transaction id answers 404')?.needs).toBeUndefined();
    expect(byName.get('cancel > cancel while IN_PROGRESS (54, waits for a card) ends CANCELED')?.needs?.terminal).toEqual({
      modes: ['auto', 'manual'],
      why: expect.stringContaining('observe mode'),
    });
    expect(byName.get("isolation > the second pairing cannot read the first's print slip")?.needs?.stateful).toContain('second pairing');

    const simAuto = { targetKind: 'sim', terminal: 'auto', profile: 'sandbox', mintOtps: true } as const;
    expect(skippedByNeeds(tests, simAuto)).toEqual([]);
    const underPact = skippedByNeeds(tests, { ...simAuto, targetKind: 'pact' });
    // Every isolation scenario but the unknown-id ones needs a second pairing; every cancel one but two a sequence of states.
    expect(underPact.filter((s) => s.name.startsWith('isolation > ')).length).toBe(5);
    expect(underPact.filter((s) => s.name.startsWith('cancel > ')).map((s) => s.name)).toHaveLength(4);
    expect(underPact.every((s) => s.reason.startsWith('not against the Pact mock: '))).toBe(true);
    const observe = skippedByNeeds(tests, { ...simAuto, terminal: 'observe' });
    expect(observe.map((s) => s.name)).toContain('stateful > model-based, part 1 of 4: command sequences against a model of the sandbox');
    expect(observe.find((s) => s.name.startsWith('print-slip > print slip while IN_PROGRESS'))?.reason).toMatch(
      /^only --terminal auto can hold the terminal IN_PROGRESS/,
    );
    expect(
      skippedByNeeds(tests, { ...simAuto, terminal: 'manual' }).find((s) => s.name.startsWith('print-slip > print slip while IN_PROGRESS'))
        ?.reason,
    ).toMatch(/timing no operator can follow/);
  }, 60_000);
});
