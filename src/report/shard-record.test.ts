import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ToolkitError, isToolkitError } from '../core/index.ts';
import { digestOf } from './coverage.ts';
import { scrubSecrets } from './scrub.ts';
import { readShardRecord, shardRecordPieces, writeShardRecord } from './shard-record.ts';
import { reportsDirs, runInfo, runRecord, testRecord } from './testing.ts';
import { writeReportFileInPieces } from './write.ts';

const dirs = reportsDirs('pcc-shard-record-');

/** Two tests, the second with a secret in a request body and a bearer token in a header. */
function record() {
  const leaky = testRecord({
    scenario: 'pairs',
    exchanges: [
      {
        seq: 1,
        operationId: 'getToken',
        request: {
          method: 'POST',
          path: '/v1/pay-connect/token/',
          headers: { authorization: 'Bearer abcdefghijklmnopqrstuvwxyz012345' },
          body: { client_id: 'id-1', client_secret: 's3cr3t-value' },
        },
        response: { status: 200, headers: {}, body: { access_token: 'tok-123', expires_in: '3600' } },
        startedAt: '2026-01-02T03:04:06.000Z',
        durationMs: 3,
      },
    ] as never,
  });
  return runRecord([testRecord(), leaky], ['an unhandled error', 'fetch failed: Bearer zyxwvutsrqponmlkjihgfedcba987654 refused']);
}

describe('writeShardRecord', () => {
  it('writes, a test at a time, what one JSON of the scrubbed record would hold: merge-reports reads it back', async () => {
    const dir = await dirs();
    const r = record();
    const path = writeShardRecord(dir, { index: 2, count: 3 }, runInfo(), r, '/pkg');
    const text = readFileSync(path, 'utf8');
    expect(text.endsWith('}\n')).toBe(true);
    expect(text).not.toContain('s3cr3t-value');
    expect(text).not.toContain('tok-123');
    expect(text).not.toContain('abcdefghijklmnopqrstuvwxyz012345');
    expect(text).not.toContain('zyxwvutsrqponmlkjihgfedcba987654');
    const back = readShardRecord(dir);
    expect(back.shard).toEqual({ index: 2, count: 3 });
    expect(back.root).toBe('/pkg');
    expect(back.info).toEqual(runInfo());
    // The record as it was, each test scrubbed and given its coverage digest.
    expect(back.record).toEqual({ ...scrubSecrets(r), tests: scrubSecrets(r.tests).map((t) => ({ ...t, coverage: digestOf(t) })) });
    expect(JSON.stringify(back.record.tests[1]!.exchanges)).toContain('[REDACTED]');
    // Nothing beside it: the temporary file was renamed.
    expect(readdirSync(dir).filter((f) => f.includes('.tmp'))).toEqual([]);
  });

  it('gives a record without tests an empty list', () => {
    const text = [...shardRecordPieces({ index: 1, count: 1 }, runInfo(), runRecord([]))].join('');
    expect(JSON.parse(text).record.tests).toEqual([]);
  });
});

describe('writeReportFileInPieces', () => {
  it('writes whole or not at all: a piece that fails leaves the earlier file and no temporary one', async () => {
    const dir = await dirs();
    const path = join(dir, 'x.json');
    writeReportFileInPieces(path, ['{"a":', '1}']);
    expect(readFileSync(path, 'utf8')).toBe('{"a":1}');
    function* failing() {
      yield '{"b":';
      throw new Error('no more');
    }
    let error: unknown;
    try {
      writeReportFileInPieces(path, failing());
    } catch (e) {
      error = e;
    }
    expect(isToolkitError(error) && error.code).toBe('PCC_REPORT_WRITE');
    expect(readFileSync(path, 'utf8')).toBe('{"a":1}');
    expect(readdirSync(dir).filter((f) => f.includes('.tmp'))).toEqual([]);
    expect(existsSync(path)).toBe(true);
  });

  it("passes a toolkit error of the pieces' maker on as it is (a bug is not the folder's fault)", async () => {
    const dir = await dirs();
    function* buggy(): Generator<string> {
      throw new ToolkitError('PCC_INTERNAL', 'a bug', 'report it');
    }
    expect(() => writeReportFileInPieces(join(dir, 'y.json'), buggy())).toThrow(expect.objectContaining({ code: 'PCC_INTERNAL' }));
    expect(readdirSync(dir).filter((f) => f.startsWith('y.json'))).toEqual([]);
  });
});
