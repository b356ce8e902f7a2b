/** Unit tests of the transcript's assembly from the workers' staging files. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../config/testing.ts';
import type { TestRecord } from '../report/index.ts';
import { assembleTranscript, readTranscript } from './assemble.ts';

const { emptyDir } = useTempDirs();

const line = (test: string, seq: number, w: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ kind: 'exchange', test, scope: 1, time: '2026-01-01T00:00:00.000Z', seq, w, ...extra });

describe('assembleTranscript', () => {
  it("orders the workers' lines by test and sequence, keeps each as written, and leaves out a half-written last line", async () => {
    const dir = await emptyDir();
    const staging = join(dir, 'staging');
    mkdirSync(staging);
    const names = ['b > ünïcode “quoted” \\ test', 'a > first'];
    writeFileSync(join(staging, 'w1-1.jsonl'), `${line(names[0]!, 2, 1, { body: 'é'.repeat(70_000) })}\n${line(names[1]!, 1, 1)}\n`);
    writeFileSync(join(staging, 'w2-1.jsonl'), `${line(names[0]!, 1, 2)}\n${line(names[1]!, 3, 2)}\n{"kind":"exchange","test":"a > fi`);
    const tests = [{ name: names[1] }, { name: names[0] }] as unknown as TestRecord[];
    const out = await assembleTranscript({ stagingDir: staging, reportsDir: dir, header: { info: { tool: 'x' } } as never, tests });
    expect(out.events).toBe(6);
    expect(out.bytes).toBeGreaterThan(0);
    const { header, events } = await readTranscript(dir);
    expect(header.kind).toBe('header');
    expect(events.map((e) => `${e.kind} ${e.test} w${e.w} #${e.seq}`)).toEqual([
      `exchange ${names[1]} w1 #1`,
      `exchange ${names[1]} w2 #3`,
      `test ${names[1]} w0 #1`,
      `exchange ${names[0]} w1 #2`,
      `exchange ${names[0]} w2 #1`,
      `test ${names[0]} w0 #2`,
    ]);
    expect((events[3] as unknown as { body: string }).body).toBe('é'.repeat(70_000));
  });

  it('says a reports folder it cannot write in is a report-write error, and ends', async () => {
    const dir = await emptyDir();
    const staging = join(dir, 'staging');
    mkdirSync(staging);
    writeFileSync(
      join(staging, 'w1-1.jsonl'),
      `${Array.from({ length: 2000 }, (_, i) => line('t', i, 1, { body: 'x'.repeat(500) })).join('\n')}\n`,
    );
    const err = await assembleTranscript({
      stagingDir: staging,
      reportsDir: join(dir, 'missing', 'folder'),
      header: {} as never,
      tests: [],
    }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'PCC_REPORT_WRITE' });
  });
});
