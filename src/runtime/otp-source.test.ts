/** Unit tests of the OTP source: given OTPs first, minted ones after, and workers never sharing one. */
import { describe, expect, it } from 'vitest';
import { OtpSource } from './otp-source.ts';

describe('OtpSource', () => {
  it("gives the user's OTPs in order, then mints only where allowed", () => {
    const none = new OtpSource(['111111', '222222'], false);
    expect([none.next(), none.next(), none.next()]).toEqual(['111111', '222222', undefined]);
    expect(none.available()).toBe(false);
    const mint = new OtpSource(['111111'], true);
    expect(mint.next()).toBe('111111');
    expect(mint.minted('111111')).toBe(false);
    const minted = mint.next()!;
    expect(minted).toMatch(/^\d{6}$/);
    expect(minted).not.toBe('000000');
    expect(mint.minted(minted)).toBe(true);
  });

  it('deals the given OTPs out to workers, each one to exactly one worker', () => {
    const given = ['100001', '100002', '100003', '100004', '100005'];
    const taken = [0, 1, 2].map((index) => {
      const s = new OtpSource(given, false, { index, count: 3 });
      const out: string[] = [];
      for (let o = s.next(); o !== undefined; o = s.next()) out.push(o);
      return out;
    });
    expect(taken).toEqual([['100001', '100004'], ['100002', '100005'], ['100003']]);
  });

  it('mints OTPs of its own residue, so two workers never mint the same one', () => {
    const count = 4;
    const seen = new Map<string, number>();
    for (let index = 0; index < count; index++) {
      const s = new OtpSource([], true, { index, count });
      for (let i = 0; i < 500; i++) {
        const otp = s.next()!;
        expect(Number(otp) % count).toBe(index);
        expect(Number(otp)).toBeGreaterThan(0);
        expect(seen.get(otp) ?? index).toBe(index);
        seen.set(otp, index);
      }
    }
  });
});
