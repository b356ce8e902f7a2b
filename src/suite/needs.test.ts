import { describe, expect, it } from 'vitest';
import { NOT_MANUAL, type NeedsContext, unmetNeed } from './needs.ts';

const run = (over: Partial<NeedsContext> = {}): NeedsContext => ({
  targetKind: 'sim',
  terminal: 'auto',
  profile: 'sandbox',
  mintOtps: true,
  ...over,
});

describe('unmetNeed', () => {
  it('meets what a simulator run in auto mode offers', () => {
    expect(unmetNeed(undefined, run())).toBeUndefined();
    expect(
      unmetNeed({ stateful: 'why', terminal: [NOT_MANUAL, { modes: ['auto'], why: 'auto' }], sandboxProfile: 'p', mintedOtps: 'o' }, run()),
    ).toBeUndefined();
  });

  it('skips a stateful scenario against the Pact mock, with its reason', () => {
    expect(unmetNeed({ stateful: 'a sequence of states' }, run({ targetKind: 'pact' }))).toBe(
      'not against the Pact mock: a sequence of states',
    );
    expect(unmetNeed({ stateful: 'a sequence of states' }, run({ targetKind: 'url' }))).toBeUndefined();
  });

  it('gives the reason of the first terminal need the mode fails', () => {
    const autoOnly = { modes: ['auto'], why: 'auto only' } as const;
    expect(unmetNeed({ terminal: NOT_MANUAL }, run({ terminal: 'manual' }))).toBe(NOT_MANUAL.why);
    expect(unmetNeed({ terminal: NOT_MANUAL }, run({ terminal: 'observe' }))).toBeUndefined();
    expect(unmetNeed({ terminal: [NOT_MANUAL, autoOnly] }, run({ terminal: 'manual' }))).toBe(NOT_MANUAL.why);
    expect(unmetNeed({ terminal: [NOT_MANUAL, autoOnly] }, run({ terminal: 'observe' }))).toBe('auto only');
    expect(unmetNeed({ terminal: { modes: ['auto'], why: 'needs auto (this run: {terminal})' } }, run({ terminal: 'observe' }))).toBe(
      'needs auto (this run: observe)',
    );
  });

  it('needs the sandbox profile and minted OTPs where declared', () => {
    expect(unmetNeed({ sandboxProfile: 'profile' }, run({ profile: 'public' }))).toBe('profile');
    expect(unmetNeed({ mintedOtps: 'otps' }, run({ mintOtps: false }))).toBe('otps');
  });

  it('checks the target before the terminal', () => {
    expect(unmetNeed({ stateful: 's', terminal: NOT_MANUAL }, run({ targetKind: 'pact', terminal: 'manual' }))).toBe(
      'not against the Pact mock: s',
    );
  });
});
