import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baselineCommand, expiryOf } from './baseline.ts';

const today = new Date('2026-11-26T15:00:00Z');
const io = () => {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { stdout: (s: string) => void out.push(s), stderr: (s: string) => void err.push(s), interactive: false } };
};

describe('baseline write', () => {
  it('reads --expires as days, weeks or a date, from today and within a year', () => {
    expect(expiryOf('30d', today)).toBe('2026-12-26');
    expect(expiryOf('2w', today)).toBe('2026-12-10');
    expect(expiryOf('2027-01-15', today)).toBe('2027-01-15');
    expect(() => expiryOf('2026-11-25', today)).toThrow(/in the past/);
    expect(() => expiryOf('400d', today)).toThrow(/more than 366 days/);
    expect(() => expiryOf('2026-02-30', today)).toThrow(/not a number of days or weeks, nor a date/);
    expect(() => expiryOf('soon', today)).toThrow(/not a number of days/);
  });

  it('writes entries from a summary, merges into the file, and leaves a malformed file as it was', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pcc-bl-'));
    const finding = (check: string, severity: string) => ({
      check,
      severity,
      clause: 'spec#x',
      message: `${check} broke`,
      test: 't',
      evidence: { exchange: { operationId: 'getConfiguration' } },
      repeats: 0,
      repeatedIn: [],
    });
    writeFileSync(
      join(dir, 'summary.json'),
      JSON.stringify({ findings: [finding('response.schema', 'failure'), finding('response.enum', 'warning')] }),
    );
    const file = join(dir, 'b.yaml');
    const a = io();
    expect(
      await baselineCommand(['write', file, '--from', dir, '--expires', '30d', '--reason', 'known', '--failures-only'], {}, a.io, today),
    ).toBe(0);
    expect(readFileSync(file, 'utf8')).toMatch(/check: response\.schema[\s\S]*expires: 2026-12-26/);
    const b = io();
    expect(await baselineCommand(['write', file, '--from', dir, '--expires', '30d', '--reason', 'known'], {}, b.io, today)).toBe(0);
    expect(b.out.join('')).toMatch(/1 entry added .*1 already there and kept as they were.*; 2 in all/);
    writeFileSync(file, 'entries: [');
    await expect(
      baselineCommand(['write', file, '--from', dir, '--expires', '30d', '--reason', 'known'], {}, io().io, today),
    ).rejects.toMatchObject({ code: 'PCC_CONFIG_INVALID' });
    expect(readFileSync(file, 'utf8')).toBe('entries: [');
    await expect(baselineCommand(['write', file, '--from', dir, '--reason', 'known'], {}, io().io, today)).rejects.toThrow(
      /needs --expires/,
    );
    await expect(
      baselineCommand(['write', join(dir, 'c.json'), '--from', join(dir, 'none'), '--expires', '1d', '--reason', 'r'], {}, io().io, today),
    ).rejects.toThrow(/cannot be read/);
  });
});
