/** Unit tests of merging shards: the order, what refuses a merge, and the merged record. */
import { describe, expect, it } from 'vitest';
import type { RunInfo, ShardRecord } from '../report/index.ts';
import { mergeRecords, orderShards } from './merge-reports.ts';

const info = (over: Partial<RunInfo> = {}): RunInfo => ({
  tool: { name: 'pcc', version: '1' },
  target: { kind: 'sim', baseUrl: 'http://127.0.0.1:1' },
  profile: 'sandbox',
  terminalMode: 'auto',
  seed: 1,
  strict: false,
  integratorId: 'i',
  suitesSelected: [],
  contract: { file: 'c', sha256: 'abc' },
  faults: [],
  startedAt: '2026-11-25T10:00:00.000Z',
  finishedAt: '2026-11-25T10:01:00.000Z',
  ...over,
});
const test = (name: string) => ({
  name,
  capability: 'auth',
  clause: 'spec#x',
  file: 'f',
  state: 'passed' as const,
  durationMs: 1,
  findings: [],
  errors: [],
  parameters: {},
  exchanges: [],
  exchangeCount: 0,
});
const shard = (index: number, count: number, over: Partial<RunInfo> = {}, tests = [test(`t${index}`)]): ShardRecord & { dir: string } => ({
  format: 'payconnect-conformance/run-record@1',
  shard: { index, count },
  info: info(over),
  dir: `shard-${index}`,
  record: { tests, unhandled: [], startedAt: info(over).startedAt, durationMs: 60_000 },
});

describe('orderShards', () => {
  it('orders the shards by index', () => {
    expect(orderShards([shard(2, 2), shard(1, 2)]).map((s) => s.dir)).toEqual(['shard-1', 'shard-2']);
  });

  it.each([
    ['none at all', [], 'needs the reports folders'],
    ['a shard missing', [shard(1, 3), shard(3, 3)], 'shard 2/3 missing'],
    ['a shard twice', [shard(1, 2), shard(1, 2), shard(2, 2)], 'given twice'],
    ['shards of different counts', [shard(1, 2), shard(2, 3)], 'is shard 2/3'],
    ['another contract', [shard(1, 2), shard(2, 2, { contract: { file: 'c', sha256: 'def' } })], 'differ in contract'],
    ['other faults', [shard(1, 2), shard(2, 2, { faults: ['webhook.none'] })], 'differ in simulator faults'],
    ['strict in one only', [shard(1, 2), shard(2, 2, { strict: true })], 'differ in strict'],
    [
      'another seed (the printed replay would not replay shard 2)',
      [shard(1, 2), shard(2, 2, { seed: 2 })],
      'differ in seed: 1 in shard-1, 2 in shard-2',
    ],
    [
      'another service',
      [
        shard(1, 2, { target: { kind: 'url', baseUrl: 'https://a.example' } }),
        shard(2, 2, { target: { kind: 'url', baseUrl: 'https://b.example' } }),
      ],
      'differ in target',
    ],
    ['another toolkit version', [shard(1, 2), shard(2, 2, { tool: { name: 'pcc', version: '2' } })], 'differ in toolkit version'],
    [
      'other coverage exclusions',
      [shard(1, 2), shard(2, 2, { coverageExclude: [{ item: 'getToken 500', reason: 'r' }] })],
      'differ in coverage exclusions',
    ],
    ['other labels', [shard(1, 2, { labels: { firmware: '4.2.1' } }), shard(2, 2, { labels: { firmware: '4.2.0' } })], 'differ in labels'],
  ])('refuses %s (PCC_USAGE)', (_what, shards, text) => {
    expect(() => orderShards(shards)).toThrow(expect.objectContaining({ code: 'PCC_USAGE', message: expect.stringContaining(text) }));
  });
});

describe('mergeRecords', () => {
  it("joins the tests in shard order, takes the slowest shard's duration, lists each simulator once and names unhandled errors by shard", () => {
    const one = shard(1, 2, { target: { kind: 'sim', baseUrl: 'http://127.0.0.1:1' } });
    const two = shard(2, 2, {
      target: { kind: 'sim', baseUrl: 'http://127.0.0.1:2' },
      startedAt: '2026-11-25T10:00:30.000Z',
      finishedAt: '2026-11-25T10:02:00.000Z',
    });
    two.record = { ...two.record, startedAt: '2026-11-25T10:00:30.000Z', unhandled: ['a file failed to load'] };
    const { record, info: merged } = mergeRecords([one, two]);
    expect(record.tests.map((t) => t.name)).toEqual(['t1', 't2']);
    expect(record.unhandled).toEqual(['shard 2/2: a file failed to load']);
    // 60 s each, the second started 30 s later: the run's duration is a shard's, not the span of both.
    expect(record.durationMs).toBe(60_000);
    expect(merged.target.baseUrl).toBe('http://127.0.0.1:1, http://127.0.0.1:2');
    expect([merged.startedAt, merged.finishedAt]).toEqual(['2026-11-25T10:00:00.000Z', '2026-11-25T10:02:00.000Z']);
  });
});

describe('mergeRecords across CI jobs', () => {
  it("places each shard's test files under this checkout's root, so the merged reports name them as a run here would", () => {
    const one = { ...shard(1, 2, {}, [{ ...test('a'), file: '/ci/job-1/pkg/suites/auth/token.suite.ts' }]), root: '/ci/job-1/pkg/' };
    const two = {
      ...shard(2, 2, {}, [
        { ...test('b'), file: '/ci/job-2/pkg/suites/config/config.suite.ts' },
        { ...test('c'), file: 'receiver-check/x' },
      ]),
      root: '/ci/job-2/pkg',
    };
    const { record } = mergeRecords([one, two], '/here/pkg/');
    expect(record.tests.map((t) => t.file)).toEqual([
      '/here/pkg/suites/auth/token.suite.ts',
      '/here/pkg/suites/config/config.suite.ts',
      'receiver-check/x',
    ]);
    expect(mergeRecords([one, two]).record.tests[0]!.file).toBe('/ci/job-1/pkg/suites/auth/token.suite.ts');
  });
});
