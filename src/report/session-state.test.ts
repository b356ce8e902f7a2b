import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TestRecord } from './records.ts';
import { SESSION_FILE, SessionWriter, type SessionFingerprint, assertSameSession, readSession } from './session-state.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const dir = () => {
  const d = mkdtempSync(join(tmpdir(), 'pcc-session-'));
  dirs.push(d);
  return d;
};

const fingerprint: SessionFingerprint = {
  target: 'http://127.0.0.1:1',
  profile: 'sandbox',
  terminalMode: 'manual',
  strict: false,
  suites: [],
  grep: '',
  faults: [],
  contractSha256: 'abc',
  toolVersion: '0.1.0',
};
const base = { fingerprint, seed: 7, labels: { firmware: '4.2.1' }, startedAt: '2026-11-25T10:00:00.000Z', runs: 1 };
const test = (name: string, state: TestRecord['state'], extra: Partial<TestRecord> = {}): TestRecord => ({
  name,
  capability: 'payment',
  clause: 'c',
  file: 'f',
  state,
  durationMs: 1,
  findings: [],
  errors: [],
  parameters: {},
  exchanges: [],
  exchangeCount: 0,
  ...extra,
});

describe('session state', () => {
  it('keeps each pass on disk at once (manual session), never a failure, a skip or a carried record', () => {
    const d = dir();
    const w = new SessionWriter(d, base);
    expect(readSession(d).passed).toEqual([]);
    w.add(test('payment > a', 'passed'));
    expect(readSession(d).passed.map((t) => t.name)).toEqual(['payment > a']);
    w.add(test('payment > b', 'failed'));
    w.add(test('payment > c', 'skipped'));
    w.add(test('payment > d', 'passed', { carriedFrom: base.startedAt }));
    const state = readSession(d);
    expect(state.passed.map((t) => t.name)).toEqual(['payment > a']);
    expect(state).toMatchObject({ seed: 7, labels: { firmware: '4.2.1' }, runs: 1, fingerprint });
  });

  it('starts a resumed session with the carried passes; a throttled writer writes on flush', () => {
    const d = dir();
    const w = new SessionWriter(d, { ...base, runs: 2 }, [test('payment > a', 'passed')], { throttleMs: 60_000 });
    w.add(test('payment > b', 'passed'));
    expect(readSession(d).passed.map((t) => t.name)).toEqual(['payment > a']);
    w.flush();
    expect(readSession(d).passed.map((t) => t.name)).toEqual(['payment > a', 'payment > b']);
    expect(readSession(d).runs).toBe(2);
  });

  it('scrubs secrets by shape before they reach the file', () => {
    const d = dir();
    const w = new SessionWriter(d, base);
    w.add(
      test('payment > a', 'passed', {
        exchanges: [
          {
            request: { headers: { authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.payload' } },
            response: { body: { client_secret: 'cs-very-secret' } },
          },
        ],
      }),
    );
    const text = readFileSync(join(d, SESSION_FILE), 'utf8');
    expect(text).not.toContain('eyJhbGciOiJIUzI1NiJ9');
    expect(text).not.toContain('cs-very-secret');
    expect(text).toContain('[REDACTED]');
  });

  it("keeps an unattended run's passes without their exchanges (the count stays)", () => {
    const d = dir();
    const w = new SessionWriter(d, base, [], { evidence: false });
    w.add(test('payment > a', 'passed', { exchanges: [{ seq: 1 }], exchangeCount: 1, deliveries: [{ seq: 2 }] }));
    expect(readSession(d).passed[0]).toMatchObject({ exchanges: [], deliveries: [], exchangeCount: 1 });
  });

  it('refuses to resume without a session, from a broken file or another version', () => {
    const d = dir();
    expect(() => readSession(d)).toThrow(/holds no session.json/);
    writeFileSync(join(d, SESSION_FILE), '{"format":');
    expect(() => readSession(d)).toThrow(/is not valid JSON/);
    writeFileSync(join(d, SESSION_FILE), JSON.stringify({ format: 'other@9', fingerprint, passed: [] }));
    expect(() => readSession(d)).toThrow(/not a session of this version/);
  });

  it('refuses a resume with other settings, seed or labels, naming what differs', () => {
    const d = dir();
    new SessionWriter(d, base);
    const state = readSession(d);
    expect(() => assertSameSession(state, fingerprint, {}, d)).not.toThrow();
    expect(() => assertSameSession(state, fingerprint, { seed: 7, labels: { firmware: '4.2.1' } }, d)).not.toThrow();
    expect(() => assertSameSession(state, { ...fingerprint, suites: ['payment'] }, {}, d)).toThrow(
      /ran with suites all, this run has payment/,
    );
    expect(() => assertSameSession(state, { ...fingerprint, strict: true }, {}, d)).toThrow(/strictness false/);
    expect(() => assertSameSession(state, { ...fingerprint, target: 'http://127.0.0.1:2' }, {}, d)).toThrow(/target/);
    expect(() => assertSameSession(state, fingerprint, { seed: 8 }, d)).toThrow(/seed is 7, --seed says 8/);
    expect(() => assertSameSession(state, fingerprint, { labels: { firmware: '4.2.2' } }, d)).toThrow(/labels are firmware=4.2.1/);
  });
});
